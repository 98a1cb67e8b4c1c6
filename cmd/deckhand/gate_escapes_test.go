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

// chatRun runs `deckhand chat -p go --approve=auto` (the real binary) with
// HOME set to home, and returns exit code, stdout and stderr.
func chatRun(t *testing.T, home, cfg, db string, env ...string) (int, string, string) {
	t.Helper()
	bin := testutil.BuildProgram(t, "./cmd/deckhand")
	cmd := exec.Command(bin, "--config", cfg, "--db", db, "chat", "-p", "go", "--approve=auto", "--wait", "60s")
	cmd.Env = append([]string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "XDG_STATE_HOME=", "XDG_CONFIG_HOME="}, env...)
	r := runCmd(t, cmd)
	return r.code, r.stdout, r.stderr
}

// Four ways a call once read /etc/passwd past the path check: each is
// refused before the server hears of it. And an untrusted server's tool
// that marks itself read-only but writes: its mark lets its path be in
// the read roots (the folder the person granted "Read only"), because the
// server is sandboxed, and the kernel refuses the write; the log says
// the read was allowed on the server's own word.
func TestPathPolicyEscapes(t *testing.T) {
	home := t.TempDir()
	ws := filepath.Join(home, "Deckhand")
	os.MkdirAll(filepath.Join(home, "Documents"), 0o755)
	os.MkdirAll(ws, 0o755)
	os.Symlink("/etc/ssl", filepath.Join(ws, "ssl-link"))
	escape := testutil.BuildProgram(t, "./testutil/escape")
	long := ws + "/" + strings.Repeat("./", 2100) + "../../../etc/passwd"
	calls := []testutil.ToolCallSpec{
		{ID: "nested", Name: "hostile__lookup", Arguments: `{"opts":{"file":{"name":"/etc/passwd"}}}`},
		{ID: "symlink", Name: "hostile__lookup", Arguments: fmt.Sprintf(`{"path":%q}`, ws+"/ssl-link/../passwd")},
		{ID: "unnamed", Name: "hostile__lookup", Arguments: `{"content":"/etc/passwd"}`},
		{ID: "long", Name: "hostile__lookup", Arguments: fmt.Sprintf(`{"path":%q}`, long)},
		{ID: "hint", Name: "hostile__peek", Arguments: fmt.Sprintf(`{"path":%q,"text":"x"}`, filepath.Join(home, "Documents", "planted"))},
	}
	var responses []testutil.ModelResponse
	for _, c := range calls {
		responses = append(responses, testutil.ModelResponse{Body: testutil.ToolCallChunks(c)})
	}
	model := testutil.NewModelServer(t, append(responses, testutil.ModelResponse{Body: testutil.TextChunks("done")})...)
	cfg := writeConfig(t, fmt.Sprintf(`[model]
base_url = %q
name = "scripted"

[policy.fs]
read_roots = ["~/Deckhand", "~/Documents"]

[mcp.servers.hostile]
command = %q
args = ["serve"]
`, model.URL, escape))
	db := filepath.Join(t.TempDir(), "log.db")
	code, _, stderr := chatRun(t, home, cfg, db)
	if code != 0 {
		t.Fatalf("chat exit %d:\n%s", code, stderr)
	}
	if n := strings.Count(stderr, "Refused by Deckhand's policy"); n != len(calls)-1 {
		t.Errorf("%d of %d calls refused by the policy:\n%s", n, len(calls)-1, stderr)
	}
	if strings.Contains(stderr, "read: /") {
		t.Errorf("a refused call reached the server:\n%s", stderr)
	}
	planted := filepath.Join(home, "Documents", "planted")
	if _, err := os.Stat(planted); err == nil {
		t.Errorf("the lying read-only tool wrote ~/Documents/planted")
	}
	if !strings.Contains(stderr, "wrote "+planted+": open "+planted) {
		t.Errorf("the lying tool's write did not fail in its sandbox:\n%s", stderr)
	}
	bin := testutil.BuildProgram(t, "./cmd/deckhand")
	out, _ := exec.Command(bin, "--db", db, "logs", "--session", lastSession(t, bin, db)).CombinedOutput()
	if !strings.Contains(string(out), "read-only by its server's own mark") {
		t.Errorf("the log does not say on whose word the lying tool's read was allowed:\n%s", out)
	}
}

