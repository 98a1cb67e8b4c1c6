package mcp

import (
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"deckhand/config"
	"deckhand/policy"
	"deckhand/sandbox"
	"deckhand/testutil"
)

// sandboxHome gives the test a home folder of its own, with a secret in
// ~/.ssh, and returns it.
func sandboxHome(t *testing.T) string {
	stdioServer(t) // built with the real home's build cache
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_STATE_HOME", filepath.Join(home, ".local", "state"))
	if err := os.MkdirAll(filepath.Join(home, ".ssh"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".ssh", "id_ed25519"), []byte("PRIVATE KEY"), 0o600); err != nil {
		t.Fatal(err)
	}
	return home
}

// A stdio server gets the minimal environment, its env, and the secrets
// both it and the policy name: not the model's key, not a variable nobody
// named, not one the policy does not allow.
func TestServerEnvironment(t *testing.T) {
	sandboxHome(t)
	vars := map[string]string{
		"PATH": os.Getenv("PATH"), "HOME": os.Getenv("HOME"), "USER": "someone",
		"MODEL_KEY": "sk-model", "PLANTED": "planted-secret", "GH_TOKEN": "gh-secret", "OTHER_TOKEN": "other",
	}
	lookup := func(k string) (string, bool) { v, ok := vars[k]; return v, ok }
	cfg := &config.Config{Model: config.Model{APIKeyEnv: "MODEL_KEY"}}
	cfg.Policy.Secrets.Keys = []string{"GH_TOKEN", "OTHER_TOKEN", "MODEL_KEY"}
	pol := policy.New(cfg, lookup)

	srv := stdioServer(t, "-probe")
	srv.Secrets = []string{"GH_TOKEN"}
	srv.Env = map[string]string{"GREETING": "hello", "FROM_REF": "${OTHER_TOKEN}"}
	c := dial(t, srv, Options{Policy: pol, LookupEnv: lookup})
	for name, want := range map[string]string{
		"GH_TOKEN": "gh-secret", "FROM_REF": "other", "GREETING": "hello", "HOME": os.Getenv("HOME"),
		"PLANTED": "(unset)", "MODEL_KEY": "(unset)", "OTHER_TOKEN": "(unset)", "DECKHAND_SANDBOX": "(unset)",
	} {
		if got := callText(t, c, "getenv", map[string]any{"name": name}); got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
	names := strings.Fields(callText(t, c, "environ", map[string]any{}))
	t.Logf("the server's environment: %v", names)
	// The minimal environment, what its config gave it, and the places of
	// its package managers' caches, in its own state folder (policy's
	// cacheEnv): nothing else of Deckhand's.
	given := map[string]bool{"PATH": true, "HOME": true, "LANG": true, "SHELL": true, "TERM": true, "TMPDIR": true,
		"GH_TOKEN": true, "FROM_REF": true, "GREETING": true,
		"npm_config_cache": true, "npm_config_devdir": true, "UV_CACHE_DIR": true, "UV_PYTHON_INSTALL_DIR": true,
		"PIP_CACHE_DIR": true, "BUN_INSTALL_CACHE_DIR": true}
	for _, n := range names {
		if !given[n] {
			t.Errorf("the server got %s, which nothing gave it: %v", n, names)
		}
	}

	for _, tc := range []struct {
		name string
		mod  func(*config.Server)
		want string
	}{
		{"secret not in the policy", func(s *config.Server) { s.Secrets = []string{"PLANTED"} }, "mcp.servers.test.secrets asks for PLANTED, which policy.secrets.keys does not allow"},
		{"reference not in the policy", func(s *config.Server) { s.Env = map[string]string{"X": "${PLANTED}"} }, "mcp.servers.test.env.X asks for PLANTED, which policy.secrets.keys does not allow"},
		{"the model's key", func(s *config.Server) { s.Secrets = []string{"MODEL_KEY"} }, "MODEL_KEY, the model's API key, which is never passed on"},
	} {
		s := stdioServer(t, "-probe")
		tc.mod(&s)
		_, err := Dial(t.Context(), "test", s, Options{Policy: pol, LookupEnv: lookup})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Dial = %v, want %q", tc.name, err, tc.want)
		}
	}
}

