package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"syscall"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/sandbox"
	"deckhand/tools"
)

// MaxMessageBytes is the largest message Deckhand reads from a stdio server.
// The SDK's own reader fails the whole connection on a bigger one, and the
// next call then fails with a misleading "process exited"; Deckhand's reader
// (frameGuard) drops the message instead and answers the call it belonged
// to with an error that says why, so the connection stays up.
const MaxMessageBytes = 16 << 20

// maxDiscard is how much of one over-long line the guard reads past before
// it gives the connection up: a server that writes without end.
const maxDiscard = 1 << 30

// FrameError is a message from the server that Deckhand would not read.
type FrameError struct {
	Size   int64 // bytes read of it (at least Limit+1)
	Limit  int
	Reason string // what was done about it
}

func (e *FrameError) Error() string {
	return fmt.Sprintf("the server sent a message of %s, over the %s one message may have; %s",
		tools.Size(int(e.Size)), tools.Size(e.Limit), e.Reason)
}

// stdioTransport starts cmd like the SDK's CommandTransport (and stops it the
// same way: stdin closed, a grace period, SIGTERM, SIGKILL), but reads its
// stdout through a frameGuard, into a lineConn.
type stdioTransport struct {
	cmd     *sandbox.Cmd
	grace   time.Duration
	exiting <-chan struct{} // Options.Exiting
	limit   int             // MaxMessageBytes when 0
	// dropped notes a message the guard dropped; may be nil.
	dropped func(*FrameError)
	guard   *frameGuard
}

func (t *stdioTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	stdout, err := t.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stdin, err := t.cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	if err := t.cmd.Start(); err != nil {
		return nil, err
	}
	limit := t.limit
	if limit <= 0 {
		limit = MaxMessageBytes
	}
	t.guard = newFrameGuard(stdout, limit)
	t.guard.dropped = t.dropped
	return newLineConn(t.guard, &childStdin{WriteCloser: stdin, cmd: t.cmd, grace: t.grace, exiting: t.exiting}), nil
}

// childStdin closes the server as the spec says: close its input, wait, then
// SIGTERM, then SIGKILL. Once exiting is closed (Deckhand itself is
// ending), the waits are cut to ExitGrace and then the whole process group
// is killed: with the sandbox, the process is the first of its PID
// namespace, whose death takes everything in it.
type childStdin struct {
	io.WriteCloser
	cmd     *sandbox.Cmd
	grace   time.Duration
	exiting <-chan struct{} // nil: never
	once    sync.Once
	err     error
}

func (s *childStdin) Close() error {
	s.once.Do(func() { s.err = s.close() })
	return s.err
}

func (s *childStdin) close() error {
	_ = s.WriteCloser.Close()
	exited := make(chan error, 1)
	go func() { exited <- s.cmd.Wait() }()
	// wait waits up to d for the process to end; hurried reports that
	// Deckhand started ending first.
	wait := func(d time.Duration) (ended, hurried bool, err error) {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case err := <-exited:
			return true, false, err
		case <-t.C:
			return false, false, nil
		case <-s.exiting:
			return false, true, nil
		}
	}
	ended, hurried, err := wait(s.grace)
	if !ended && !hurried && s.cmd.Process.Signal(syscall.SIGTERM) == nil {
		ended, hurried, err = wait(s.grace)
	}
	if ended {
		return err
	}
	if hurried {
		select {
		case err := <-exited:
			return err
		case <-time.After(ExitGrace):
		}
		killGroupNow(s.cmd.Process.Pid)
	} else {
		_ = s.cmd.Process.Kill()
	}
	select {
	case err := <-exited:
		return err
	case <-time.After(s.grace):
		return errors.New("the server process did not exit")
	}
}

// frameGuard passes a server's newline-delimited messages through whole, up
// to limit bytes each. A longer one is read to its end and dropped: if it
// answered a request (a top-level "id" and no "method"), the guard passes an
// error answer to that request in its place; a request or notification from
// the server is dropped with a note; one with no readable id ends the
// connection with a FrameError, since the call it answered cannot be told.
type frameGuard struct {
	r     *bufio.Reader
	limit int

	line    []byte // the line being handed out
	off     int
	dropped func(*FrameError) // notes a dropped message; may be nil

	// sse: the stream is server-sent events, whose messages are data:
	// lines. A line put in place of a long one is a data: line too, and a
	// dropped request or notification is replaced by a log notification
	// (an event without data could upset the reader).
	sse bool
	// request is the id of the request this stream answers (the POST of a
	// streamable HTTP call), used when a long message's own id cannot be
	// read. nil for a session's stream.
	request any
	// tap, if active, is shown each message of an SSE stream (tap.go);
	// event gathers one's data lines.
	tap   *answerTap
	event []byte

	mu    sync.Mutex
	fatal *FrameError
}

// keepBuffer is the most a connection keeps, between messages, of the
// memory it read one into (the frame guard's line, the JSON decoder's
// buffer): a bigger message gets its own, garbage once it is read. Kept,
// a server's tools/list answer (14 KB for 50 tools) stayed twice over for
// the connection's life (2.9 MB for 100 such servers).
const keepBuffer = 4 << 10

func newFrameGuard(r io.Reader, limit int) *frameGuard {
	// A small buffer: a longer line is read in pieces into g.line, and a
	// start with 100 servers kept 64 KiB for each (6 MiB, live).
	return &frameGuard{r: bufio.NewReaderSize(r, 4<<10), limit: limit}
}