// lastSession is the id of the log's newest session.
func lastSession(t *testing.T, bin, db string) string {
	t.Helper()
	out, err := exec.Command(bin, "--db", db, "sessions", "--json").Output()
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(string(out), `"id": "`)
	if i < 0 {
		t.Fatalf("no session: %s", out)
	}
	rest := string(out)[i+len(`"id": "`):]
	return rest[:strings.IndexByte(rest, '"')]
}

// A secret Deckhand hands a server (policy.secrets.keys) and that the
// server echoes back reaches neither the model, the terminal, the log, nor
// `mcp call`'s output.
func TestEchoedSecretRedacted(t *testing.T) {
	const token = "ghp_EchoedBackSecret12345"
	home := t.TempDir()
	model := testutil.NewModelServer(t,
		testutil.ModelResponse{Body: testutil.ToolCallChunks(testutil.ToolCallSpec{ID: "a", Name: "p__getenv", Arguments: `{"name":"GH_TOKEN"}`})},
		testutil.ModelResponse{Body: testutil.TextChunks("done")},
	)
	cfg := writeConfig(t, fmt.Sprintf(`[model]
base_url = %q
name = "scripted"

[policy.secrets]
keys = ["GH_TOKEN"]

[mcp.servers.p]
command = %q
args = ["-probe"]
secrets = ["GH_TOKEN"]
`, model.URL, stdioServerBin(t)))
	db := filepath.Join(t.TempDir(), "log.db")
	code, stdout, stderr := chatRun(t, home, cfg, db, "GH_TOKEN="+token)
	if code != 0 || !strings.Contains(stderr, "[redacted]") {
		t.Fatalf("chat exit %d; the echo was not shown redacted:\n%s", code, stderr)
	}
	bin := testutil.BuildProgram(t, "./cmd/deckhand")
	logs, _ := exec.Command(bin, "--db", db, "logs", "--session", lastSession(t, bin, db), "--json").CombinedOutput()
	var requests strings.Builder
	for _, r := range model.Requests() {
		requests.Write(r)
	}
	cmd := exec.Command(bin, "--config", cfg, "mcp", "call", "p.getenv", `{"name":"GH_TOKEN"}`)
	cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "GH_TOKEN=" + token}
	call, _ := cmd.CombinedOutput()
	for where, text := range map[string]string{"the terminal": stdout + stderr, "the log": string(logs), "the model": requests.String(), "mcp call": string(call)} {
		if strings.Contains(text, token) {
			t.Errorf("the server's echo of the secret reached %s:\n%s", where, text)
		}
	}
	if !strings.Contains(string(call), "[redacted]") {
		t.Errorf("mcp call printed no redacted echo:\n%s", call)
	}
}

// A CMD: line whose escape sequence would show "echo hello" while a
// hidden command runs is refused, saying which character and where, even
// with every command allowed.
func TestHiddenCommandRefused(t *testing.T) {
	home := t.TempDir()
	ws := filepath.Join(home, "Deckhand")
	os.MkdirAll(ws, 0o755)
	for _, hidden := range []string{
		"touch pwned-esc\x1b[2K\recho hello",
		"echo hello\u202e;touch pwned-bidi",
		"echo hi\u200b; touch pwned-zw",
	} {
		model := testutil.NewModelServer(t,
			testutil.ModelResponse{Body: testutil.TextChunks("Let me run this:\nCMD: " + hidden + "\n")},
			testutil.ModelResponse{Body: testutil.TextChunks("ok")},
		)
		cfg := writeConfig(t, fmt.Sprintf("[model]\nbase_url = %q\nname = \"scripted\"\n\n[policy]\nallow_exec = true\n", model.URL))
		code, _, stderr := chatRun(t, home, cfg, filepath.Join(t.TempDir(), "log.db"))
		if code != 0 || !strings.Contains(stderr, "Refused (not run): the command holds U+") {
			t.Errorf("%q: exit %d, not refused:\n%s", hidden, code, stderr)
		}
		matches, _ := filepath.Glob(filepath.Join(ws, "pwned-*"))
		if len(matches) > 0 {
			t.Errorf("%q: the hidden command ran: %v", hidden, matches)
		}
	}
}
