package actors

import (
	"crypto/sha256"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"deckhand/actors/conversation"
	"deckhand/actors/servers"
	"deckhand/approval"
	"deckhand/config"
	"deckhand/redact"
	"deckhand/sandbox"
	"deckhand/store"
	"deckhand/testutil"
)

// server-filesystem, sandboxed, asked by the model for a path outside the
// roots: the call is refused before the gate with a capability.denied
// event, the model is told why, and the server never sees it; a path in
// the workspace is allowed (capability.granted) and runs.
func TestPathOutsideTheRootsIsRefused(t *testing.T) {
	p := testutil.RequirePeers(t)
	db := openLog(t)
	home, _ := os.UserHomeDir()
	ws := filepath.Join(home, "Deckhand")
	os.MkdirAll(ws, 0o755)
	os.WriteFile(filepath.Join(ws, "notes.txt"), []byte("in the workspace"), 0o644)
	secret := filepath.Join(home, ".ssh", "id_ed25519")
	model := testutil.NewModelServer(t,
		calls(testutil.ToolCallSpec{ID: "a", Name: "fs__read_text_file", Arguments: fmt.Sprintf(`{"path":%q}`, secret)}),
		calls(testutil.ToolCallSpec{ID: "b", Name: "fs__read_text_file", Arguments: `{"path":"notes.txt"}`}),
		calls(testutil.ToolCallSpec{ID: "c", Name: "fs__write_file", Arguments: `{"path":"/etc/evil","content":"x"}`}),
		answer("done"),
	)
	c := startChatWith(t, func(o *Options) { o.Log = db }, model, nil, autoApprove("fs.*"), func(cfg *config.Config) {
		cfg.MCP.Servers = map[string]config.Server{"fs": {Command: p.Node, Args: []string{p.Filesystem, ws}}}
	})
	testutil.Eventually(t, wait, func() bool { cat, _ := c.sys.Catalog(t.Context()); return cat.Len() > 5 }, "no tools")
	c.send("read my key")
	var finished []*conversation.ToolCallFinished
	var decided []*conversation.CapabilityDecided
	for len(finished) < 3 {
		switch m := testutil.Receive(t, c.events, wait, "the calls' events").(type) {
		case *conversation.ToolCallFinished:
			finished = append(finished, m)
		case *conversation.CapabilityDecided:
			decided = append(decided, m)
		case *conversation.RunFinished:
			t.Fatalf("the run ended early: %+v", m)
		}
	}
	expect[*conversation.RunFinished](c)
	// server-filesystem says read_text_file is read-only, but it is not
	// trusted: its paths are checked as writes (an untrusted hint never
	// widens what is allowed), and ~/.ssh is a secret folder.
	if f := finished[0]; !f.Refused || !strings.Contains(f.Output, "Refused by Deckhand's policy") || !strings.Contains(f.Output, secret) || !strings.Contains(f.Output, "a secret folder") {
		t.Errorf("outside the roots: %+v", f)
	}
	if f := finished[1]; f.IsError || f.Output != "in the workspace" {
		t.Errorf("in the workspace: %+v", f)
	}
	if f := finished[2]; !f.Refused || !strings.Contains(f.Output, "/etc/evil") || !strings.Contains(f.Output, "write roots") {
		t.Errorf("writing /etc: %+v", f)
	}
	if len(decided) != 3 || decided[0].Decision.Allowed || !decided[1].Decision.Allowed || decided[2].Decision.Allowed {
		t.Errorf("decisions = %+v", decided)
	}
	syncLog(t, c)
	events, _ := db.Events(t.Context(), store.Filter{SessionID: c.conversationID(t)})
	var denied, granted int
	for _, e := range events {
		switch e.Kind {
		case store.KindCapabilityDenied:
			denied++
			if !strings.Contains(string(e.Data), `"capability":"fs.write"`) || !strings.Contains(string(e.Data), `"rule":"outside the`) && !strings.Contains(string(e.Data), `"rule":"inside ~/.ssh`) {
				t.Errorf("capability.denied data = %s", e.Data)
			}
		case store.KindCapabilityGranted:
			granted++
		}
	}
	if denied != 2 || granted != 1 {
		t.Errorf("%d capability.denied and %d capability.granted events, want 2 and 1", denied, granted)
	}
}

