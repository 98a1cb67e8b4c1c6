package tools

import (
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"deckhand/testutil"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// TestFlagsGolden guards the flags while their checks are made faster:
// every tool's flags over testdata (the 31 servers of testdata/catalog side
// by side, the npm servers' definitions of testdata/npm, and each attack of
// testdata/poison beside the benign npm servers), and each of their
// strings' first sign of each kind, compared with testdata/flags.golden,
// written by the code before any such change (refresh on purpose with
// -update):
//
//	go test -tags no_animations -run TestFlagsGolden ./tools/ -update
func TestFlagsGolden(t *testing.T) {
	var b strings.Builder
	dump := func(context string, c *Catalog, only func(Tool) bool) {
		for _, tool := range c.Tools() {
			if only != nil && !only(tool) {
				continue
			}
			fmt.Fprintf(&b, "%s %s\n", context, tool.Display)
			for _, f := range tool.Flags {
				fmt.Fprintf(&b, "\tflag %s: %q\n", f.Kind, f.Text)
			}
			for _, f := range fields(&tool, nil) {
				texts := []string{f.text}
				if f.name {
					texts = append(texts, nameWords(f.text))
				}
				for _, text := range texts {
					for _, m := range allSigns(text, nil) {
						fmt.Fprintf(&b, "\tsign %s in %s: %q\n", m.kind, f.where(), m.text)
					}
				}
			}
		}
	}
	sources := func(dir string) map[string]Source {
		out := map[string]Source{}
		for alias, list := range testutil.LoadCatalog(t, dir) {
			out[alias] = Source{Tools: list}
		}
		return out
	}
	dump("catalog", NewCatalog(sources(filepath.Join("testdata", "catalog"))), nil)
	npm := sources(filepath.Join("testdata", "npm"))
	dump("npm", NewCatalog(npm), nil)

	// Each attack beside the benign servers it would shadow or imitate
	// (as TestPoisonRecall puts them, from the definitions kept here):
	// its own tools, and any benign tool whose flags it changes.
	benign := map[string]Source{"fs": npm["filesystem"], "everything": npm["everything"], "memory": npm["memory"]}
	alone := map[string][]Flag{}
	for _, tool := range NewCatalog(benign).Tools() {
		alone[tool.Display] = tool.Flags
	}
	dirs, err := filepath.Glob(filepath.Join("testdata", "poison", "*"))
	if err != nil {
		t.Fatal(err)
	}
	dirs = slices.DeleteFunc(dirs, func(d string) bool { fi, err := os.Stat(d); return err != nil || !fi.IsDir() })
	slices.Sort(dirs)
	for _, dir := range append([]string{filepath.Join("testdata", "poison")}, dirs...) {
		for _, class := range attackClasses {
			for i, a := range loadAttacks(t, dir, class) {
				src := maps.Clone(benign)
				src[a.Alias] = Source{Tools: a.Tools}
				dump(fmt.Sprintf("%s/%s#%d", filepath.Base(dir), class, i), NewCatalog(src), func(tool Tool) bool {
					return tool.Server == a.Alias || !slices.Equal(tool.Flags, alone[tool.Display])
				})
			}
		}
	}

	golden := filepath.Join("testdata", "flags.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("reading the golden flags (write them with -update from the code before a change): %v", err)
	}
	if diff := cmp.Diff(string(want), b.String()); diff != "" {
		t.Errorf("flags over testdata differ from %s (-want +got):\n%s", golden, diff)
	}
}
