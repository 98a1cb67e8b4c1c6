package actors

import (
	"context"
	"testing"
	"time"

	"deckhand/actors/servers"
	"deckhand/config"
)

// Shutdown is Deckhand ending: its servers get mcp.ExitGrace and then
// their process groups are killed, so a server that neither ends at the
// end of its input nor on SIGTERM (server-everything once roots were
// advertised) no longer holds the exit for two 2 s graces.
func TestShutdownEndsServersAtOnce(t *testing.T) {
	cfg := &config.Config{MCP: config.MCP{Servers: map[string]config.Server{"s": stdio(t, "-linger"), "t": stdio(t, "-linger")}}}
	cfg.ApplyDefaults()
	sys := Start(Options{Config: cfg, Paths: &noLoginShell}) // shut down here, not by start's cleanup
	for alias, st := range statuses(t, sys, true) {
		if st.State != servers.StateReady {
			t.Fatalf("%s: %s %q, want ready", alias, st.State, st.Reason)
		}
	}
	ctx, cancel := context.WithTimeout(t.Context(), wait)
	defer cancel()
	begin := time.Now()
	if err := sys.Shutdown(ctx); err != nil {
		t.Fatalf("Shutdown() = %v", err)
	}
	// About 100 ms; the bound is for a loaded machine, and half of one
	// graceful close's first wait.
	if d := time.Since(begin); d > time.Second {
		t.Errorf("Shutdown() with two lingering servers took %v, want about mcp.ExitGrace", d)
	}
}