// CMD: lines are plain text unless policy.allow_exec: no approval, no
// command, and the model is not told of them.
func TestCommandsOffByDefault(t *testing.T) {
	model := testutil.NewModelServer(t, answer("Run this:\nCMD: touch /tmp/deckhand-should-not-exist"))
	c := startChat(t, model, nil, autoApprove("local.exec"))
	c.send("go")
	if fin := expect[*conversation.RunFinished](c); !strings.Contains(fin.Text, "CMD: touch") {
		t.Errorf("RunFinished = %+v", fin)
	}
	for _, e := range c.seen {
		if _, ok := e.(*conversation.ApprovalRequested); ok {
			t.Errorf("a command was offered with allow_exec off")
		}
	}
	if _, err := os.Stat("/tmp/deckhand-should-not-exist"); err == nil {
		t.Errorf("the command ran")
	}
}

// With allow_exec, each command is asked (an "always" answer counts once),
// and runs confined: it writes in the workspace and nowhere else, and
// gets no secrets.
func TestCommandsAreConfined(t *testing.T) {
	if err := sandbox.Available(); err != nil {
		t.Skip(err)
	}
	outside := filepath.Join(t.TempDir(), "outside")
	model := testutil.NewModelServer(t,
		answer("CMD: echo in > inside.txt && cat inside.txt; echo out > "+outside+"; cat ~/.ssh/id_ed25519; echo key=$MODEL_KEY"),
		answer("first done"),
		answer("CMD: pwd"),
		answer("second done"),
	)
	t.Setenv("MODEL_KEY", "sk-secret")
	c := startChat(t, model, nil, allowExec, func(cfg *config.Config) { cfg.Model.APIKeyEnv = "MODEL_KEY" })
	c.send("go")
	req := expect[*conversation.ApprovalRequested](c)
	if !req.Request.OnceOnly || !strings.Contains(req.Request.Command, "echo in > inside.txt") {
		t.Errorf("request = %+v", req.Request)
	}
	c.answer(req, approval.AllowAlways)
	f := expect[*conversation.ToolCallFinished](c)
	expect[*conversation.RunFinished](c)
	home, _ := os.UserHomeDir()
	ws := filepath.Join(home, "Deckhand")
	if data, _ := os.ReadFile(filepath.Join(ws, "inside.txt")); string(data) != "in\n" {
		t.Errorf("inside.txt = %q; output:\n%s", data, f.Output)
	}
	if _, err := os.Stat(outside); err == nil {
		t.Errorf("the command wrote outside the workspace; output:\n%s", f.Output)
	}
	if !strings.Contains(f.Output, "No such file") || strings.Contains(f.Output, "sk-secret") || !strings.Contains(f.Output, "key=\n") {
		t.Errorf("output:\n%s", f.Output)
	}
	c.send("again")
	req = expect[*conversation.ApprovalRequested](c) // "always" did not stick
	c.answer(req, approval.AllowOnce)
	if f := expect[*conversation.ToolCallFinished](c); !strings.Contains(f.Output, ws) {
		t.Errorf("pwd = %s, want the workspace", f.Output)
	}
}

// Servers start under the config's policy: the secrets it allows reach
// them, and its write roots are theirs to write.
func TestServersGetTheConfigsPolicy(t *testing.T) {
	if err := sandbox.Available(); err != nil {
		t.Skip(err)
	}
	extra := t.TempDir()
	srv := stdio(t, "-probe", "-hasenv")
	srv.Secrets = []string{"LMCP_TOKEN"}
	sys := start(t, map[string]config.Server{"p": srv}, func(cfg *config.Config) {
		cfg.Policy.Secrets.Keys = []string{"LMCP_TOKEN"}
		cfg.Policy.FS.WriteRoots = []string{"~/Deckhand", extra}
	})
	if st := statuses(t, sys, true)["p"]; st.State != servers.StateReady {
		t.Fatalf("status = %+v", st)
	}
	// The value reached the process (its SHA-256 says so), and echoed back
	// it is removed as a secret, whether or not the caller listed it.
	sum := fmt.Sprintf("%x", sha256.Sum256([]byte("lmcp-secret-token")))
	if got := text(t, call(t, sys, "p.hasenv", `{"name":"LMCP_TOKEN"}`)); got != "LMCP_TOKEN is set, sha256 "+sum {
		t.Errorf("the allowed secret: %q", got)
	}
	if got := text(t, call(t, sys, "p.getenv", `{"name":"LMCP_TOKEN"}`)); got != redact.Mark {
		t.Errorf("the allowed secret echoed back = %q, want %q", got, redact.Mark)
	}
	if got := text(t, call(t, sys, "p.getenv", `{"name":"WRONG_TOKEN"}`)); got != "(unset)" {
		t.Errorf("a secret nobody named = %q", got)
	}
	file := filepath.Join(extra, "x.txt")
	if got := text(t, call(t, sys, "p.write_file", fmt.Sprintf(`{"path":%q,"text":"x"}`, file))); got != "wrote "+file {
		t.Errorf("writing a write root of the config: %s", got)
	}
}

