package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Deckhand's own JSON-RPC connections, for stdio and in-process servers.
//
// They exist for one measured reason: the go-sdk v1.8.0 IOTransport decodes
// each message it reads three times over (as a batch, then as a message,
// then its method), and every one of those decodes allocates a fresh 32 KiB
// buffer (internal/json.Unmarshal makes a new segmentio Decoder per call).
// That was three quarters of all the bytes allocated in one model → tool →
// model round trip, and the garbage collection it caused set the round
// trip's p99. Above the connection everything is still the SDK's: the
// session, its requests, schemas and results.

// decodeMessage reads one JSON-RPC 2.0 message, as the SDK's
// jsonrpc.DecodeMessage does: exact keys, "jsonrpc" must be "2.0", a
// "method" key (even "") makes it a request, an id is a string or a number
// (a number is taken as an integer), and a response must have an id. Two
// differences, both on purpose: text after the message is refused (the
// SDK's decoder ignores it), and nesting deeper than the SDK's 1,000
// levels (the standard library's limit is 10,000) is let through to
// whatever reads the params or result, which refuses it there: one call
// fails, where the SDK would end the connection.
func decodeMessage(data []byte) (jsonrpc.Message, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		return nil, fmt.Errorf("unmarshaling jsonrpc message: %w", err)
	}
	var version string
	if raw, ok := fields["jsonrpc"]; ok && !isNull(raw) {
		if err := json.Unmarshal(raw, &version); err != nil {
			return nil, fmt.Errorf("unmarshaling jsonrpc message: jsonrpc: %w", err)
		}
	}
	if version != "2.0" {
		return nil, fmt.Errorf("invalid message version tag %q; expected %q", version, "2.0")
	}
	id, err := decodeID(fields["id"])
	if err != nil {
		return nil, err
	}
	if raw, ok := fields["method"]; ok {
		var method string
		if !isNull(raw) {
			if err := json.Unmarshal(raw, &method); err != nil {
				return nil, fmt.Errorf("unmarshaling jsonrpc message: method: %w", err)
			}
		}
		return &jsonrpc.Request{ID: id, Method: method, Params: present(fields["params"])}, nil
	}
	if !id.IsValid() {
		return nil, fmt.Errorf("invalid request: a response without an id")
	}
	resp := &jsonrpc.Response{ID: id, Result: present(fields["result"])}
	if raw, ok := fields["error"]; ok && !isNull(raw) {
		wire, err := decodeError(raw)
		if err != nil {
			return nil, fmt.Errorf("unmarshaling jsonrpc message: error: %w", err)
		}
		resp.Error = wire
	}
	return resp, nil
}

// decodeError reads an error object by its exact keys (the standard
// library's decoder would also take "Code" for "code").
func decodeError(raw json.RawMessage) (*jsonrpc.Error, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return nil, err
	}
	wire := &jsonrpc.Error{Data: present(fields["data"])}
	if v, ok := fields["code"]; ok {
		if err := json.Unmarshal(v, &wire.Code); err != nil {
			return nil, fmt.Errorf("code: %w", err)
		}
	}
	if v, ok := fields["message"]; ok {
		if err := json.Unmarshal(v, &wire.Message); err != nil {
			return nil, fmt.Errorf("message: %w", err)
		}
	}
	return wire, nil
}

// decodeID reads an id: absent or null (a notification), a string, or a
// number, which like the SDK's is truncated to an integer.
func decodeID(raw json.RawMessage) (jsonrpc.ID, error) {
	if len(raw) == 0 || isNull(raw) {
		return jsonrpc.ID{}, nil
	}
	switch raw[0] {
	case '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return jsonrpc.ID{}, fmt.Errorf("unmarshaling jsonrpc message: id: %w", err)
		}
		return jsonrpc.MakeID(s)
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		if n, err := strconv.ParseInt(string(raw), 10, 64); err == nil {
			return jsonrpc.MakeID(float64(n))
		}
		f, err := strconv.ParseFloat(string(raw), 64)
		if err != nil || math.IsInf(f, 0) {
			return jsonrpc.ID{}, fmt.Errorf("unmarshaling jsonrpc message: id %s is not a number Deckhand can read", raw)
		}
		return jsonrpc.MakeID(f)
	}
	return jsonrpc.ID{}, fmt.Errorf("invalid id %s: an id is a string or a number", raw)
}

