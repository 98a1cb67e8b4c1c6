package mcp

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"sync"
)

// tailBuffer is a child's stderr: it keeps the last bytes written, for error
// reasons, and hands each complete line to a callback, for the log.
type tailBuffer struct {
	max    int
	onLine func(string)

	mu      sync.Mutex
	buf     []byte
	partial []byte
}

func newTailBuffer(max int, onLine func(string)) *tailBuffer {
	return &tailBuffer{max: max, onLine: onLine}
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	t.partial = append(t.partial, p...)
	var lines []string
	for {
		i := bytes.IndexByte(t.partial, '\n')
		if i < 0 {
			break
		}
		lines = append(lines, string(bytes.TrimRight(t.partial[:i], "\r")))
		t.partial = t.partial[i+1:]
	}
	if len(t.partial) > t.max {
		t.partial = t.partial[len(t.partial)-t.max:]
	}
	t.mu.Unlock()
	if t.onLine != nil {
		for _, l := range lines {
			t.onLine(l)
		}
	}
	return len(p), nil
}

// ReadFrom copies a child's stderr pipe in with a small buffer: exec's
// copy would hold 32 KiB for every server for its life (3 MiB of a start
// with 100 servers, live), and stderr is a trickle.
func (t *tailBuffer) ReadFrom(r io.Reader) (int64, error) {
	buf := make([]byte, 512)
	var n int64
	for {
		k, err := r.Read(buf)
		if k > 0 {
			t.Write(buf[:k])
			n += int64(k)
		}
		switch {
		case errors.Is(err, io.EOF):
			return n, nil
		case err != nil:
			return n, err
		}
	}
}

// Tail returns up to n of the last non-empty lines, joined with " | ".
func (t *tailBuffer) Tail(n int) string {
	if t == nil {
		return ""
	}
	t.mu.Lock()
	text := string(t.buf)
	t.mu.Unlock()
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}