// Fatal is the FrameError that ended the stream, if one did.
func (g *frameGuard) Fatal() *FrameError {
	if g == nil {
		return nil
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.fatal
}

func (g *frameGuard) Read(p []byte) (int, error) {
	for g.off >= len(g.line) {
		if err := g.next(); err != nil {
			return 0, err
		}
	}
	n := copy(p, g.line[g.off:])
	g.off += n
	return n, nil
}

// next reads one line into g.line, or its replacement.
func (g *frameGuard) next() error {
	if cap(g.line) > keepBuffer {
		g.line = nil // give a big message's memory back
	}
	g.line, g.off = g.line[:0], 0
	for {
		chunk, err := g.r.ReadSlice('\n')
		if len(g.line)+len(chunk) > g.limit {
			return g.overflow(chunk, err)
		}
		g.line = append(g.line, chunk...)
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err == nil, len(g.line) > 0:
			// A whole line, or the last, without its newline (err
			// comes next time).
			if g.sse && g.tap != nil {
				g.tap.see(&g.event, g.line, g.limit)
			}
			return nil
		default:
			return err
		}
	}
}

// overflow reads the rest of an over-long line (whose first part is g.line,
// then chunk) and decides what stands in for it.
func (g *frameGuard) overflow(chunk []byte, err error) error {
	var s idScanner
	s.feed(g.line)
	s.feed(chunk)
	size := int64(len(g.line) + len(chunk))
	g.line = nil
	for errors.Is(err, bufio.ErrBufferFull) {
		if size > maxDiscard {
			return g.fail(&FrameError{Size: size, Limit: g.limit, Reason: "it did not end, so Deckhand closed the connection"})
		}
		chunk, err = g.r.ReadSlice('\n')
		s.feed(chunk)
		size += int64(len(chunk))
	}
	id := s.id()
	if id == nil && !s.method {
		id = g.request
	}
	switch {
	case id != nil && !s.method:
		fe := &FrameError{Size: size, Limit: g.limit, Reason: "Deckhand dropped it and the connection stays up"}
		g.note(fe)
		g.replace(map[string]any{
			"jsonrpc": "2.0",
			"id":      id,
			"error":   map[string]any{"code": -32603, "message": fe.Error()},
		})
		return nil
	case s.method:
		fe := &FrameError{Size: size, Limit: g.limit, Reason: "it was a request or notification from the server, and Deckhand dropped it"}
		g.note(fe)
		if g.sse {
			g.replace(map[string]any{
				"jsonrpc": "2.0",
				"method":  "notifications/message",
				"params":  map[string]any{"level": "warning", "logger": "deckhand", "data": fe.Error()},
			})
			return nil
		}
		if err != nil {
			return err
		}
		return g.next()
	default:
		return g.fail(&FrameError{Size: size, Limit: g.limit, Reason: "it names no request, so Deckhand closed the connection"})
	}
}

// replace hands out msg in place of the line that was dropped.
func (g *frameGuard) replace(msg any) {
	data, _ := json.Marshal(msg)
	if g.sse {
		data = append([]byte("data: "), data...)
	}
	g.line = append(data, '\n')
}

func (g *frameGuard) note(fe *FrameError) {
	if g.dropped != nil {
		g.dropped(fe)
	}
}

func (g *frameGuard) fail(fe *FrameError) error {
	g.mu.Lock()
	g.fatal = fe
	g.mu.Unlock()
	return fe
}

// idScanner finds, in a stream of bytes holding one JSON object, the raw value
// of its top-level "id" and whether it has a top-level "method", without
// keeping the rest. It reads what it is given; it does not validate JSON.
type idScanner struct {
	depth    int
	inString bool
	escaped  bool
	wantKey  bool   // at depth 1, the next string is a key
	inKey    bool   // reading a depth-1 key
	key      []byte // that key, up to 8 bytes
	keyLong  bool
	inID     bool   // reading the value of "id"
	raw      []byte // that value, up to 64 bytes
	rawLong  bool
	sawID    bool
	method   bool
}

func (s *idScanner) feed(b []byte) {
	for _, c := range b {
		s.byte(c)
	}
}

func (s *idScanner) byte(c byte) {
	if s.inID && !(s.depth == 1 && !s.inString && (c == ',' || c == '}')) {
		if len(s.raw) < 64 {
			s.raw = append(s.raw, c)
		} else {
			s.rawLong = true
		}
	}
	if s.inString {
		switch {
		case s.escaped:
			s.escaped = false
		case c == '\\':
			s.escaped = true
		case c == '"':
			s.inString = false
			if s.inKey {
				s.inKey = false
				s.endKey()
			}
			return
		}
		if s.inKey {
			if len(s.key) < 8 {
				s.key = append(s.key, c)
			} else {
				s.keyLong = true
			}
		}
		return
	}
	switch c {
	case '"':
		s.inString = true
		if s.depth == 1 && s.wantKey {
			s.inKey, s.wantKey = true, false
			s.key, s.keyLong = s.key[:0], false
		}
	case '{', '[':
		s.depth++
		if s.depth == 1 && c == '{' {
			s.wantKey = true
		}
	case '}', ']':
		if s.depth == 1 {
			s.inID = false
		}
		s.depth--
	case ',':
		if s.depth == 1 {
			s.inID = false
			s.wantKey = true
		}
	}
}

// endKey is called when a depth-1 key has been read; its value follows.
func (s *idScanner) endKey() {
	if s.keyLong {
		return
	}
	switch string(s.key) {
	case "id":
		s.inID, s.sawID = true, true
		s.raw, s.rawLong = s.raw[:0], false
	case "method":
		s.method = true
	}
}

// id is the top-level id (a number or a string), or nil.
func (s *idScanner) id() any {
	if !s.sawID || s.rawLong {
		return nil
	}
	raw := bytes.TrimSpace(s.raw)
	raw = bytes.TrimSpace(bytes.TrimPrefix(raw, []byte(":")))
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return nil
	}
	switch v.(type) {
	case string:
		return v
	case float64:
		return json.Number(raw)
	}
	return nil
}
