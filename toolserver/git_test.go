package toolserver

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A repository whose own settings name programs (an fsmonitor, a clean
// filter, a textconv, an external diff, hooks) runs none of them through
// the git tools; plain git runs them (the control).
func TestGitRunsNothingOfTheRepository(t *testing.T) {
	f := newFixture(t)
	marks := filepath.Join(f.ws, "marks")
	os.MkdirAll(marks, 0o755)
	mark := func(name string) string { return "touch " + filepath.Join(marks, name) }
	gitCfg := func(kv ...string) {
		for i := 0; i < len(kv); i += 2 {
			cmd := exec.Command("git", "config", kv[i], kv[i+1])
			cmd.Dir = f.ws
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("git config: %v %s", err, out)
			}
		}
	}
	hook := func(name string) {
		os.WriteFile(filepath.Join(f.ws, ".git", "hooks", name), []byte("#!/bin/sh\n"+mark(name)+"\n"), 0o755)
	}
	os.WriteFile(filepath.Join(f.ws, ".gitattributes"), []byte("*.md filter=evil diff=evil\n"), 0o644)
	gitCfg("core.fsmonitor", filepath.Join(f.ws, "fsmon.sh"),
		"filter.evil.clean", mark("clean")+"; cat",
		"filter.evil.smudge", mark("smudge")+"; cat",
		"diff.evil.textconv", "sh -c '"+mark("textconv")+"; cat \"$0\"'",
		"diff.external", filepath.Join(f.ws, "extdiff.sh"))
	os.WriteFile(filepath.Join(f.ws, "fsmon.sh"), []byte("#!/bin/sh\n"+mark("fsmonitor")+"\n"), 0o755)
	os.WriteFile(filepath.Join(f.ws, "extdiff.sh"), []byte("#!/bin/sh\n"+mark("extdiff")+"\n"), 0o755)
	for _, h := range []string{"pre-commit", "commit-msg", "post-commit"} {
		hook(h)
	}
	os.WriteFile(filepath.Join(f.ws, "README.md"), []byte("# demo\nchanged\n"), 0o644)

	f.mustCall("git_status", nil, "README.md")
	f.mustCall("git_diff", nil, "changed")
	f.mustCall("git_log", map[string]any{"stat": true}, "first commit")
	f.mustCall("git_show", nil, "first commit")
	f.mustCall("git_add", map[string]any{"paths": []string{"README.md"}})
	f.mustCall("git_commit", map[string]any{"message": "second"})
	if got, _ := os.ReadDir(marks); len(got) > 0 {
		var names []string
		for _, e := range got {
			names = append(names, e.Name())
		}
		t.Errorf("the repository's programs ran: %s", strings.Join(names, ", "))
	}
	desc := f.tools()["git_status"].Description
	if !strings.Contains(desc, "hooks, fsmonitor, filters, textconv, external diff") {
		t.Errorf("git_status does not say what it turns off: %s", desc)
	}

	// The control: plain git runs them.
	os.WriteFile(filepath.Join(f.ws, "README.md"), []byte("# demo\nagain\n"), 0o644)
	for _, args := range [][]string{{"status"}, {"diff"}, {"commit", "-am", "third"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = f.ws
		cmd.CombinedOutput()
	}
	for _, want := range []string{"clean", "extdiff", "pre-commit", "post-commit"} {
		if _, err := os.Stat(filepath.Join(marks, want)); err != nil {
			t.Errorf("control: plain git did not run %s, so the test shows nothing", want)
		}
	}
}
