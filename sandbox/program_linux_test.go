package sandbox

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// programName is the name a copy of this test binary is run by to be the
// program of TestProgramRunsTheOpenedFile: it says "original", and
// "copied" where it runs from the sandbox's copy.
const programName = "deckhand-program"

func init() {
	if filepath.Base(os.Args[0]) != programName {
		return
	}
	os.Stdout.WriteString("original\n")
	if mounts, err := os.ReadFile("/proc/self/mountinfo"); err == nil && bytes.Contains(mounts, []byte(" "+pinnedProgram+" ")) {
		os.Stdout.WriteString("copied\n")
	}
	os.Exit(0)
}

// Cmd.Program: what runs is the file the caller opened, whatever is at the
// path when the program starts: the same file (run by its path, the
// sandbox's bind holding it), one put in its place (the opened file runs,
// confined from a copy of it), or none (removed: the copy runs).
// Unconfined, it runs from its descriptor.
func TestProgramRunsTheOpenedFile(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		confined bool
		change   string // "", "replace", "remove"
		copied   bool   // the confined program runs from a copy
	}{
		{"confined, unchanged", true, "", false},
		{"confined, replaced", true, "replace", true},
		{"confined, removed", true, "remove", true},
		{"unconfined, replaced", false, "replace", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.confined {
				requireSandbox(t)
			}
			prog := filepath.Join(t.TempDir(), programName)
			if err := copyFile(self, prog); err != nil {
				t.Fatal(err)
			}
			f, err := os.Open(prog)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			switch tc.change {
			case "replace":
				os.WriteFile(prog+".new", []byte("#!/bin/sh\necho planted\n"), 0o755)
				if err := os.Rename(prog+".new", prog); err != nil {
					t.Fatal(err)
				}
			case "remove":
				os.Remove(prog)
			}
			var spec *Spec
			if tc.confined {
				spec = &Spec{Read: append(slices.Clone(systemDirs), prog)}
			}
			cmd, err := Command(prog, nil, []string{"PATH=/usr/bin:/bin"}, spec)
			if err != nil {
				t.Fatal(err)
			}
			cmd.Program = f
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			if err := cmd.Wait(); err != nil {
				t.Fatalf("%v: %s (%v)", err, out.String(), cmd.BuildFailure())
			}
			want := "original\n"
			if tc.copied {
				want += "copied\n"
			}
			if got := out.String(); got != want {
				t.Errorf("the program said %q, want %q", got, want)
			}
			if strings.Contains(out.String(), "planted") {
				t.Error("the file put in the program's place ran")
			}
		})
	}
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
