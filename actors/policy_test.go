package actors

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"deckhand/config"
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
	var finished []*ToolCallFinished
	var decided []*CapabilityDecided
	for len(finished) < 3 {
		switch m := testutil.Receive(t, c.events, wait, "the calls' events").(type) {
		case *ToolCallFinished:
			finished = append(finished, m)
		case *CapabilityDecided:
			decided = append(decided, m)
		case *RunFinished:
			t.Fatalf("the run ended early: %+v", m)
		}
	}
	expect[*RunFinished](c)
	if f := finished[0]; !f.Refused || !strings.Contains(f.Output, "Refused by Deckhand's policy") || !strings.Contains(f.Output, secret) || !strings.Contains(f.Output, "outside the read roots") {
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
			if !strings.Contains(string(e.Data), `"capability":"fs.`) || !strings.Contains(string(e.Data), `"rule":"outside the`) {
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
