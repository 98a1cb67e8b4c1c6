package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"deckhand/keys"
	"deckhand/testutil"
)

// mcp login and mcp logout are reachable from the command line: login
// signs in through the browser and keeps the tokens in the keyring, logout
// removes them; both refuse what cannot sign in.
func TestMCPLoginLogout(t *testing.T) {
	keys.MockInit()
	testutil.FakeBrowser(t)
	o := testutil.NewOAuthServer(t, "o", time.Hour)
	tokens := &keys.Tokens{}
	t.Cleanup(func() { tokens.Remove(o.URL) })
	cfgPath := writeConfig(t, fmt.Sprintf(`
[mcp.servers.o]
url = %q

[mcp.servers.cmd]
command = "x"
`, o.URL))
	dh := func(args ...string) result {
		return deckhand(t, nil, "", append([]string{"--config", cfgPath, "mcp"}, args...)...)
	}

	r := dh("login", "o", "--timeout", "30s")
	if want := "o: signed in as " + o.Account; r.code != exitOK || !strings.Contains(r.stdout, want) {
		t.Fatalf("mcp login o: exit %d, stdout %q, stderr %q; want exit 0 and %q", r.code, r.stdout, r.stderr, want)
	}
	if tok, err := tokens.Load(o.URL); err != nil || tok == nil {
		t.Fatalf("after mcp login, the keyring holds %v (%v), want the tokens", tok, err)
	}

	r = dh("logout", "o")
	if r.code != exitOK || !strings.Contains(r.stdout, "o: signed out") {
		t.Fatalf("mcp logout o: exit %d, stdout %q, stderr %q; want exit 0 and \"o: signed out\"", r.code, r.stdout, r.stderr)
	}
	if tok, err := tokens.Load(o.URL); err != nil || tok != nil {
		t.Errorf("after mcp logout, the keyring holds %v (%v), want nothing", tok, err)
	}

	tests := []struct {
		name string
		args []string
		want string
	}{
		{"login without alias", []string{"login"}, "usage: deckhand mcp login ALIAS"},
		{"login unknown", []string{"login", "nope"}, `no server named "nope"`},
		{"login local", []string{"login", "cmd"}, "only HTTP servers sign in"},
		{"logout without alias", []string{"logout"}, "usage: deckhand mcp logout ALIAS"},
		{"logout local", []string{"logout", "cmd"}, "it has no sign-in"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := dh(tt.args...)
			if r.code != exitUsage || !strings.Contains(r.stderr, tt.want) {
				t.Errorf("deckhand mcp %v: exit %d, stderr %q; want exit %d and %q", tt.args, r.code, r.stderr, exitUsage, tt.want)
			}
		})
	}
}
