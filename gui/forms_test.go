package gui

import (
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/approval"
	"deckhand/config"
)

func TestSplitCommand(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
		err      string
	}{
		{name: "words", in: "npx -y @modelcontextprotocol/server-filesystem /tmp", want: []string{"npx", "-y", "@modelcontextprotocol/server-filesystem", "/tmp"}},
		{name: "double quotes", in: `node "my server.js" --name "a b"`, want: []string{"node", "my server.js", "--name", "a b"}},
		{name: "single quotes keep backslashes", in: `run 'C:\dir' x`, want: []string{"run", `C:\dir`, "x"}},
		{name: "escaped space", in: `cat my\ file`, want: []string{"cat", "my file"}},
		{name: "empty quotes are a word", in: `prog "" end`, want: []string{"prog", "", "end"}},
		{name: "extra spaces", in: "  a \t b  ", want: []string{"a", "b"}},
		{name: "unclosed", in: `prog "open`, err: "unclosed"},
		{name: "trailing backslash", in: `prog \`, err: "trailing backslash"},
		{name: "blank", in: "   ", err: "give a URL or a command"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := splitCommand(tt.in)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Errorf("splitCommand(%q) = %q, %v; want an error with %q", tt.in, got, err, tt.err)
				}
				return
			}
			if err != nil || !slices.Equal(got, tt.want) {
				t.Errorf("splitCommand(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
			}
		})
	}
}

func FuzzSplitCommand(f *testing.F) {
	for _, s := range []string{"npx -y pkg", `a "b c" 'd e' f\ g`, `"`, `\`, "", "x ''"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		words, err := splitCommand(line)
		if err != nil {
			return
		}
		if len(words) == 0 {
			t.Fatalf("splitCommand(%q) = no words and no error", line)
		}
		// Quoting each word and splitting again gives the same words.
		var quoted []string
		for _, w := range words {
			quoted = append(quoted, "'"+strings.ReplaceAll(w, "'", `'\''`)+"'")
		}
		again, err := splitCommand(strings.Join(quoted, " "))
		if err != nil || !slices.Equal(again, words) {
			t.Fatalf("round trip of %q: %q, %v; want %q", line, again, err, words)
		}
	})
}

func TestParseRules(t *testing.T) {
	tests := []struct {
		name, in string
		want     map[string]any
		err      string
	}{
		{name: "plain and valued", in: "fs.*\nfs.delete = false\n# a comment\n\nweb.fetch = true", want: map[string]any{"fs.*": true, "fs.delete": false, "web.fetch": true}},
		{name: "quoted keys", in: `"fs.read" = true`, want: map[string]any{"fs.read": true}},
		{name: "local exec", in: "local.exec", want: map[string]any{"local.exec": true}},
		{name: "no tool", in: "fs", err: "line 1"},
		{name: "bad value", in: "fs.* = yes please", err: "true or false"},
		{name: "bad alias", in: "ok.x\nf__s.read", err: "line 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseRules(tt.in)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Errorf("parseRules(%q) = %v, %v; want an error with %q", tt.in, got, err, tt.err)
				}
				return
			}
			if err != nil || len(got) != len(tt.want) {
				t.Fatalf("parseRules(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
			}
			for k, v := range tt.want {
				if got[k] != v {
					t.Errorf("parseRules(%q)[%q] = %v, want %v", tt.in, k, got[k], v)
				}
			}
		})
	}
	rules := map[string]bool{"fs.*": true, "fs.delete": false}
	back, err := parseRules(formatRules(rules))
	if err != nil || back["fs.*"] != true || back["fs.delete"] != false || len(back) != 2 {
		t.Errorf("parseRules(formatRules(%v)) = %v, %v", rules, back, err)
	}
}

