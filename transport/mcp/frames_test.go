package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"runtime"
	"strings"
	"sync"
	"testing"
	"weak"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// A 50 MiB result fails that call with the reason, and the connection goes
// on: the next call answers. A big notification is dropped unnoticed by the
// call, and a big message that answers nothing ends the connection with
// that reason, not "process exited".
func TestOversizedMessages(t *testing.T) {
	var logged syncBuffer
	c := dial(t, stdioServer(t, "-big"), Options{Logger: slog.New(slog.NewTextHandler(&logged, nil))})

	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := c.CallTool(t.Context(), "big", map[string]any{"mib": 50}, nil)
	if err == nil || !strings.Contains(err.Error(), "50.0 MiB, over the 16.0 MiB one message may have") || !strings.Contains(err.Error(), "connection stays up") {
		t.Fatalf("50 MiB result: %v, want the size and the limit", err)
	}
	var after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&after)
	t.Logf("50 MiB result refused: %v; heap %.1f MB before, %.1f MB after", err, float64(before.HeapAlloc)/1e6, float64(after.HeapAlloc)/1e6)
	if grown := int64(after.HeapAlloc) - int64(before.HeapAlloc); grown > 8<<20 {
		t.Errorf("heap grew by %d bytes after a refused message", grown)
	}
	if got := callText(t, c, "echo", map[string]any{"text": "still here"}); got != "Echo: still here" {
		t.Errorf("after the big result, echo = %q", got)
	}
	if got := callText(t, c, "big", map[string]any{"mib": 2}); len(got) != 2<<20 {
		t.Errorf("a 2 MiB result came back as %d bytes", len(got))
	}

	if got := callText(t, c, "huge_notice", map[string]any{"mib": 20}); got != "sent a big notice" {
		t.Errorf("huge_notice = %q", got)
	}
	if log := logged.String(); strings.Count(log, "message dropped") != 2 || !strings.Contains(log, "a request or notification from the server") {
		t.Errorf("log = %q, want the result and the notice dropped", log)
	}

	_, _ = c.CallTool(t.Context(), "huge_orphan", map[string]any{"mib": 20}, nil)
	<-c.Done()
	if err := c.Err(); err == nil || !strings.Contains(err.Error(), "it names no request, so Deckhand closed the connection") {
		t.Errorf("after an orphan message, Err() = %v", err)
	}
}

func TestFrameGuard(t *testing.T) {
	big := strings.Repeat("z", 100)
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"result":{}}`,
		`{"jsonrpc":"2.0","result":{"t":"` + big + `"},"id":"a\"b"}`,
		`{"jsonrpc":"2.0","method":"notifications/message","params":{"id":7,"data":"` + big + `"}}`,
		`{"jsonrpc":"2.0","id":2,"result":{}}`,
		`{"jsonrpc":"2.0","id":12345678901234567890,"result":"` + big + `"}`,
		`{"jsonrpc":"2.0","id":[1],"result":"` + big + `"}`,
		`{"jsonrpc":"2.0","id":3,"result":{}}`,
	}, "\n") + "\n"
	g := newFrameGuard(strings.NewReader(in), 64)
	out, err := io.ReadAll(g)
	var fe *FrameError
	if !errors.As(err, &fe) || !strings.Contains(fe.Reason, "names no request") {
		t.Fatalf("ReadAll: %v, want a FrameError for the message with an array id", err)
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	want := []string{`{"jsonrpc":"2.0","id":1,"result":{}}`, `"id":"a\"b"`, `{"jsonrpc":"2.0","id":2,"result":{}}`, `"id":12345678901234567890`}
	if len(lines) != len(want) {
		t.Fatalf("out = %q", out)
	}
	for i, w := range want {
		if !strings.Contains(lines[i], w) {
			t.Errorf("line %d = %s, want %s", i, lines[i], w)
		}
		if !json.Valid([]byte(lines[i])) {
			t.Errorf("line %d is not JSON: %s", i, lines[i])
		}
	}
	if g.Fatal() == nil {
		t.Error("Fatal() = nil after the connection was given up")
	}
}

// FuzzFrameGuard: whatever a server writes, the guard never hands on a line
// over its limit (an error answer it writes itself may be longer, but is
// valid JSON), and hands on short lines unchanged.
func FuzzFrameGuard(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"result":{"x":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}}`+"\n{\"id\":2}\n"), 32, false)
	f.Add([]byte(`data: {"method":"x","id":"q\\\"","p":[{"id":3}]}`), 8, true)
	f.Add([]byte("\n\n{\"id\" : -1.5e3 , \"r\":\"\\\\\"}"), 10, false)
	f.Fuzz(func(t *testing.T, data []byte, limit int, sse bool) {
		limit = 1 + abs(limit)%200
		g := newFrameGuard(bytes.NewReader(data), limit)
		g.sse = sse
		out, err := io.ReadAll(g)
		if err != nil {
			var fe *FrameError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v is not a FrameError", err)
			}
		}
		for _, line := range bytes.SplitAfter(out, []byte("\n")) {
			if len(line) <= limit {
				if !bytes.Contains(data, line) {
					t.Fatalf("line %q is not from the input", line)
				}
				continue
			}
			if sse {
				line = bytes.TrimPrefix(line, []byte("data: "))
			}
			var msg struct {
				Method string `json:"method"`
				ID     any    `json:"id"`
				Error  struct {
					Message string `json:"message"`
				} `json:"error"`
			}
			if json.Unmarshal(line, &msg) != nil {
				t.Fatalf("a long line that is not JSON: %q", line)
			}
			if sse && msg.Method == "notifications/message" {
				continue
			}
			if msg.ID == nil || !strings.Contains(msg.Error.Message, "over the") {
				t.Fatalf("a long line that is not the guard's answer: %q", line)
			}
		}
	})
}

