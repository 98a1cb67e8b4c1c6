package testutil

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"
)

// StartHTTPPeer runs a node server that listens on the port given in its
// PORT environment variable, waits until it accepts connections, and stops
// it when the test ends. It returns the port.
func StartHTTPPeer(t testing.TB, node string, args ...string) int {
	t.Helper()
	port := FreePort(t)
	cmd := exec.Command(node, args...)
	cmd.Env = append(cmd.Environ(), fmt.Sprintf("PORT=%d", port))
	var out LockedBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %v: %v", args, err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-exited
	})
	Eventually(t, 30*time.Second, func() bool {
		select {
		case <-exited:
			t.Fatalf("%v exited: %s", args, out.String())
		default:
		}
		c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port))
		if err == nil {
			c.Close()
		}
		return err == nil
	}, "%v never listened on port %d: %s", args, port, &out)
	return port
}

// FreePort returns a TCP port that was free a moment ago.
func FreePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// LockedBuffer is a bytes.Buffer safe for concurrent writers, for capturing
// a process's output or a logger's.
type LockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *LockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *LockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// AIMock is a running @copilotkit/aimock: an OpenAI-compatible model server
// answering from fixture files, which also serves the same fixtures as the
// Anthropic Messages API (/v1/messages).
type AIMock struct {
	URL string // the base URL, ending in /v1
}

// StartAIMock serves the fixtures in dir (a directory or a .json file) until
// the test ends.
func StartAIMock(t testing.TB, p *Peers, fixtures string) *AIMock {
	t.Helper()
	port := FreePort(t)
	cmd := exec.Command(p.Node, p.AIMock, "-p", fmt.Sprint(port), "-f", fixtures, "--validate-on-load", "--log-level", "warn")
	var out LockedBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() { cmd.Process.Kill(); <-exited })
	Eventually(t, 30*time.Second, func() bool {
		select {
		case <-exited:
			t.Fatalf("aimock exited: %s", out.String())
		default:
		}
		c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port))
		if err == nil {
			c.Close()
		}
		return err == nil
	}, "aimock never listened: %s", &out)
	return &AIMock{URL: fmt.Sprintf("http://127.0.0.1:%d/v1", port)}
}

// Journal returns the chat-completion request bodies aimock received.
func (a *AIMock) Journal(t testing.TB) []map[string]any {
	t.Helper()
	return a.JournalOf(t, "/chat/completions")
}

// JournalOf returns the bodies of the requests aimock received at paths
// ending in suffix ("/messages": the Anthropic Messages API).
func (a *AIMock) JournalOf(t testing.TB, suffix string) []map[string]any {
	t.Helper()
	resp, err := http.Get(strings.TrimSuffix(a.URL, "/v1") + "/__aimock/journal")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var entries []struct {
		Path string         `json:"path"`
		Body map[string]any `json:"body"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&entries); err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	for _, e := range entries {
		if strings.HasSuffix(e.Path, suffix) {
			out = append(out, e.Body)
		}
	}
	return out
}