func TestServerFromForm(t *testing.T) {
	tests := []struct {
		name                                     string
		kind, target, alias, authEnv, transport  string
		wantAlias, wantURL, wantCommand, wantErr string
	}{
		{name: "url derives alias", kind: "URL", target: "https://mcp.example.com/mcp", transport: "auto", wantAlias: "mcp-example-com", wantURL: "https://mcp.example.com/mcp"},
		{name: "command derives alias", kind: "Command", target: "npx -y @modelcontextprotocol/server-filesystem /tmp", wantAlias: "filesystem", wantCommand: "npx"},
		{name: "given alias", kind: "URL", target: "http://127.0.0.1:9000/mcp", alias: "mine", transport: "sse", wantAlias: "mine", wantURL: "http://127.0.0.1:9000/mcp"},
		{name: "not a url", kind: "URL", target: "mcp.example.com", wantErr: "not an http or https URL"},
		{name: "bad alias", kind: "URL", target: "https://x.example/mcp", alias: "a.b", wantErr: "alias"},
		{name: "bad env name", kind: "URL", target: "https://x.example/mcp", authEnv: "MY-TOKEN", transport: "auto", wantErr: "auth_env"},
		{name: "empty", kind: "Command", target: " ", wantErr: "give a URL or a command"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, alias, err := serverFromForm(tt.kind, tt.target, tt.alias, tt.authEnv, tt.transport)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("serverFromForm = %+v, %q, %v; want an error with %q", srv, alias, err, tt.wantErr)
				}
				return
			}
			if err != nil || alias != tt.wantAlias || srv.URL != tt.wantURL || srv.Command != tt.wantCommand {
				t.Errorf("serverFromForm = %+v, %q, %v; want alias %q", srv, alias, err, tt.wantAlias)
			}
		})
	}
}

func TestAnnotationText(t *testing.T) {
	no := false
	tests := []struct {
		name string
		req  approval.Request
		want string
	}{
		{"none", approval.Request{}, ""},
		{"read-only, untrusted", approval.Request{Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: &no}},
			"The server says: read-only. (A hint from an untrusted server.)"},
		{"defaults of the spec", approval.Request{Trusted: true, Annotations: &sdk.ToolAnnotations{}},
			"The server says: may change or delete things, reaches outside this machine."},
		{"idempotent, closed world", approval.Request{Trusted: true, Annotations: &sdk.ToolAnnotations{DestructiveHint: &no, IdempotentHint: true, OpenWorldHint: &no}},
			"The server says: idempotent."},
	}
	for _, tt := range tests {
		if got := annotationText(tt.req); got != tt.want {
			t.Errorf("annotationText(%s) = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// trayApp is the test app with a system tray, which the test driver lacks.
type trayApp struct {
	fyne.App
	menu *fyne.Menu
}

func (a *trayApp) SetSystemTrayMenu(m *fyne.Menu)    { a.menu = m }
func (a *trayApp) SetSystemTrayIcon(fyne.Resource)   {}
func (a *trayApp) SetSystemTrayWindow(w fyne.Window) {}

var _ desktop.App = (*trayApp)(nil)

func TestTrayMenu(t *testing.T) {
	a := &trayApp{App: test.NewTempApp(t)}
	u := New(Deps{App: a, Config: &config.Config{}, Tray: true})
	u.installTray()
	if a.menu == nil {
		t.Fatal("no tray menu")
	}
	var labels []string
	for _, it := range a.menu.Items {
		labels = append(labels, it.Label)
	}
	if want := []string{"Show Deckhand", "Quick prompt…", "", "Quit"}; !slices.Equal(labels, want) {
		t.Errorf("tray menu = %q, want %q", labels, want)
	}
	a.menu.Items[1].Action()
	if u.quick == nil || !u.quick.visible {
		t.Errorf("Quick prompt… did not open the quick prompt")
	}
	// With a tray, closing the window hides it; Show Deckhand brings it back.
	u.closeMain()
	if !u.hidden {
		t.Errorf("closing the window with a tray did not hide it")
	}
	a.menu.Items[0].Action()
	if u.hidden {
		t.Errorf("Show Deckhand did not show the window")
	}
}
