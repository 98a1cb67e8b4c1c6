package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"deckhand/testutil"
)

// The built-in shell (local.shell) runs the model's scripts: without
// policy.allow_exec it is not offered to the model, and a call of it by
// name is refused, saying why, and logged as capability.denied; with
// allow_exec (the positive control) it is offered and runs. The runs share
// a log, where the built-in server's tools are kept between starts: a list
// kept with the other setting does not decide what is offered. (Tools are
// sent eagerly here, so that "offered" is the request's tools field.)
func TestShellNeedsAllowExec(t *testing.T) {
	db := filepath.Join(t.TempDir(), "log.db")
	for i, allow := range []bool{false, true, false} {
		t.Run(fmt.Sprintf("%d/allow_exec=%v", i+1, allow), func(t *testing.T) {
			home := t.TempDir()
			ws := filepath.Join(home, "Deckhand")
			os.MkdirAll(ws, 0o755)
			model := testutil.NewModelServer(t,
				testutil.ModelResponse{Body: testutil.ToolCallChunks(testutil.ToolCallSpec{ID: "a", Name: "local__shell", Arguments: `{"command":"echo ran > ran.txt"}`})},
				testutil.ModelResponse{Body: testutil.TextChunks("done")},
			)
			cfg := writeConfig(t, fmt.Sprintf("[model]\nbase_url = %q\nname = \"scripted\"\n\n[mcp]\nlazy = \"never\"\n\n[policy]\nallow_exec = %v\n\n[tools]\nenabled = true\n", model.URL, allow))
			code, _, stderr := chatRun(t, home, cfg, db)
			if code != 0 {
				t.Fatalf("chat exit %d:\n%s", code, stderr)
			}
			reqs := model.Requests()
			if len(reqs) == 0 {
				t.Fatal("the model was not asked")
			}
			offered := strings.Contains(string(reqs[0]), `"local__shell"`)
			_, err := os.Stat(filepath.Join(ws, "ran.txt"))
			ran := err == nil
			bin := testutil.BuildProgram(t, "./cmd/deckhand")
			logs, _ := exec.Command(bin, "--db", db, "logs", "--session", lastSession(t, bin, db)).CombinedOutput()
			if allow {
				if !offered || !ran {
					t.Errorf("with allow_exec: offered %v, ran %v; want both\n%s", offered, ran, stderr)
				}
				return
			}
			if offered {
				t.Errorf("the shell was offered to the model without allow_exec: %s", reqs[0])
			}
			if ran {
				t.Errorf("the shell ran without allow_exec")
			}
			if !strings.Contains(stderr, "Refused by Deckhand's policy (not run): this call would run local.shell, which is off: policy.allow_exec is false") {
				t.Errorf("the call was not refused saying why:\n%s", stderr)
			}
			if !strings.Contains(string(logs), "capability.denied") || !strings.Contains(string(logs), "local.shell") {
				t.Errorf("the refusal is not logged as capability.denied:\n%s", logs)
			}
		})
	}
}

// The built-in local.files_read is read-only (its definition says so, and
// the built-in server's definitions are believed): a file in the read
// roots but not the write roots is read, not refused with "this call would
// write …". local.files_write to the same folder is still refused (the
// control: the folder really is outside the write roots).
func TestFilesReadUsesReadRoots(t *testing.T) {
	home := t.TempDir()
	ws := filepath.Join(home, "Deckhand")
	os.MkdirAll(ws, 0o755)
	os.WriteFile(filepath.Join(ws, "note.txt"), []byte("read-only words\n"), 0o644)
	model := testutil.NewModelServer(t,
		testutil.ModelResponse{Body: testutil.ToolCallChunks(testutil.ToolCallSpec{ID: "r", Name: "local__files_read", Arguments: `{"path":"note.txt"}`})},
		testutil.ModelResponse{Body: testutil.ToolCallChunks(testutil.ToolCallSpec{ID: "w", Name: "local__files_write", Arguments: `{"path":"other.txt","content":"x"}`})},
		testutil.ModelResponse{Body: testutil.TextChunks("done")},
	)
	cfg := writeConfig(t, fmt.Sprintf("[model]\nbase_url = %q\nname = \"scripted\"\n\n[mcp]\nlazy = \"never\"\n\n[policy.fs]\nread_roots = [\"~/Deckhand\"]\nwrite_roots = []\n\n[tools]\nenabled = true\n", model.URL))
	code, _, stderr := chatRun(t, home, cfg, filepath.Join(t.TempDir(), "log.db"))
	if code != 0 {
		t.Fatalf("chat exit %d:\n%s", code, stderr)
	}
	reqs := model.Requests()
	if len(reqs) < 2 {
		t.Fatalf("%d requests; stderr:\n%s", len(reqs), stderr)
	}
	if !strings.Contains(string(reqs[1]), "read-only words") || strings.Contains(string(reqs[1]), "this call would write") {
		t.Errorf("local.files_read of a file in the read roots did not read it; the model heard:\n%s", reqs[1])
	}
	if len(reqs) < 3 || !strings.Contains(string(reqs[2]), "this call would write") {
		t.Errorf("local.files_write outside the write roots was not refused:\n%s", stderr)
	}
	if _, err := os.Stat(filepath.Join(ws, "other.txt")); err == nil {
		t.Errorf("local.files_write wrote outside the write roots")
	}
}

// With policy.allow_exec = false a CMD: line in the model's answer stays
// text and runs nothing, and the policy's refusal of it is in the log as
// capability.denied, naming the command and the rule, as Bosun's
// "decisions logged" asks (once, the line was not even looked at).
func TestCommandLineDeniedIsLogged(t *testing.T) {
	home := t.TempDir()
	ws := filepath.Join(home, "Deckhand")
	os.MkdirAll(ws, 0o755)
	db := filepath.Join(t.TempDir(), "log.db")
	model := testutil.NewModelServer(t,
		testutil.ModelResponse{Body: testutil.TextChunks("I would run this:\n\nCMD: touch proposed.txt\n")},
	)
	cfg := writeConfig(t, scriptedConfig(model.URL))
	code, stdout, stderr := chatRun(t, home, cfg, db)
	if code != 0 || !strings.Contains(stdout, "CMD: touch proposed.txt") {
		t.Fatalf("chat exit %d:\n%s\n%s", code, stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(ws, "proposed.txt")); err == nil {
		t.Error("the command ran")
	}
	if n := model.Count(); n != 1 {
		t.Errorf("%d model requests, want 1 (nothing ran, nothing to report)", n)
	}
	bin := testutil.BuildProgram(t, "./cmd/deckhand")
	logs, _ := exec.Command(bin, "--db", db, "logs", "--session", lastSession(t, bin, db), "--json").CombinedOutput()
	var found bool
	for _, line := range strings.Split(string(logs), "\n") {
		if strings.Contains(line, `"capability.denied"`) && strings.Contains(line, "touch proposed.txt") && strings.Contains(line, "policy.allow_exec is false") && strings.Contains(line, "local.exec") {
			found = true
		}
	}
	if !found {
		t.Errorf("no capability.denied for the CMD: line:\n%s", logs)
	}
}
