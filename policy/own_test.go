package policy

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/config"
)

// Deckhand's own places are hidden inside whatever a server sees, even
// where a root opens the home folder or ~/.local; a log given with --db
// elsewhere, remembered, is hidden with its -wal and -shm; a config given
// with --config too.
func TestOwnPathsHidden(t *testing.T) {
	elsewhere := t.TempDir()
	p, home := testPolicy(t, func(c *config.Config) { c.Path = filepath.Join(elsewhere, "my.toml") })
	db := filepath.Join(elsewhere, "other.db")
	if err := Remember("log", db); err != nil {
		t.Fatal(err)
	}
	if err := Remember("log", db); err != nil { // once is enough
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(home, ".config/deckhand")); err == nil {
		t.Fatal("the config folder exists before any sandbox is built")
	}
	data, _ := os.ReadFile(filepath.Join(home, ".local/share/deckhand", rememberedName))
	if n := strings.Count(string(data), "\n"); n != 1 {
		t.Errorf("the list holds %d lines, want 1:\n%s", n, data)
	}
	for _, srv := range []config.Server{
		{Command: "srv", Read: []string{"~"}},
		{Command: "srv", Read: []string{"~/.local"}},
		{Command: "srv", Cwd: "~"},
		{Command: "srv", Write: []string{"~", elsewhere}},
	} {
		s, err := p.ServerSpec("x", srv, "/usr/bin/srv", "")
		if err != nil {
			t.Fatalf("ServerSpec(%+v) = %v", srv, err)
		}
		for _, want := range []string{
			filepath.Join(home, ".local/share/deckhand"), filepath.Join(home, ".config/deckhand"),
			db, db + "-wal", db + "-shm", filepath.Join(elsewhere, "my.toml"), filepath.Join(elsewhere, "tools-token"),
		} {
			if !slices.Contains(s.Hide, want) {
				t.Errorf("ServerSpec(%+v).Hide lacks %s: %v", srv, want, s.Hide)
			}
		}
	}
	// A missing own folder is made, to be hidden: a server that may
	// write ~ cannot make ~/.config/deckhand and fill it.
	if st, err := os.Stat(filepath.Join(home, ".config/deckhand")); err != nil || st.Mode().Perm() != 0o700 {
		t.Errorf("the config folder after building a sandbox: %v, %v; want it made, 0700", st, err)
	}
	if s := p.CommandSpec("/bin/sh"); !slices.Contains(s.Hide, filepath.Join(home, ".local/share/deckhand")) {
		t.Errorf("CommandSpec().Hide lacks the data folder: %v", s.Hide)
	}
	own := p.OwnIn([]string{home})
	if !slices.ContainsFunc(own, func(o OwnPath) bool { return o.Path == filepath.Join(home, ".local/share/deckhand") }) ||
		slices.ContainsFunc(own, func(o OwnPath) bool { return o.Path == db }) {
		t.Errorf("OwnIn(~) = %v, want the data folder and not %s", own, db)
	}
}

// A root that names one of Deckhand's own places, or lies inside one, is
// refused, saying which key of which file and why; a tool call naming a
// path there is refused even when a root names it.
func TestOwnRootRefused(t *testing.T) {
	p, home := testPolicy(t, func(c *config.Config) { c.Path = "/etc/deckhand-test.toml" })
	db := filepath.Join(home, "logs", "d.db")
	os.MkdirAll(filepath.Dir(db), 0o700)
	os.WriteFile(db, []byte("x"), 0o600)
	if err := Remember("log", db); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		srv  config.Server
		want string
	}{
		{"read names the data folder", config.Server{Command: "srv", Read: []string{"~/.local/share/deckhand"}},
			"mcp.servers.evil.read (in /etc/deckhand-test.toml) is ~/.local/share/deckhand, inside ~/.local/share/deckhand: Deckhand's data (its log"},
		{"write names the log", config.Server{Command: "srv", Write: []string{"~/.local/share/deckhand/deckhand.db"}},
			"mcp.servers.evil.write (in /etc/deckhand-test.toml) is ~/.local/share/deckhand/deckhand.db, inside ~/.local/share/deckhand"},
		{"read names a --db log", config.Server{Command: "srv", Read: []string{db}},
			"mcp.servers.evil.read (in /etc/deckhand-test.toml) is " + db + ", inside ~/logs/d.db: a log of Deckhand's (--db)"},
		{"cwd in the config folder", config.Server{Command: "srv", Cwd: "~/.config/deckhand/tools"},
			"mcp.servers.evil.cwd (in /etc/deckhand-test.toml) is ~/.config/deckhand/tools, inside ~/.config/deckhand"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := p.ServerSpec("evil", c.srv, "/usr/bin/srv", "")
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("ServerSpec() = %v, want an error with %q", err, c.want)
			}
			cfg := &config.Config{MCP: config.MCP{Servers: map[string]config.Server{"evil": c.srv}}}
			if w := strings.Join(p.Warnings(cfg), "\n"); !strings.Contains(w, c.want) {
				t.Errorf("Warnings() lack %q:\n%s", c.want, w)
			}
		})
	}
	def := &sdk.Tool{Name: "read", InputSchema: map[string]any{"type": "object"}}
	srv := config.Server{Command: "srv", Read: []string{"~"}}
	args, _ := json.Marshal(map[string]string{"path": filepath.Join(home, ".local/share/deckhand/deckhand.db")})
	got := p.CheckPaths(srv, def, args, true)
	if len(got) != 1 || got[0].Allowed || !strings.Contains(got[0].Rule, "which no tool may name") {
		t.Errorf("CheckPaths(the log) = %+v, want refused", got)
	}
}

// What a sandbox shows without a root naming it (a folder an argument
// names, the command's own folder) never shows one of Deckhand's own
// places: a bind naming a hidden place exactly would show it.
func TestOwnNeverShownImplicitly(t *testing.T) {
	p, home := testPolicy(t, nil)
	data := filepath.Join(home, ".local/share/deckhand")
	os.MkdirAll(data, 0o700)
	os.WriteFile(filepath.Join(data, "deckhand.db"), []byte("x"), 0o600)
	os.WriteFile(filepath.Join(data, "srv"), []byte("#!/bin/sh\n"), 0o700)
	srv := config.Server{Command: filepath.Join(data, "srv"), Args: []string{filepath.Join(data, "deckhand.db")}, Read: []string{"~"}}
	s, err := p.ServerSpec("x", srv, filepath.Join(data, "srv"), data)
	if err != nil {
		t.Fatal(err)
	}
	if slices.ContainsFunc(s.Read, func(r string) bool { return within(r, data) }) {
		t.Errorf("ServerSpec().Read shows the data folder: %v", s.Read)
	}
	if !slices.Contains(s.Hide, data) {
		t.Errorf("ServerSpec().Hide lacks the data folder: %v", s.Hide)
	}
}
