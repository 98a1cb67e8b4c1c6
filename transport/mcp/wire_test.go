package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	segjson "github.com/segmentio/encoding/json"
)

// sameMessage reports how a and b differ, or "" when they are the same
// message (raw JSON compared by value).
func sameMessage(a, b jsonrpc.Message) string {
	switch a := a.(type) {
	case *jsonrpc.Request:
		b, ok := b.(*jsonrpc.Request)
		switch {
		case !ok:
			return fmt.Sprintf("request against %T", b)
		case a.ID != b.ID || a.Method != b.Method:
			return fmt.Sprintf("id/method %v %q against %v %q", a.ID.Raw(), a.Method, b.ID.Raw(), b.Method)
		case !sameRaw(a.Params, b.Params):
			return fmt.Sprintf("params %q against %q", a.Params, b.Params)
		}
	case *jsonrpc.Response:
		b, ok := b.(*jsonrpc.Response)
		switch {
		case !ok:
			return fmt.Sprintf("response against %T", b)
		case a.ID != b.ID:
			return fmt.Sprintf("id %v against %v", a.ID.Raw(), b.ID.Raw())
		case !sameRaw(a.Result, b.Result):
			return fmt.Sprintf("result %q against %q", a.Result, b.Result)
		case (a.Error == nil) != (b.Error == nil):
			return fmt.Sprintf("error %v against %v", a.Error, b.Error)
		case a.Error != nil:
			var wa, wb *jsonrpc.Error
			errors.As(a.Error, &wa)
			errors.As(b.Error, &wb)
			if wa.Code != wb.Code || wa.Message != wb.Message || !sameRaw(wa.Data, wb.Data) {
				return fmt.Sprintf("error %+v against %+v", wa, wb)
			}
		}
	default:
		return fmt.Sprintf("unknown %T", a)
	}
	return ""
}

func sameRaw(a, b json.RawMessage) bool {
	if len(a) == 0 || len(b) == 0 {
		return len(a) == len(b)
	}
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return bytes.Equal(a, b)
	}
	return reflect.DeepEqual(x, y)
}

var wireSeeds = []string{
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`,
	`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":1}}`,
	`{"jsonrpc":"2.0","id":"abc","result":{"content":[{"type":"text","text":"ok"}]}}`,
	`{"jsonrpc":"2.0","id":7,"error":{"code":-32601,"message":"no such method","data":{"x":1}}}`,
	`{"jsonrpc":"2.0","id":1.5,"result":{}}`,
	`{"jsonrpc":"2.0","id":-3,"result":null}`,
	`{"jsonrpc":"2.0","id":null,"method":""}`,
	`{"jsonrpc":"2.0","id":1,"method":null}`,
	`{"jsonrpc":"2.0","result":{}}`,
	`{"jsonrpc":"1.0","id":1,"result":{}}`,
	`{"jsonrpc":"2.0","id":true,"result":{}}`,
	`{"jsonrpc":"2.0","id":{},"result":{}}`,
	`{"jsonrpc":"2.0","id":1e400,"result":{}}`,
	`{"jsonrpc":"2.0","id":1,"error":"nope"}`,
	`{"jsonrpc":"2.0","ID":1,"Method":"x"}`,
	`{"jsonrpc":"2.0","id":1,"id":2,"result":{}}`,
	`{"jsonrpc":"2.0","id":"\u00e9\n","method":"x","params":[1,2]}`,
	`{"jsonrpc":"2.0","id":3,"error":{"code":1,"message":"m","data":null}}`,
	`null`, `[]`, `"x"`, `{}`, `{"jsonrpc":2}`,
}

// FuzzDecodeMessage: Deckhand's decoder reads what the SDK's reads, the
// same way, and refuses what it refuses.
func FuzzDecodeMessage(f *testing.F) {
	for _, s := range wireSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		want, wantErr := jsonrpc.DecodeMessage(data)
		got, err := decodeMessage(data)
		if (err == nil) != (wantErr == nil) {
			if knownDifference(data) {
				return
			}
			t.Fatalf("%q: Deckhand's error %v, the SDK's %v", data, err, wantErr)
		}
		if err != nil {
			return
		}
		if d := sameMessage(got, want); d != "" {
			t.Fatalf("%q: %s", data, d)
		}
	})
}

