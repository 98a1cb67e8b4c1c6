package mcp

import (
	"bytes"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"deckhand/config"
	"deckhand/keys"
	"deckhand/policy"
)

// lockedBuffer is a log's output, written from the connection's goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// A secret a stdio server is given from the keyring (granted in the
// servers form) is told to OnSecrets and removed from what the server
// writes on stderr, in the log and in the error of a server that stops:
// no config lists its value.
func TestKeyringSecretRedacted(t *testing.T) {
	sandboxHome(t)
	keys.MockInit()
	t.Cleanup(keys.MockInit)
	const value = "kr-secret-51d0a9e3"
	if err := keys.StoreSecret("echo", "KR_TOKEN", value); err != nil {
		t.Fatal(err)
	}
	srv := config.Server{Command: "sh", Args: []string{"-c", `echo "token is $KR_TOKEN" >&2; exit 3`}, Sandbox: config.SandboxOff,
		Secrets: []string{"KR_TOKEN"}, AllowSecrets: []string{"KR_TOKEN"}}
	var told []string
	out := &lockedBuffer{}
	_, err := Dial(t.Context(), "echo", srv, Options{
		Policy:    policy.New(&config.Config{}, func(string) (string, bool) { return "", false }),
		Logger:    slog.New(slog.NewTextHandler(out, &slog.HandlerOptions{Level: slog.LevelDebug})),
		OnSecrets: func(v ...string) { told = append(told, v...) },
	})
	if err == nil {
		t.Fatal("the server that exits connected")
	}
	if len(told) != 1 || told[0] != value {
		t.Errorf("OnSecrets was told %d values, want the keyring's", len(told))
	}
	if strings.Contains(err.Error(), value) || !strings.Contains(err.Error(), "token is") {
		t.Errorf("the error: %v", err)
	}
	if log := out.String(); strings.Contains(log, value) || !strings.Contains(log, "token is") {
		t.Errorf("the log:\n%s", log)
	}
}
