package gui

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// doc.go is the package's index: every file is in it, and it names none
// that is gone.
func TestDocIndexesEveryFile(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("*.go")
	have := map[string]bool{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") || f == "doc.go" {
			continue
		}
		have[f] = true
		if !regexp.MustCompile(`\b` + regexp.QuoteMeta(f) + `\b`).Match(doc) {
			t.Errorf("doc.go does not say what %s is", f)
		}
	}
	for _, m := range regexp.MustCompile(`(?:^|[^*/\w])([a-z][a-z_]*\.go)\b`).FindAllStringSubmatch(string(doc), -1) {
		if m := m[1]; !have[m] && m != "doc.go" {
			t.Errorf("doc.go names %s, which is not in the package", m)
		}
	}
}
