package gui

import (
	"strings"
	"testing"
	"time"

	"deckhand/actors/servers"
	"deckhand/config"
	"deckhand/testutil"
)

func TestServerSummary(t *testing.T) {
	t.Parallel()
	st := func(states ...servers.State) map[string]servers.ServerStatus {
		m := map[string]servers.ServerStatus{}
		for i, s := range states {
			alias := []string{"alpha", "bravo", "charlie", "delta", "echo", "foxtrot"}[i]
			m[alias] = servers.ServerStatus{Alias: alias, State: s}
		}
		return m
	}
	const (
		ready = servers.StateReady
		conn  = servers.StateConnecting
		idle  = servers.StateIdle
		fail  = servers.StateFailed
		reco  = servers.StateReconnecting
		stop  = servers.StateStopped
	)
	tests := []struct {
		name    string
		servers map[string]servers.ServerStatus
		want    string
	}{
		{name: "none", servers: nil, want: "no MCP servers"},
		{name: "one ready", servers: st(ready), want: "1 server ready"},
		{name: "idle counts as ready", servers: st(ready, idle), want: "2 servers ready"},
		{name: "connecting", servers: st(ready, conn, ready, conn), want: "2 servers ready · connecting: bravo, delta"},
		{name: "all connecting", servers: st(conn, conn), want: "0 servers ready · connecting: alpha, bravo"},
		{name: "down", servers: st(ready, fail, reco, conn), want: "1 server ready · connecting: delta · down: bravo, charlie"},
		{name: "disconnected is not mentioned", servers: st(ready, stop), want: "1 server ready"},
		{name: "many connecting", servers: st(conn, conn, conn, conn, conn, ready), want: "1 server ready · connecting: alpha, bravo, charlie and 2 more"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := strings.Join(serverSummary(tt.servers), " · "); got != tt.want {
				t.Errorf("serverSummary() = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestChatDoesNotWaitForServers: a server that never finishes connecting
// holds up neither the window nor the first answer, and the status line
// names it.
func TestChatDoesNotWaitForServers(t *testing.T) {
	hang := testutil.BuildProgram(t, "./testutil/stdioserver")
	h := newHarness(t, harnessOptions{
		responses: []testutil.ModelResponse{{Body: testutil.TextChunks("Here already.")}},
		cfg: func(c *config.Config) {
			c.MCP.Servers = map[string]config.Server{"slow": {Command: hang, Args: []string{"-hang"}}}
			c.MCP.ConnectTimeout = time.Minute
		},
	})
	h.until("the status line naming the server still connecting", func() bool {
		return strings.Contains(h.ui.status.Text, "connecting: slow") && strings.Contains(h.ui.status.Text, "1 server ready")
	})
	h.say("hello?")
	h.until("the answer", func() bool { return h.shows(h.ui.win, "Here already.") })
	if !strings.Contains(h.ui.status.Text, "connecting: slow") {
		t.Errorf("status = %q; want the slow server still connecting", h.ui.status.Text)
	}
}