func isNull(raw json.RawMessage) bool { return string(raw) == "null" }

// present is raw, or nil when the key was absent; a null is kept as the
// SDK keeps it.
func present(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return nil
	}
	return raw
}

// maxBatch is the most messages one batch may hold. Servers hardly ever
// batch (the spec dropped batches in 2025-06-18); a batch of half a million
// tiny notifications in one line would otherwise all be queued at once.
const maxBatch = 1000

// decodeFrame reads one JSON value from a stdio server: a message, or a
// batch of them (an array), which is handed on one by one.
func decodeFrame(frame []byte) ([]jsonrpc.Message, error) {
	frame = bytes.TrimSpace(frame)
	if len(frame) > 0 && frame[0] == '[' {
		var batch []json.RawMessage
		if err := json.Unmarshal(frame, &batch); err != nil {
			return nil, fmt.Errorf("unmarshaling jsonrpc batch: %w", err)
		}
		if len(batch) == 0 {
			return nil, errors.New("empty batch")
		}
		if len(batch) > maxBatch {
			return nil, fmt.Errorf("a batch of %d messages, over the %d Deckhand reads", len(batch), maxBatch)
		}
		msgs := make([]jsonrpc.Message, 0, len(batch))
		for _, raw := range batch {
			msg, err := decodeMessage(raw)
			if err != nil {
				return nil, err
			}
			msgs = append(msgs, msg)
		}
		return msgs, nil
	}
	msg, err := decodeMessage(frame)
	if err != nil {
		return nil, err
	}
	return []jsonrpc.Message{msg}, nil
}

// lineConn is a connection to a stdio server: newline-delimited messages,
// read through a frameGuard and written to the server's stdin.
type lineConn struct {
	out io.WriteCloser // the server's stdin; closing it stops the server

	writeMu sync.Mutex

	incoming chan decoded
	queue    []jsonrpc.Message // the rest of a batch; Read is not concurrent

	closeOnce sync.Once
	closed    chan struct{}
	closeErr  error
}

type decoded struct {
	msgs []jsonrpc.Message
	err  error
}

func newLineConn(guard *frameGuard, out io.WriteCloser) *lineConn {
	c := &lineConn{out: out, incoming: make(chan decoded), closed: make(chan struct{})}
	go c.readLoop(guard)
	return c
}

// readLoop decodes messages until the stream ends or one cannot be read.
// It frames them as the SDK's reader does, with one JSON decoder over the
// stream and the same check that a newline follows each. The guard bounds
// each line; a frame counter bounds each message, which may run over
// several lines, blank ones before it included. Like the SDK's, the loop
// may outlive Close while the server's stdout stays open; Close stops the
// server, which ends it.
func (c *lineConn) readLoop(guard *frameGuard) {
	// An eighth more than a line may have: the decoder reads ahead, and
	// what it reads of the next message counts toward this one.
	counter := &frameCounter{r: guard, limit: guard.limit + guard.limit/8}
	dec := json.NewDecoder(counter)
	for {
		var d decoded
		var raw json.RawMessage
		d.err = dec.Decode(&raw)
		if d.err == nil {
			var next [1]byte
			if n, err := dec.Buffered().Read(next[:]); n > 0 && next[0] != '\n' && next[0] != '\r' {
				d.err = errors.New("invalid trailing data at the end of stream")
			} else if err != nil && err != io.EOF {
				d.err = err
			}
		}
		if d.err == nil {
			d.msgs, d.err = decodeFrame(raw)
		}
		if counter.n > keepBuffer {
			// Start a fresh decoder, so that one big message's buffer is
			// not kept for the connection's life.
			dec = json.NewDecoder(io.MultiReader(dec.Buffered(), counter))
		}
		counter.n = 0
		select {
		case c.incoming <- d:
		case <-c.closed:
			return
		}
		if d.err != nil {
			return
		}
	}
}

// frameCounter counts the bytes read for one message and fails past limit:
// a message spread over many lines, or an endless run of blank ones.
type frameCounter struct {
	r     io.Reader
	n     int
	limit int
}

