package servers_test

import (
	"os"
	"path/filepath"
	"testing"

	"deckhand/actors/servers"
	"deckhand/actors/servers/serverstest"
	"deckhand/config"
	"deckhand/sandbox"
	"deckhand/testutil"
)

// settled awaits alias's first status that is not connecting.
func settled(t *testing.T, s *serverstest.System, alias string) *servers.ServerStatus {
	t.Helper()
	for {
		st := serverstest.Expect[*servers.ServerStatus](t, s.Events)
		if st.Alias == alias && st.Settled() {
			return st
		}
	}
}

// sandboxedHome gives the test a home folder of its own (the policy's
// workspace and the servers' state folders are in it) and skips the test
// where the sandbox cannot run.
func sandboxedHome(t *testing.T) string {
	t.Helper()
	if err := sandbox.Available(); err != nil {
		t.Skip(err)
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_STATE_HOME", filepath.Join(home, ".local", "state"))
	return home
}

// A server installed by npm, started as the command npm links under
// node_modules/.bin, runs in the sandbox: node imports its dependencies
// from the node_modules folder that holds it (npm hoists them there, beside
// the package, not inside it), which the sandbox lets it read. Through the
// worktree's testutil/node_modules, itself a link, the command and the
// package it runs are in different folders.
func TestNodeModulesBinServerSandboxed(t *testing.T) {
	testutil.RequirePeers(t)
	sandboxedHome(t)
	bin := filepath.Join(testutil.ModuleRoot(t), "testutil", "node_modules", ".bin", "mcp-server-everything")
	if _, err := os.Stat(bin); err != nil {
		t.Skip(err)
	}
	s := serverstest.Start(t, servers.Options{Servers: map[string]config.Server{"everything": {Command: bin}}})
	st := settled(t, s, "everything")
	if st.State != servers.StateReady || st.Tools == 0 {
		t.Fatalf("everything = %s, %d tools (%s), want ready with its tools", st.State, st.Tools, st.Reason)
	}
	t.Logf("%s: %d tools, sandboxed", bin, st.Tools)
}