// A sandboxed server reads and writes in the workspace, and can neither
// read ~/.ssh nor write outside its write roots; with network = false it
// cannot connect; with sandbox = "off" it can do all of it.
func TestSandboxedServer(t *testing.T) {
	if err := sandbox.Available(); err != nil {
		t.Skip(err)
	}
	home := sandboxHome(t)
	pol := policy.New(&config.Config{}, nil)
	ws := pol.Workspace
	if ws != filepath.Join(home, "Deckhand") {
		t.Fatalf("workspace = %s", ws)
	}
	outside := t.TempDir()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()

	c := dial(t, stdioServer(t, "-probe"), Options{Policy: pol})
	if !c.sandboxed {
		t.Fatal("the server is not sandboxed")
	}
	inside := filepath.Join(ws, "notes.txt")
	if got := callText(t, c, "write_file", map[string]any{"path": inside, "text": "inside"}); got != "wrote "+inside {
		t.Errorf("write in the workspace: %s", got)
	}
	if got := callText(t, c, "read_file", map[string]any{"path": inside}); got != "inside" {
		t.Errorf("read in the workspace: %s", got)
	}
	// Outside its folders, nothing is there to read (the sandbox shows
	// only what it may), and nothing can be written.
	if got := callText(t, c, "read_file", map[string]any{"path": filepath.Join(home, ".ssh", "id_ed25519")}); !refused(got) {
		t.Errorf("read ~/.ssh: %s", got)
	}
	for _, p := range []string{filepath.Join(outside, "x"), filepath.Join(home, "x"), filepath.Join(home, ".bashrc")} {
		before, _ := os.ReadFile(p)
		// Under /tmp (where tests keep their files) a sandbox has a /tmp
		// of its own: the write may succeed there, never here.
		if got := callText(t, c, "write_file", map[string]any{"path": p, "text": "x"}); !refused(got) && !strings.HasPrefix(p, "/tmp/") {
			t.Errorf("write %s: %s", p, got)
		}
		if after, _ := os.ReadFile(p); string(after) != string(before) {
			t.Errorf("the sandboxed server changed %s", p)
		}
	}
	if got := callText(t, c, "read_file", map[string]any{"path": "/etc/hostname"}); strings.HasPrefix(got, "error") && !strings.Contains(got, "no such file") {
		t.Errorf("read /etc: %s", got)
	}
	if got := callText(t, c, "dial", map[string]any{"addr": l.Addr().String()}); got != "connected" {
		t.Errorf("network on: %s", got)
	}

	srv := stdioServer(t, "-probe")
	srv.Network = config.NetworkNone
	nc := dial(t, srv, Options{Policy: pol})
	if got := callText(t, nc, "dial", map[string]any{"addr": l.Addr().String()}); got == "connected" {
		t.Errorf("network off: %s", got)
	}

	srv = stdioServer(t, "-probe")
	srv.Sandbox = config.SandboxOff
	free := dial(t, srv, Options{Policy: pol})
	if free.sandboxed {
		t.Fatal("sandbox = off, but the server is sandboxed")
	}
	if got := callText(t, free, "read_file", map[string]any{"path": filepath.Join(home, ".ssh", "id_ed25519")}); got != "PRIVATE KEY" {
		t.Errorf("unsandboxed read ~/.ssh: %s", got)
	}
}

// refused reports a file operation's error as a sandbox gives it: the
// file is not there, the folder is read-only, or access is denied.
func refused(got string) bool {
	for _, s := range []string{"permission denied", "read-only file system", "no such file or directory"} {
		if strings.Contains(got, s) {
			return true
		}
	}
	return false
}

// The cost of the sandbox at start: dialling a stdio server with it and
// without, timed in the same run (reported, not asserted).
func BenchmarkDialStdio(b *testing.B) {
	home := b.TempDir()
	b.Setenv("HOME", home)
	pol := policy.New(&config.Config{}, nil)
	for _, mode := range []string{config.SandboxOff, config.SandboxOn} {
		b.Run("sandbox="+mode, func(b *testing.B) {
			if mode == config.SandboxOn && sandbox.Available() != nil {
				b.Skip(sandbox.Available())
			}
			srv := stdioServer(b, "-probe")
			srv.Sandbox = mode
			for b.Loop() {
				c, err := Dial(b.Context(), "bench", srv, Options{Policy: pol, TerminateGrace: time.Second})
				if err != nil {
					b.Fatal(err)
				}
				c.Close()
			}
		})
	}
}

// A remote server that redirects to another host is refused (the token
// would follow), unless policy.net.allow_domains names that host.
func TestRedirectElsewhereRefused(t *testing.T) {
	real := testutil.ServeHTTP(t, testutil.NewServer("real"))
	target := strings.Replace(real.StreamableURL, "127.0.0.1", "localhost", 1)
	redirect := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target, http.StatusTemporaryRedirect)
	}))
	t.Cleanup(redirect.Close)
	srv := config.Server{URL: redirect.URL + "/mcp", Transport: "streamable", AuthToken: "tok-123"}
	_, err := Dial(t.Context(), "r", srv, Options{})
	if err == nil || !strings.Contains(err.Error(), "refused: localhost is not the server's host, nor in policy.net.allow_domains") || strings.Contains(err.Error(), "tok-123") {
		t.Fatalf("Dial = %v, want the redirect refused", err)
	}
	cfg := &config.Config{}
	cfg.Policy.Net.AllowDomains = []string{"localhost"}
	c := dial(t, srv, Options{Policy: policy.New(cfg, nil)})
	if got := callText(t, c, "echo", map[string]any{"text": "via"}); got != "Echo: via" {
		t.Errorf("echo = %q", got)
	}
}

