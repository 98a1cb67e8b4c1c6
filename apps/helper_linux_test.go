package apps

import (
	"bufio"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"deckhand/sandbox"
	"deckhand/testutil"
)

// A copy of this test binary named deckhand-view is a stand-in view
// helper: it takes the first frame and answers with the event "original".
func init() {
	if filepath.Base(os.Args[0]) != HelperName {
		return
	}
	in := bufio.NewReader(os.Stdin)
	if _, err := in.ReadString('\n'); err != nil {
		os.Exit(1)
	}
	os.Stdout.WriteString(`{"event":"original"}` + "\n")
	io.Copy(io.Discard, in)
	os.Exit(0)
}

// A view runs the helper Deckhand opened at its start, not what is at its
// path when the view opens: a program that may write the folder of
// Deckhand's binary removes the helper and puts a script of its own in
// its place (here after the helper was opened, as it could any time while
// Deckhand runs). The view still starts the one opened (it answers
// "original"), unconfined (from its descriptor) and in Deckhand's sandbox
// (from a copy of it: the path shows the script there). Before, each view
// started what was at the path: the script, with the display.
func TestViewRunsTheHelperOpenedAtStart(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, confined := range []bool{false, true} {
		name := "unconfined"
		if confined {
			name = "confined"
		}
		t.Run(name, func(t *testing.T) {
			if confined {
				if err := sandbox.Available(); err != nil {
					t.Skip(err)
				}
			}
			path := filepath.Join(t.TempDir(), HelperName)
			testutil.CopyProgram(t, self, path)
			openedAt(t, path)
			planted := path + ".planted"
			if err := os.WriteFile(planted, []byte("#!/bin/sh\necho '{\"event\":\"planted\"}'\ncat >/dev/null\n"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(planted, path); err != nil {
				t.Fatal(err)
			}
			found, err := FindHelper()
			if err != nil || found != path {
				t.Fatalf("FindHelper: %q, %v; want %s", found, err, path)
			}
			var p *Process
			if confined {
				p, err = StartConfined(found, OpenView{Title: "t"}, CSP{}, nil)
			} else {
				p, err = Start(found, OpenView{Title: "t"}, nil)
			}
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			f, err := p.Read()
			if err != nil || f.Event != "original" {
				t.Fatalf("the view started something else than the helper opened at start: %+v, %v", f, err)
			}
		})
	}
}

// A helper missing at Deckhand's start stays missing: one put there later
// (by a program that may write the folder) is not looked up and run.
func TestHelperMissingAtStartStaysMissing(t *testing.T) {
	path := filepath.Join(t.TempDir(), HelperName)
	startedWith(t, path, nil, &NoHelperError{Path: path})
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	var missing *NoHelperError
	if _, err := FindHelper(); !errors.As(err, &missing) || missing.Path != path {
		t.Errorf("FindHelper with a helper put there after the start: %v; want it missing at %s", err, path)
	}
}

// Only a helper no one else may change is run: not one others may write,
// nor a folder, nor one that is not executable.
func TestOpenHelperRefuses(t *testing.T) {
	dir := t.TempDir()
	for name, mode := range map[string]os.FileMode{"group-writable": 0o775, "world-writable": 0o757, "not-executable": 0o644} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte("#!/bin/sh\n"), mode); err != nil {
			t.Fatal(err)
		}
		os.Chmod(path, mode) // past the umask
		if f, err := openHelper(path); err == nil {
			f.Close()
			t.Errorf("%s (%v): opened", name, mode)
		}
	}
	if f, err := openHelper(dir); err == nil {
		f.Close()
		t.Error("a folder: opened")
	}
	ok := filepath.Join(dir, "ok")
	os.WriteFile(ok, []byte("#!/bin/sh\n"), 0o755)
	os.Chmod(ok, 0o755)
	f, err := openHelper(ok)
	if err != nil {
		t.Fatalf("a helper of the person's, 0755: %v", err)
	}
	f.Close()
}

// openedAt makes path the helper OpenHelper opened at the start, for the
// rest of the test.
func openedAt(t *testing.T, path string) {
	f, err := openHelper(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	startedWith(t, path, f, nil)
}

func startedWith(t *testing.T, path string, f *os.File, err error) {
	OpenHelper()
	was := [3]any{opened.path, opened.file, opened.err}
	opened.path, opened.file, opened.err = path, f, err
	t.Cleanup(func() {
		opened.path, opened.file, opened.err = was[0].(string), was[1].(*os.File), nil
		if was[2] != nil {
			opened.err = was[2].(error)
		}
	})
}
