package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
)

// answerTap sees, under the SDK's streamable HTTP connection, the answers
// to a few of the requests the SDK sends, as the server wrote them: what
// Deckhand needs of them the SDK's types drop (tasks.go: the tasks
// capability, a tool's execution.taskSupport, the task a tools/call answers
// with). The SDK reads the same bytes, unchanged, after the tap has seen
// them. It is written by hand because the SDK's client offers no hook on
// the raw messages it reads.
type answerTap struct {
	// want says whether to keep the answer to a request of method, whose
	// progress token (if any) is token; answer is given it.
	want   func(method, token string) bool
	answer func(method, token string, result json.RawMessage)
	// refuse, if set, may stop a request before it is sent: the error
	// is the POST's.
	refuse func(method, token string) error

	mu      sync.Mutex
	watched map[string]tapped // by request id
	n       atomic.Int32      // len(watched)
}

type tapped struct{ method, token string }

// active reports whether an answer is awaited: only then are streams read
// for it.
func (a *answerTap) active() bool { return a != nil && a.n.Load() > 0 }

// sent notes a POST of the SDK's; it returns the key of the request to be
// watched, or "", and refuse's error if the request must not go.
func (a *answerTap) sent(req *http.Request) (string, error) {
	if a == nil || req.GetBody == nil {
		return "", nil
	}
	body, err := req.GetBody()
	if err != nil {
		return "", nil
	}
	defer body.Close()
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			Meta struct {
				ProgressToken any `json:"progressToken"`
			} `json:"_meta"`
		} `json:"params"`
	}
	if json.NewDecoder(io.LimitReader(body, 1<<20)).Decode(&msg) != nil || len(msg.ID) == 0 || msg.Method == "" {
		return "", nil
	}
	token := ""
	if msg.Params.Meta.ProgressToken != nil {
		token = fmt.Sprint(msg.Params.Meta.ProgressToken)
	}
	if a.refuse != nil {
		if err := a.refuse(msg.Method, token); err != nil {
			return "", err
		}
	}
	if !a.want(msg.Method, token) {
		return "", nil
	}
	id, err := decodeID(msg.ID)
	if err != nil || !id.IsValid() {
		return "", nil
	}
	key := fmt.Sprint(id.Raw())
	a.mu.Lock()
	if a.watched == nil {
		a.watched = map[string]tapped{}
	}
	a.watched[key] = tapped{method: msg.Method, token: token}
	a.n.Store(int32(len(a.watched)))
	a.mu.Unlock()
	return key, nil
}

// forget stops waiting for the answer to a request that failed.
func (a *answerTap) forget(key string) {
	if a == nil || key == "" {
		return
	}
	a.mu.Lock()
	delete(a.watched, key)
	a.n.Store(int32(len(a.watched)))
	a.mu.Unlock()
}

// forgetCall stops waiting for the answer to the call with progress token
// token, which its caller no longer waits for (cancelled, or answered
// where the tap did not see it): else the tap would stay active, reading
// every stream, for the connection's life.
func (a *answerTap) forgetCall(token string) {
	if a == nil {
		return
	}
	a.mu.Lock()
	for key, w := range a.watched {
		if w.method == "tools/call" && w.token == token {
			delete(a.watched, key)
		}
	}
	a.n.Store(int32(len(a.watched)))
	a.mu.Unlock()
}

// received looks at one JSON-RPC message from the server (or a batch).
func (a *answerTap) received(data []byte) {
	if !a.active() {
		return
	}
	data = bytes.TrimSpace(data)
	if len(data) > 0 && data[0] == '[' {
		var batch []json.RawMessage
		if json.Unmarshal(data, &batch) == nil {
			for _, m := range batch {
				a.one(m)
			}
		}
		return
	}
	a.one(data)
}

func (a *answerTap) one(data []byte) {
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method *string         `json:"method"`
		Result json.RawMessage `json:"result"`
	}
	if json.Unmarshal(data, &msg) != nil || msg.Method != nil || len(msg.ID) == 0 {
		return
	}
	id, err := decodeID(msg.ID)
	if err != nil {
		return
	}
	key := fmt.Sprint(id.Raw())
	a.mu.Lock()
	w, ok := a.watched[key]
	delete(a.watched, key)
	a.n.Store(int32(len(a.watched)))
	a.mu.Unlock()
	if ok && len(msg.Result) > 0 {
		a.answer(w.method, w.token, msg.Result)
	}
}

// see follows a stream of server-sent events line by line, for the tap:
// an event's data lines are joined, and the event handed to the tap when
// the blank line ends it. event is the stream's own buffer, held to limit
// bytes: a longer event is not looked at (the SDK refuses it anyway).
func (a *answerTap) see(event *[]byte, line []byte, limit int) {
	s := bytes.TrimRight(line, "\r\n")
	switch {
	case len(s) == 0:
		if len(*event) > 0 {
			a.received(*event)
			if cap(*event) > keepBuffer {
				*event = nil
			} else {
				*event = (*event)[:0]
			}
		}
	case bytes.HasPrefix(s, []byte("data:")) && (a.active() || len(*event) > 0):
		d := bytes.TrimPrefix(s[len("data:"):], []byte(" "))
		if len(*event)+len(d)+1 > limit {
			*event = nil
			return
		}
		if len(*event) > 0 {
			*event = append(*event, '\n')
		}
		*event = append(*event, d...)
	}
}