func (f *frameCounter) Read(p []byte) (int, error) {
	if f.n >= f.limit {
		return 0, &FrameError{Size: int64(f.n), Limit: f.limit, Reason: "it did not end, so Deckhand closed the connection"}
	}
	n, err := f.r.Read(p[:min(len(p), f.limit-f.n)])
	f.n += n
	return n, err
}

func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(c.queue) > 0 {
		return c.next(), nil
	}
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case d := <-c.incoming:
		if d.err != nil {
			return nil, d.err
		}
		c.queue = d.msgs
		return c.next(), nil
	case <-c.closed:
		return nil, io.EOF
	}
}

// next takes the first message out of the queue, which then holds nothing
// of it: a queue emptied by reslicing kept its array, and through it the
// last message read (a server's whole tools/list answer, 1.5 MB over 100
// servers of 50 tools), for the connection's life.
func (c *lineConn) next() jsonrpc.Message {
	msg := c.queue[0]
	c.queue[0] = nil
	if c.queue = c.queue[1:]; len(c.queue) == 0 {
		c.queue = nil
	}
	return msg
}

func (c *lineConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("marshaling message: %w", err)
	}
	data = append(data, '\n')
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	_, err = c.out.Write(data)
	return err
}

func (c *lineConn) Close() error {
	c.closeOnce.Do(func() {
		close(c.closed)
		c.closeErr = c.out.Close()
	})
	return c.closeErr
}

func (c *lineConn) SessionID() string { return "" }

// inProcessConns connects a client and a server in one process without
// encoding: each side reads the messages the other wrote, as values. What
// the wire would change is changed the same way here: an error becomes a
// wire error (its message and code), and transport-only Extra is dropped.
// Like net.Pipe, a write waits for the other side's read, and closing
// either side closes both.
func inProcessConns() (client, server *pipeConn) {
	shared := &pipeShared{closed: make(chan struct{})}
	toServer, toClient := make(chan jsonrpc.Message), make(chan jsonrpc.Message)
	client = &pipeConn{in: toClient, out: toServer, shared: shared}
	server = &pipeConn{in: toServer, out: toClient, shared: shared}
	return client, server
}

type pipeShared struct {
	once   sync.Once
	closed chan struct{}
}

type pipeConn struct {
	in     <-chan jsonrpc.Message
	out    chan<- jsonrpc.Message
	shared *pipeShared
}

func (p *pipeConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	select {
	case msg := <-p.in:
		return msg, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-p.shared.closed:
		return nil, io.EOF
	}
}

func (p *pipeConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	msg, err := asOnTheWire(msg)
	if err != nil {
		return err
	}
	select {
	case p.out <- msg:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-p.shared.closed:
		return io.ErrClosedPipe
	}
}

func (p *pipeConn) Close() error {
	p.shared.once.Do(func() { close(p.shared.closed) })
	return nil
}

func (p *pipeConn) SessionID() string { return "" }

// asOnTheWire is a copy of msg as the other side would read it had it been
// encoded and decoded.
func asOnTheWire(msg jsonrpc.Message) (jsonrpc.Message, error) {
	switch m := msg.(type) {
	case *jsonrpc.Request:
		c := *m
		c.Extra = nil
		return &c, nil
	case *jsonrpc.Response:
		c := *m
		c.Extra = nil
		if w, ok := m.Error.(*jsonrpc.Error); ok && w == nil {
			c.Error = nil // the wire drops a nil error of any type
		} else if m.Error != nil {
			var wire *jsonrpc.Error
			if !errors.As(m.Error, &wire) || wire != m.Error {
				// The SDK's rule: the outer message, the code of a
				// wire error it wraps.
				w := &jsonrpc.Error{Message: m.Error.Error()}
				if wire != nil {
					w.Code = wire.Code
				}
				wire = w
			}
			c.Error = wire
		}
		return &c, nil
	}
	return nil, fmt.Errorf("unknown message type %T", msg)
}

// pipeTransport hands out one end of an in-process pipe.
type pipeTransport struct{ conn *pipeConn }

func (t pipeTransport) Connect(context.Context) (sdk.Connection, error) { return t.conn, nil }