// knownDifference is input the decoders read differently on purpose (see
// decodeMessage): what one JSON library takes as valid and the other does
// not, nesting deeper than the SDK's 1,000 levels, and a value with more
// after it, which the SDK's decoder ignores and Deckhand's refuses (the
// stdio reader frames messages before either decodes, so there it never
// happens).
func knownDifference(data []byte) bool {
	if json.Valid(data) != segjson.Valid(data) || bytes.Count(data, []byte("["))+bytes.Count(data, []byte("{")) > 1000 {
		return true
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	var v any
	if dec.Decode(&v) != nil {
		return false
	}
	_, err := dec.Token()
	return err != io.EOF
}

func TestDecodeMessage(t *testing.T) {
	for _, s := range wireSeeds {
		want, wantErr := jsonrpc.DecodeMessage([]byte(s))
		got, err := decodeMessage([]byte(s))
		if (err == nil) != (wantErr == nil) {
			t.Errorf("%s: Deckhand's error %v, the SDK's %v", s, err, wantErr)
			continue
		}
		if err == nil {
			if d := sameMessage(got, want); d != "" {
				t.Errorf("%s: %s", s, d)
			}
		}
	}
}

// A message through the in-process pipe reads as it would had it gone over
// the wire.
func TestInProcessConnsLikeTheWire(t *testing.T) {
	id, _ := jsonrpc.MakeID("r1")
	wrapped := fmt.Errorf("calling: %w", &jsonrpc.Error{Code: -32602, Message: "bad params", Data: json.RawMessage(`{"a":1}`)})
	msgs := []jsonrpc.Message{
		&jsonrpc.Request{ID: id, Method: "tools/call", Params: json.RawMessage(`{"name":"x"}`), Extra: "transport only"},
		&jsonrpc.Request{Method: "notifications/initialized"},
		&jsonrpc.Response{ID: id, Result: json.RawMessage(`{"content":[]}`), Extra: 3},
		&jsonrpc.Response{ID: id, Error: errors.New("plain")},
		&jsonrpc.Response{ID: id, Error: wrapped},
		&jsonrpc.Response{ID: id, Error: &jsonrpc.Error{Code: 5, Message: "as is", Data: json.RawMessage(`[1]`)}},
		&jsonrpc.Response{ID: id, Result: json.RawMessage(`{}`), Error: (*jsonrpc.Error)(nil)},
	}
	client, server := inProcessConns()
	ctx := t.Context()
	for _, msg := range msgs {
		data, err := jsonrpc.EncodeMessage(msg)
		if err != nil {
			t.Fatal(err)
		}
		want, err := jsonrpc.DecodeMessage(data)
		if err != nil {
			t.Fatal(err)
		}
		go client.Write(ctx, msg)
		got, err := server.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if d := sameMessage(got, want); d != "" {
			t.Errorf("%s: %s", data, d)
		}
		switch m := got.(type) {
		case *jsonrpc.Request:
			if m.Extra != nil {
				t.Errorf("Extra crossed the pipe: %v", m.Extra)
			}
		case *jsonrpc.Response:
			if m.Extra != nil {
				t.Errorf("Extra crossed the pipe: %v", m.Extra)
			}
			if m.Error != nil {
				if _, ok := m.Error.(*jsonrpc.Error); !ok {
					t.Errorf("error %T crossed the pipe; the wire makes every error a *jsonrpc.Error", m.Error)
				}
			}
		}
	}
	// Closing one side ends both, at once.
	read := make(chan error, 1)
	go func() { _, err := client.Read(ctx); read <- err }()
	server.Close()
	select {
	case err := <-read:
		if err != io.EOF {
			t.Errorf("read after close: %v, want EOF", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Close did not end the other side's Read")
	}
	if err := client.Write(ctx, msgs[0]); err == nil {
		t.Error("a write after close succeeded")
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := client.Read(cancelled); err == nil {
		t.Error("a read with a cancelled context succeeded")
	}
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// The stdio connection frames messages as the SDK's does: blank lines and
// values spread over lines are read, a batch is handed on one by one, and
// anything after a value on its line ends the connection.
func TestLineConnFraming(t *testing.T) {
	read := func(stream string) ([]jsonrpc.Message, error) {
		c := newLineConn(newFrameGuard(strings.NewReader(stream), 1<<20), nopWriteCloser{io.Discard})
		defer c.Close()
		var got []jsonrpc.Message
		for {
			msg, err := c.Read(t.Context())
			if err != nil {
				return got, err
			}
			got = append(got, msg)
		}
	}
	got, err := read("\n{\"jsonrpc\":\"2.0\",\"id\":1,\n \"result\":{}}\n\r\n" +
		`[{"jsonrpc":"2.0","method":"a"},{"jsonrpc":"2.0","id":"b","method":"b"}]` + "\n" +
		`{"jsonrpc":"2.0","id":2,"result":{"x":1}}`)
	if err != io.EOF || len(got) != 4 {
		t.Fatalf("read %d messages, then %v; want 4, then EOF", len(got), err)
	}
	if r, ok := got[3].(*jsonrpc.Response); !ok || string(r.Result) != `{"x":1}` {
		t.Errorf("last message %+v", got[3])
	}
	for stream, want := range map[string]string{
		`{"jsonrpc":"2.0","id":1,"result":{}} {"jsonrpc":"2.0","id":2,"result":{}}` + "\n": "trailing data",
		`{"jsonrpc":"2.0","id":1,"result":{}}x` + "\n":                                     "trailing data",
		"[]\n": "empty batch",
		`{"jsonrpc":"2.0","id":1,"result":` + "\n": "unexpected EOF",
		"not json\n": "invalid character",
	} {
		got, err := read(stream)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: read %d, then %v; want an error with %q", stream, len(got), err, want)
		}
	}
}

// One message may not run past the limit over many lines, nor hide behind
// endless blank ones; a batch may not hold more than maxBatch messages.
func TestLineConnLimits(t *testing.T) {
	read := func(stream string, limit int) error {
		c := newLineConn(newFrameGuard(strings.NewReader(stream), limit), nopWriteCloser{io.Discard})
		defer c.Close()
		for {
			if _, err := c.Read(t.Context()); err != nil {
				return err
			}
		}
	}
	small := `{"jsonrpc":"2.0","id":1,"result":{}}` + "\n"
	long := `{"jsonrpc":"2.0","id":1,"result":{"x":[` + strings.Repeat("0,\n", 2000) + "0]}}\n"
	var fe *FrameError
	for name, stream := range map[string]string{
		"a message over many lines": long,
		"blank lines before one":    strings.Repeat("\n", 5000) + small,
	} {
		if err := read(small+stream, 4096); !errors.As(err, &fe) {
			t.Errorf("%s: %v, want a FrameError", name, err)
		}
		if err := read(small+stream+small, 1<<20); err != io.EOF {
			t.Errorf("%s, under a bigger limit: %v, want all read", name, err)
		}
	}
	batch := func(n int) string {
		return "[" + strings.TrimSuffix(strings.Repeat(`{"jsonrpc":"2.0","method":"x"},`, n), ",") + "]\n"
	}
	if err := read(batch(maxBatch), 1<<20); err != io.EOF {
		t.Errorf("a batch of %d: %v", maxBatch, err)
	}
	if err := read(batch(maxBatch+1), 1<<20); err == nil || !strings.Contains(err.Error(), "batch of 1001") {
		t.Errorf("a batch of %d: %v", maxBatch+1, err)
	}
}

// The stdio connection writes one line per message.
func TestLineConnWrites(t *testing.T) {
	var out bytes.Buffer
	c := newLineConn(newFrameGuard(strings.NewReader(""), 1<<20), nopWriteCloser{&out})
	defer c.Close()
	id, _ := jsonrpc.MakeID(float64(4))
	for range 2 {
		if err := c.Write(t.Context(), &jsonrpc.Request{ID: id, Method: "ping"}); err != nil {
			t.Fatal(err)
		}
	}
	want := `{"jsonrpc":"2.0","id":4,"method":"ping"}` + "\n"
	if out.String() != want+want {
		t.Errorf("wrote %q, want %q twice", out.String(), want)
	}
}

// repeated is an endless stream of one frame.
type repeated struct {
	frame []byte
	off   int
}

func (r *repeated) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		c := copy(p[n:], r.frame[r.off:])
		n += c
		r.off = (r.off + c) % len(r.frame)
	}
	return n, nil
}

// BenchmarkRead compares the SDK's stdio connection reading a stream of
// tools/call answers with Deckhand's, in time and bytes per message.
func BenchmarkRead(b *testing.B) {
	frame := []byte(`{"jsonrpc":"2.0","id":12,"result":{"content":[{"type":"text","text":"Echo: hello"}],"isError":false}}` + "\n")
	bench := func(b *testing.B, conn sdk.Connection) {
		defer conn.Close()
		b.ReportAllocs()
		for b.Loop() {
			if _, err := conn.Read(b.Context()); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Run("sdk", func(b *testing.B) {
		conn, err := (&sdk.IOTransport{Reader: io.NopCloser(&repeated{frame: frame}), Writer: nopWriteCloser{io.Discard}}).Connect(b.Context())
		if err != nil {
			b.Fatal(err)
		}
		bench(b, conn)
	})
	b.Run("deckhand", func(b *testing.B) {
		bench(b, newLineConn(newFrameGuard(&repeated{frame: frame}, MaxMessageBytes), nopWriteCloser{io.Discard}))
	})
}
