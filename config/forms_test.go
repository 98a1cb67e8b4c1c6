package config

import (
	"slices"
	"strings"
	"testing"
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
			got, err := SplitCommand(tt.in)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Errorf("SplitCommand(%q) = %q, %v; want an error with %q", tt.in, got, err, tt.err)
				}
				return
			}
			if err != nil || !slices.Equal(got, tt.want) {
				t.Errorf("SplitCommand(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
			}
		})
	}
}

func FuzzSplitCommand(f *testing.F) {
	for _, s := range []string{"npx -y pkg", `a "b c" 'd e' f\ g`, `"`, `\`, "", "x ''"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		words, err := SplitCommand(line)
		if err != nil {
			return
		}
		if len(words) == 0 {
			t.Fatalf("SplitCommand(%q) = no words and no error", line)
		}
		// Quoting each word and splitting again gives the same words.
		var quoted []string
		for _, w := range words {
			quoted = append(quoted, "'"+strings.ReplaceAll(w, "'", `'\''`)+"'")
		}
		again, err := SplitCommand(strings.Join(quoted, " "))
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
		{name: "local exec asks", in: "local.exec = false", want: map[string]any{"local.exec": false}},
		{name: "local exec unasked", in: "fs.*\nlocal.exec", err: "line 2: shell commands (CMD: lines) are asked every time"},
		{name: "no tool", in: "fs", err: "line 1"},
		{name: "bad value", in: "fs.* = yes please", err: "true or false"},
		{name: "bad alias", in: "ok.x\nf__s.read", err: "line 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseRules(tt.in)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Errorf("ParseRules(%q) = %v, %v; want an error with %q", tt.in, got, err, tt.err)
				}
				return
			}
			if err != nil || len(got) != len(tt.want) {
				t.Fatalf("ParseRules(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
			}
			for k, v := range tt.want {
				if got[k] != v {
					t.Errorf("ParseRules(%q)[%q] = %v, want %v", tt.in, k, got[k], v)
				}
			}
		})
	}
	rules := map[string]bool{"fs.*": true, "fs.delete": false}
	back, err := ParseRules(FormatRules(rules))
	if err != nil || back["fs.*"] != true || back["fs.delete"] != false || len(back) != 2 {
		t.Errorf("ParseRules(FormatRules(%v)) = %v, %v", rules, back, err)
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
			srv, alias, err := ServerFromForm(tt.kind, tt.target, tt.alias, tt.authEnv, tt.transport)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("ServerFromForm = %+v, %q, %v; want an error with %q", srv, alias, err, tt.wantErr)
				}
				return
			}
			if err != nil || alias != tt.wantAlias || srv.URL != tt.wantURL || srv.Command != tt.wantCommand {
				t.Errorf("ServerFromForm = %+v, %q, %v; want alias %q", srv, alias, err, tt.wantAlias)
			}
		})
	}
}
