package mcp

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// tapFor is a tap that watches every request and keeps what it answers.
func tapFor(got *[]string) *answerTap {
	return &answerTap{
		want: func(method, token string) bool { return method != "ping" },
		answer: func(method, token string, result json.RawMessage) {
			*got = append(*got, method+" "+token+" "+string(result))
		},
	}
}

func post(t *testing.T, a *answerTap, body string) string {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, "http://x/mcp", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	key, _ := a.sent(req)
	return key
}

// The tap keeps the answers to the requests it watches, from JSON bodies
// and from event streams however their data lines are split, and nothing
// else.
func TestAnswerTap(t *testing.T) {
	tests := []struct {
		name   string
		posts  []string
		stream string // an event stream; else json
		limit  int    // the guard's, for the stream; default MaxMessageBytes
		json   string
		want   []string
	}{
		{name: "JSON answer", posts: []string{`{"jsonrpc":"2.0","id":3,"method":"tools/list"}`},
			json: `{"jsonrpc":"2.0","id":3,"result":{"tools":[]}}`, want: []string{`tools/list  {"tools":[]}`}},
		{name: "token", posts: []string{`{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"_meta":{"progressToken":"deckhand-7"}}}`},
			json: `{"jsonrpc":"2.0","id":"a","result":{"task":{}}}`, want: []string{`tools/call deckhand-7 {"task":{}}`}},
		{name: "batch", posts: []string{`{"jsonrpc":"2.0","id":1,"method":"initialize"}`},
			json: `[{"jsonrpc":"2.0","method":"notifications/message"},{"jsonrpc":"2.0","id":1,"result":{}}]`, want: []string{"initialize  {}"}},
		{name: "unwatched method", posts: []string{`{"jsonrpc":"2.0","id":1,"method":"ping"}`}, json: `{"jsonrpc":"2.0","id":1,"result":{}}`},
		{name: "an error answer", posts: []string{`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`}, json: `{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"no"}}`},
		{name: "another id", posts: []string{`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`}, json: `{"jsonrpc":"2.0","id":2,"result":{}}`},
		{name: "a request from the server with the same id", posts: []string{`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`},
			json: `{"jsonrpc":"2.0","id":1,"method":"elicitation/create","result":{}}`},
		{name: "stream", posts: []string{`{"jsonrpc":"2.0","id":5,"method":"tools/list"}`},
			stream: "id: 1\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{}}\n\n: comment\ndata: {\"jsonrpc\":\"2.0\",\"id\":5,\ndata: \"result\":{\"tools\":[1]}}\n\n",
			want:   []string{"tools/list  {\"tools\":[1]}"}},
		{name: "CRLF stream, data without a space", posts: []string{`{"jsonrpc":"2.0","id":5,"method":"tools/list"}`},
			stream: "data:{\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{}}\r\n\r\n", want: []string{"tools/list  {}"}},
		{name: "an event over the limit", posts: []string{`{"jsonrpc":"2.0","id":5,"method":"tools/list"}`}, limit: 48,
			stream: "data: {\"jsonrpc\":\"2.0\",\"id\":5,\ndata: \"result\":{\"tools\":[1,2,3,4,5,6,7,8,9]}}\n\n"},
		{name: "an event never ended", posts: []string{`{"jsonrpc":"2.0","id":5,"method":"tools/list"}`},
			stream: "data: {\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{}}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			a := tapFor(&got)
			for _, p := range tt.posts {
				post(t, a, p)
			}
			if tt.stream != "" {
				limit := tt.limit
				if limit == 0 {
					limit = MaxMessageBytes
				}
				g := newFrameGuard(strings.NewReader(tt.stream), limit)
				g.sse, g.tap = true, a
				out, err := io.ReadAll(g)
				if err != nil || string(out) != tt.stream {
					t.Fatalf("the guard read %q, %v; want the stream unchanged", out, err)
				}
			} else {
				a.received([]byte(tt.json))
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("answers kept (-want +got):\n%s", diff)
			}
		})
	}
}

// An answer is kept once, and a request forgotten is not waited for.
func TestAnswerTapOnce(t *testing.T) {
	var got []string
	a := tapFor(&got)
	post(t, a, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	forgotten := post(t, a, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	a.forget(forgotten)
	a.received([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}`))
	a.received([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}`))
	a.received([]byte(`{"jsonrpc":"2.0","id":2,"result":{}}`))
	if len(got) != 1 || a.active() {
		t.Errorf("answers kept = %q, active %v; want one, and none awaited", got, a.active())
	}
	// A call given up on is not waited for either.
	post(t, a, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"_meta":{"progressToken":"deckhand-1"}}}`)
	a.forgetCall("deckhand-1")
	if a.active() {
		t.Errorf("after forgetCall, the tap still awaits an answer")
	}
}

// Whatever a server streams, the tap leaves the stream as it was and keeps
// only an answer to the request it watched.
func FuzzAnswerTap(f *testing.F) {
	f.Add([]byte("data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n"))
	f.Add([]byte("data: [{\"id\":1,\"result\":1},{\"id\":1,\"result\":2}]\r\n\r\n"))
	f.Add([]byte("data: {\"id\":\n\ndata: 1}\n\ndata:\n\n"))
	f.Fuzz(func(t *testing.T, stream []byte) {
		var got []string
		a := tapFor(&got)
		req, _ := http.NewRequest(http.MethodPost, "http://x/mcp", bytes.NewReader([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)))
		a.sent(req)
		g := newFrameGuard(bytes.NewReader(stream), 1<<16)
		g.sse, g.tap = true, a
		out, err := io.ReadAll(g)
		if err == nil && len(stream) <= 1<<16 && !bytes.Equal(out, stream) {
			t.Fatalf("the guard changed the stream: %q to %q", stream, out)
		}
		if len(got) > 1 {
			t.Errorf("answers kept = %q, want at most one", got)
		}
	})
}