type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// TestBigLineNotKept: after a message bigger than keepBuffer (a listing of
// many tools), the line read next is read into memory of its own size, not
// into the big one's, which the connection would keep for its life.
func TestBigLineNotKept(t *testing.T) {
	big := `{"jsonrpc":"2.0","id":1,"result":{"text":"` + strings.Repeat("x", 14<<10) + `"}}`
	g := newFrameGuard(strings.NewReader(big+"\n"+`{"jsonrpc":"2.0","id":2,"result":{}}`+"\n"), MaxMessageBytes)
	if err := g.next(); err != nil || len(g.line) != len(big)+1 {
		t.Fatalf("next() = %v, %d bytes; want the big line", err, len(g.line))
	}
	if err := g.next(); err != nil {
		t.Fatal(err)
	}
	if c := cap(g.line); c >= len(big) {
		t.Errorf("after a %d-byte line, the next is read into %d bytes; want its own, smaller", len(big), c)
	}
}

// A connection keeps no message it has handed on: the last one read (a
// tools/list answer) stayed for the connection's life in its queue's
// array. One message alone in its frame, and a batch read to its end.
func TestReadKeepsNoMessage(t *testing.T) {
	tests := []struct {
		name  string
		frame string
		msgs  int
	}{
		{name: "one message", frame: `{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}`, msgs: 1},
		{name: "a batch", frame: `[{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","id":2,"result":{}}]`, msgs: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pr, pw := io.Pipe()
			c := newLineConn(newFrameGuard(pr, MaxMessageBytes), nopWriteCloser{io.Discard})
			t.Cleanup(func() { pw.Close(); c.Close() })
			go io.WriteString(pw, tt.frame+"\n")
			var read []weak.Pointer[jsonrpc.Response]
			for range tt.msgs {
				msg, err := c.Read(t.Context())
				if err != nil {
					t.Fatal(err)
				}
				resp, ok := msg.(*jsonrpc.Response)
				if !ok {
					t.Fatalf("Read() = %T, want a response", msg)
				}
				read = append(read, weak.Make(resp))
			}
			runtime.GC()
			for i, w := range read {
				if w.Value() != nil {
					t.Errorf("message %d of %d is still reachable after it was read", i+1, tt.msgs)
				}
			}
			runtime.KeepAlive(c)
		})
	}
}

// BenchmarkConnBuffers: the heap 100 stdio connections keep, waiting for
// their next message, after each read a 14 KB message (a listing of 50
// tools) and a small one, as a ratio to what they keep having read the
// small one only (1.0: the big message left nothing behind), in one run.
func BenchmarkConnBuffers(b *testing.B) {
	big := `{"jsonrpc":"2.0","id":1,"result":{"text":"` + strings.Repeat("x", 14<<10) + `"}}` + "\n"
	small := `{"jsonrpc":"2.0","id":2,"result":{}}` + "\n"
	kept := func(stream string, msgs int) float64 {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		var conns []*lineConn
		var writers []*io.PipeWriter
		for range 100 {
			pr, pw := io.Pipe()
			c := newLineConn(newFrameGuard(pr, MaxMessageBytes), nopWriteCloser{io.Discard})
			go io.WriteString(pw, stream)
			for range msgs {
				if _, err := c.Read(b.Context()); err != nil {
					b.Fatal(err)
				}
			}
			conns, writers = append(conns, c), append(writers, pw)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		for i, c := range conns {
			writers[i].Close()
			c.Close()
		}
		return float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / 100
	}
	var withBig, smallOnly float64
	for range b.N {
		withBig += kept(big+small, 2)
		smallOnly += kept(small, 1)
	}
	b.ReportMetric(withBig/float64(b.N), "B/conn-after-big")
	b.ReportMetric(smallOnly/float64(b.N), "B/conn-small-only")
	b.ReportMetric(withBig/smallOnly, "big/small")
}