// Without Landlock, a sandboxed server does not start, and says why and how
// to opt out; one with sandbox = "off" starts.
func TestNoLandlock(t *testing.T) {
	t.Setenv("DECKHAND_TEST_NO_LANDLOCK", "1")
	_, err := Dial(t.Context(), "fs", stdioServer(t), Options{})
	if err == nil || !strings.Contains(err.Error(), "no Landlock") || !strings.Contains(err.Error(), `set sandbox = "off" in mcp.servers.fs`) {
		t.Fatalf("Dial = %v", err)
	}
	srv := stdioServer(t)
	srv.Sandbox = config.SandboxOff
	dial(t, srv, Options{})
}

// A server started as a version manager's shim (pyenv: ~/.pyenv/shims/X
// is a script that runs the manager's own script, which runs the real
// program from ~/.pyenv/versions) starts in the sandbox: the manager's
// folder is readable, and nothing else of the home folder.
func TestShimServer(t *testing.T) {
	if err := sandbox.Available(); err != nil {
		t.Skip(err)
	}
	home := sandboxHome(t)
	pyenv := filepath.Join(home, ".pyenv")
	shims, libexec, bin := filepath.Join(pyenv, "shims"), filepath.Join(pyenv, "libexec"), filepath.Join(pyenv, "versions", "3.12.1", "bin")
	for _, d := range []string{shims, libexec, bin} {
		os.MkdirAll(d, 0o755)
	}
	real, err := os.ReadFile(stdioServer(t).Command)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(bin, "python3"), real, 0o755)
	os.WriteFile(filepath.Join(shims, "python3"), []byte("#!/bin/sh\n# pyenv shim\nexec \"$HOME/.pyenv/libexec/pyenv\" exec python3 \"$@\"\n"), 0o755)
	os.WriteFile(filepath.Join(libexec, "pyenv"), []byte("#!/bin/sh\n[ \"$1\" = exec ] && shift\nprog=$1; shift\nexec \"$HOME/.pyenv/versions/3.12.1/bin/$prog\" \"$@\"\n"), 0o755)
	t.Setenv("PATH", shims+":"+os.Getenv("PATH"))
	c := dial(t, config.Server{Command: "python3", Args: []string{"-probe"}}, Options{Policy: policy.New(&config.Config{}, nil)})
	if !c.sandboxed {
		t.Fatal("not sandboxed")
	}
	if got := callText(t, c, "read_file", map[string]any{"path": filepath.Join(home, ".ssh", "id_ed25519")}); !refused(got) {
		t.Errorf("the shim's server read ~/.ssh: %s", got)
	}
}

// When Deckhand cannot build a server's sandbox, the server never ran:
// the failure is Deckhand's (FailureSandbox, with the reason), not the
// server's exit, and no advice to grant it a folder follows: a grant the
// sandbox refuses (the whole file system), and a helper that fails (told,
// through the server's environment, that the kernel has no Landlock).
func TestSandboxBuildFailure(t *testing.T) {
	if err := sandbox.Available(); err != nil {
		t.Skip(err)
	}
	sandboxHome(t)
	tests := []struct {
		name string
		mod  func(*config.Server)
		want string
	}{
		{"the whole file system", func(s *config.Server) { s.Read = []string{"/"} }, "the sandbox cannot show the whole file system (/): grant the folders it needs instead"},
		{"the helper fails", func(s *config.Server) { s.Env = map[string]string{"DECKHAND_TEST_NO_LANDLOCK": "1"} }, "no Landlock"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := stdioServer(t, "-probe")
			tc.mod(&srv)
			_, err := Dial(t.Context(), "test", srv, Options{Policy: policy.New(&config.Config{}, nil)})
			if got := Classify(err); got != FailureSandbox {
				t.Fatalf("Classify(%v) = %q, want %q", err, got, FailureSandbox)
			}
			var exit *ExitError
			if errors.As(err, &exit) {
				t.Errorf("Dial = %v: an ExitError, as if the server had run and stopped", err)
			}
			if msg := err.Error(); !strings.Contains(msg, "Deckhand could not build its sandbox") || !strings.Contains(msg, tc.want) {
				t.Errorf("Dial = %q, want it to say Deckhand could not build the sandbox, and %q", msg, tc.want)
			}
		})
	}
}
