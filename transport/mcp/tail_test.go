package mcp

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"deckhand/config"
)

// A server that fails at start is said to fail with the lines of its
// stderr that say why, not only its last ones: npx writes its E404 first,
// then notices and the path of a log inside the sandbox.
func TestStdioStartFailureSaysWhy(t *testing.T) {
	npx, err := os.ReadFile(filepath.Join("testdata", "npx-e404.stderr"))
	if err != nil {
		t.Fatal(err)
	}
	// say is a real child that writes its arguments on stderr, a line
	// each, and exits 1.
	say := func(lines ...string) config.Server {
		return config.Server{Command: "sh", Args: append([]string{"-c", `printf '%s\n' "$@" >&2; exit 1`, "sh"}, lines...)}
	}
	frames := make([]string, 40)
	for i := range frames {
		frames[i] = "main.step(...)\n\t/src/server/main.go:12 +0x1d"
	}
	tests := []struct {
		name     string
		srv      config.Server
		want     []string
		dontWant []string
	}{
		{
			name:     "npx E404",
			srv:      say(strings.Split(strings.TrimSpace(string(npx)), "\n")...),
			want:     []string{"npm error code E404", "404 Not Found - GET https://registry.npmjs.org/@example%2fmcp-weather-does-not-exist"},
			dontWant: []string{"npm notice", "A complete log", "/home/deckhand/.npm"},
		},
		{
			name:     "npm colours",
			srv:      say("\x1b[31mnpm error\x1b[0m code E404", "\x1b]0;title\x07npm notice", "npm notice To update run: npm install -g npm@11", "npm notice"),
			want:     []string{"npm error code E404"},
			dontWant: []string{"\x1b", "title", "npm notice"},
		},
		{
			name:     "node without its script",
			srv:      config.Server{Command: "node", Args: []string{"/no/such/deckhand-server.js"}},
			want:     []string{"Error: Cannot find module '/no/such/deckhand-server.js'"},
			dontWant: []string{"Node.js v"},
		},
		{
			name: "python without its module",
			srv:  config.Server{Command: "/usr/bin/python3", Args: []string{"-c", "import deckhand_no_such_module"}},
			want: []string{"ModuleNotFoundError: No module named 'deckhand_no_such_module'"},
		},
		{
			name:     "go panic",
			srv:      say(append([]string{"panic: listen tcp :8080: bind: address already in use", "", "goroutine 1 [running]:"}, frames...)...),
			want:     []string{"panic: listen tcp :8080: bind: address already in use"},
			dontWant: []string{"main.go:12"},
		},
		{
			name: "a command the script runs is missing",
			srv:  config.Server{Command: "sh", Args: []string{"-c", "echo starting the weather server >&2; deckhand-no-such-tool --stdio; echo bye >&2; exit 127"}},
			want: []string{"deckhand-no-such-tool: not found"},
		},
		{
			name: "no line says error: the last lines",
			srv:  say("starting", "listening on stdio", "told to stop"),
			want: []string{"starting | listening on stdio | told to stop"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), wait)
			defer cancel()
			_, err := Dial(ctx, "x", tt.srv, Options{})
			var exit *ExitError
			if !errors.As(err, &exit) {
				t.Fatalf("Dial() = %v, want an *ExitError", err)
			}
			t.Logf("stderr: %s", exit.Stderr)
			for _, w := range tt.want {
				if !strings.Contains(exit.Stderr, w) {
					t.Errorf("Dial(): stderr %q, want it to contain %q", exit.Stderr, w)
				}
			}
			for _, w := range tt.dontWant {
				if strings.Contains(exit.Stderr, w) {
					t.Errorf("Dial(): stderr %q, want no %q", exit.Stderr, w)
				}
			}
		})
	}
}

// Reason stays within its size whatever the child writes: a few lines,
// each cut.
func TestReasonIsBounded(t *testing.T) {
	b := newTailBuffer(8<<10, nil)
	long := "npm error " + strings.Repeat("é", 4000)
	for range 100 {
		b.Write([]byte(long + "\n"))
	}
	b.Write([]byte("Error: the last one without a newline"))
	got := b.Reason(3)
	if n := len(got); n > 3*(maxReasonLine+len("…"))+2*len(" | ") {
		t.Errorf("Reason(3) is %d bytes, want at most 3 lines of %d", n, maxReasonLine)
	}
	if !strings.HasSuffix(got, "Error: the last one without a newline") {
		t.Errorf("Reason(3) = %q, want the unended last line that says error last", got)
	}
	if !strings.Contains(got, "é…") {
		t.Errorf("Reason(3) = %q, want lines cut on a rune", got)
	}
}

// A child whose only line that says error is its last, unended one.
func TestReasonOfAnUnendedLine(t *testing.T) {
	b := newTailBuffer(8<<10, nil)
	b.Write([]byte("starting\nError: cannot bind"))
	if got, want := b.Reason(3), "Error: cannot bind"; got != want {
		t.Errorf("Reason(3) = %q, want %q", got, want)
	}
}