// A server whose network is a list of hosts reaches those through
// Deckhand's proxy and nothing else: another host is refused by the proxy
// (before any connection), a direct connection finds no network at all.
// Each request is a capability event in the log, and a refused host is in
// the server's status, for the servers panel to offer the setting. A
// name on the list that leads to this machine (localhost) is refused
// unless the list names the address, and the refusal says where it led
// (not that the name should be added: it is there).
func TestEgressByHost(t *testing.T) {
	if err := sandbox.Available(); err != nil {
		t.Skip(err)
	}
	web := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "hello from "+r.Host) }))
	t.Cleanup(web.Close)
	_, port, _ := net.SplitHostPort(web.Listener.Addr().String())
	db := openLog(t)
	srv := stdio(t, "-probe")
	srv.Network = config.NetworkHosts("localhost", "127.0.0.1")
	named := stdio(t, "-probe")
	named.Network = config.NetworkHosts("localhost")
	sys := startWithLog(t, db, map[string]config.Server{"p": srv, "q": named})
	if st := statuses(t, sys, true)["p"]; st.State != servers.StateReady {
		t.Fatalf("status = %+v", st)
	}
	if got := text(t, call(t, sys, "p.fetch", fmt.Sprintf(`{"url":"http://localhost:%s/"}`, port))); got != "status 200: hello from localhost:"+port {
		t.Errorf("an allowed host: %s", got)
	}
	if got := text(t, call(t, sys, "p.fetch", fmt.Sprintf(`{"url":"http://127.0.0.2:%s/"}`, port))); !strings.Contains(got, "status 403") || !strings.Contains(got, "does not allow 127.0.0.2") {
		t.Errorf("a host not in the list: %s", got)
	}
	if got := text(t, call(t, sys, "p.dial", fmt.Sprintf(`{"addr":"127.0.0.1:%s"}`, port))); got == "connected" {
		t.Errorf("a direct connection got out")
	}
	if got := text(t, call(t, sys, "q.fetch", fmt.Sprintf(`{"url":"http://localhost:%s/"}`, port))); !strings.Contains(got, "status 403") || !strings.Contains(got, "localhost resolves to") || !strings.Contains(got, "this machine's loopback") {
		t.Errorf("a listed name that leads to this machine: %s", got)
	}
	testutil.Eventually(t, wait, func() bool { return slices.Contains(statuses(t, sys, false)["p"].Refused, "127.0.0.2") }, "the refused host is not in the status")
	// The proxy's word reaches the log through each server's actor, after
	// the call's answer: wait for it rather than read the log once.
	var granted, denied int
	testutil.Eventually(t, wait, func() bool {
		if err := sys.SyncLog(t.Context()); err != nil {
			t.Fatal(err)
		}
		events, err := db.Events(t.Context(), store.Filter{Servers: true})
		if err != nil {
			t.Fatal(err)
		}
		granted, denied = 0, 0
		for _, e := range events {
			switch {
			case e.Kind == store.KindCapabilityGranted && strings.Contains(string(e.Data), `"target":"localhost:`+port+`"`):
				granted++
			case e.Kind == store.KindCapabilityDenied && strings.Contains(string(e.Data), `"target":"127.0.0.2:`+port+`"`):
				denied++
			case e.Kind == store.KindCapabilityDenied && strings.Contains(string(e.Data), `"target":"localhost:`+port+`"`):
				if !strings.Contains(string(e.Data), "this machine's loopback") {
					t.Errorf("the refusal of localhost does not say where it led: %s", e.Data)
				}
				denied++
			}
		}
		return granted >= 1 && denied >= 2
	}, "the proxy's decisions are not all in the log")
	if granted != 1 || denied != 2 {
		t.Errorf("%d capability.granted and %d capability.denied for the proxy, want 1 and 2", granted, denied)
	}
	if refused := statuses(t, sys, false)["q"].Refused; slices.Contains(refused, "localhost") {
		t.Errorf("the panel offers to add localhost, which is on the list already: %v", refused)
	}
}
