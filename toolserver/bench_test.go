package toolserver

import (
	"context"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/config"
	"deckhand/policy"
)

func perSecond(b *testing.B) {
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "calls/s")
}

// Running echo directly: the baseline.
func BenchmarkEchoDirect(b *testing.B) {
	for b.Loop() {
		if err := exec.Command("echo", "hello").Run(); err != nil {
			b.Fatal(err)
		}
	}
	perSecond(b)
}

// The sandbox's cost per command: echo through Runner.Run (in a kept
// sandbox: namespaces, a root of its own and Landlock, built once; the
// command in a PID namespace of its own, with the minimal environment),
// without the MCP server. Compare with BenchmarkEchoDirect in the same run.
func BenchmarkEchoSandboxed(b *testing.B) {
	requireSandbox(b)
	ws := b.TempDir()
	cfg := &config.Config{}
	cfg.Policy.Workspace = ws
	r := &Runner{Policy: policy.New(cfg, nil), Scope: ws}
	for b.Loop() {
		if res := r.Run(context.Background(), Job{Path: "echo", Args: []string{"hello"}, Limit: 1024}); res.Failed {
			b.Fatal(res.Status, res.Output)
		}
	}
	perSecond(b)
}

// A synchronous echo tool called through the server (go-sdk client,
// in-memory transport): argument checks, the operation, the sandbox.
func BenchmarkEchoThroughServer(b *testing.B) {
	requireSandbox(b)
	ws, dir := b.TempDir(), b.TempDir()
	os.WriteFile(filepath.Join(dir, "echo.json"), []byte(`{"name": "echo", "command": "echo", "synchronous": true,
		"description": "Echo.", "positional_args": [{"name": "words", "type": "array"}]}`), 0o644)
	cfg := &config.Config{}
	cfg.Policy.Workspace = ws
	srv, err := New(Options{Dir: dir, Scope: ws, Policy: policy.New(cfg, nil), NoBuiltin: true})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	ct, st := sdk.NewInMemoryTransports()
	ctx := context.Background()
	srv.MCP.Connect(ctx, st, nil)
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	params := &sdk.CallToolParams{Name: "echo", Arguments: map[string]any{"words": []string{"hello"}}}
	for b.Loop() {
		res, err := cs.CallTool(ctx, params)
		if err != nil || res.IsError {
			b.Fatal(err, res)
		}
	}
	perSecond(b)
}

// FuzzDefinition: the parser never panics, and what it accepts makes
// tools with valid names and a resolved input schema that any arguments
// can be checked against.
func FuzzDefinition(f *testing.F) {
	fs.WalkDir(builtinFS, "builtin", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			data, _ := builtinFS.ReadFile(path)
			f.Add(data, []byte(`{}`))
		}
		return nil
	})
	f.Add([]byte(`{"name": "x", "command": "ls", "description": "d", "options": [{"name": "a", "type": "array", "items": {"type": "integer"}, "default": [1]}]}`), []byte(`{"a": [1, 2]}`))
	f.Add([]byte(`{"name": "x", "description": "d", "sequence": [{"tool": "y"}]}`), []byte(`null`))
	f.Add([]byte(`{"name": "x", "description": "d", "subcommands": [{"name": "default", "description": "e", "command": "true"}]}`), []byte(`{"timeout_seconds": 3}`))
	scope := f.TempDir()
	f.Fuzz(func(t *testing.T, data, args []byte) {
		_, tools, err := Parse("f.json", data)
		if err != nil {
			if _, ok := err.(*DefError); !ok {
				t.Fatalf("not a DefError: %v", err)
			}
			return
		}
		for _, tl := range tools {
			if !toolName.MatchString(tl.Name) || tl.Schema == nil || tl.resolved == nil {
				t.Fatalf("bad tool %+v", tl)
			}
			if a, err := tl.callArgs(args); err == nil && len(tl.Sequence) == 0 {
				if call, err := tl.prepare(a, scope, 1024); err == nil {
					for _, arg := range call.Job.Args {
						if strings.ContainsRune(arg, 0) {
							t.Fatalf("NUL in argv %q", call.Job.Args)
						}
					}
				}
			}
		}
	})
}

// The HTTP handler refuses DNS rebinding (a Host or Origin that is not
// loopback) and a client without the token (another user of this
// computer reaches loopback too).
func TestHTTPLoopbackOnly(t *testing.T) {
	srv, err := New(Options{Scope: t.TempDir(), NoSandbox: true, NoBuiltin: true})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	const token = "0123456789abcdef0123456789abcdef-token"
	h := srv.HTTPHandler(token)
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	for _, c := range []struct {
		host, origin, auth string
		want               int
	}{
		{"127.0.0.1:8080", "", "Bearer " + token, http.StatusOK},
		{"localhost:8080", "http://localhost:8080", "Bearer " + token, http.StatusOK},
		{"[::1]:8080", "", "Bearer " + token, http.StatusOK},
		{"evil.example:8080", "", "Bearer " + token, http.StatusForbidden},
		{"127.0.0.1:8080", "http://evil.example", "Bearer " + token, http.StatusForbidden},
		{"127.0.0.1.nip.io:8080", "", "Bearer " + token, http.StatusForbidden},
		{"127.0.0.1:8080", "", "", http.StatusUnauthorized},
		{"127.0.0.1:8080", "", "Bearer wrong", http.StatusUnauthorized},
		{"127.0.0.1:8080", "", "Bearer " + token + "x", http.StatusUnauthorized},
		{"127.0.0.1:8080", "", "Basic " + token, http.StatusUnauthorized},
	} {
		req := httptest.NewRequest("POST", "/mcp", strings.NewReader(body))
		if c.auth != "" {
			req.Header.Set("Authorization", c.auth)
		}
		req.Host = c.host
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if c.origin != "" {
			req.Header.Set("Origin", c.origin)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != c.want {
			t.Errorf("Host %s Origin %q: %d, want %d (%s)", c.host, c.origin, rec.Code, c.want, rec.Body)
		}
	}
	if rec := httptest.NewRecorder(); true {
		req := httptest.NewRequest("POST", "/mcp", strings.NewReader(body))
		req.Host = "127.0.0.1:8080"
		req.Header.Set("Authorization", "Bearer ")
		srv.HTTPHandler("").ServeHTTP(rec, req)
		if rec.Code != http.StatusUnauthorized {
			t.Errorf("an empty token let a request in: %d", rec.Code)
		}
	}
	for _, addr := range []string{"0.0.0.0:0", "192.168.1.5:80", ":8080"} {
		if l, err := Listen(addr); err == nil {
			l.Close()
			t.Errorf("Listen(%s) accepted a non-loopback address", addr)
		}
	}
}

// The token file is made 0600 once and read back; one others may read is
// refused.
func TestToken(t *testing.T) {
	file := filepath.Join(t.TempDir(), "sub", "tools-token")
	tok, err := Token(file)
	if err != nil || len(tok) < 32 {
		t.Fatalf("Token = %q, %v", tok, err)
	}
	if st, _ := os.Stat(file); st.Mode().Perm() != 0o600 {
		t.Errorf("token file mode %v", st.Mode().Perm())
	}
	if again, err := Token(file); err != nil || again != tok {
		t.Errorf("Token again = %q, %v; want %q", again, err, tok)
	}
	os.Chmod(file, 0o644)
	if _, err := Token(file); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Errorf("a world-readable token file: %v", err)
	}
}
