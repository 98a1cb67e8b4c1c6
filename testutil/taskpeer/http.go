package taskpeer

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// Handler serves the peer over streamable HTTP, written by hand since the
// go-sdk's server refuses methods it does not know: each request a POST
// carries is answered on an event stream of its own (or, with JSON, as
// application/json), after the questions the peer asks while answering it
// (tasks/result in Input mode); the client's answers and notifications get
// 202. initialize starts a session (Mcp-Session-Id); every later POST must
// name a live one and carry Mcp-Protocol-Version, or is refused (404,
// 400). GET has no stream (405). Tasks outlive sessions, as a server's
// store does: a client that connects again finds them. Plain serves
// without sessions.
//
// Handler is called once per Peer, which then serves nothing else.
func (p *Peer) Handler() http.Handler {
	p.mu.Lock()
	p.answered, p.polled, p.state, p.topics = map[string]chan json.RawMessage{}, map[string]int{}, map[string]string{}, map[string]string{}
	p.sessions, p.inflight = map[string]bool{}, map[string]context.CancelFunc{}
	p.mu.Unlock()
	return http.HandlerFunc(p.serveHTTP)
}

// ForgetSessions ends every HTTP session, as a server that restarted
// would, keeping its tasks: each later POST of a session is refused (404).
func (p *Peer) ForgetSessions() {
	p.mu.Lock()
	clear(p.sessions)
	p.mu.Unlock()
}

// Sessions is how many sessions initialize started (Handler).
func (p *Peer) Sessions() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.started
}

func (p *Peer) serveHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodPost:
	case http.MethodDelete:
		p.mu.Lock()
		delete(p.sessions, r.Header.Get("Mcp-Session-Id"))
		p.mu.Unlock()
		return
	default:
		http.Error(w, "no stream here", http.StatusMethodNotAllowed)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	msg, err := jsonrpc.DecodeMessage(body)
	if err != nil {
		http.Error(w, "not a JSON-RPC message: "+err.Error(), http.StatusBadRequest)
		return
	}
	req, _ := msg.(*jsonrpc.Request)
	session := r.Header.Get("Mcp-Session-Id")
	p.mu.Lock()
	switch {
	case p.Plain:
		w.Header().Set("Connection", "close")
		if req != nil && req.Method == "initialize" {
			p.started++
		}
	case req != nil && req.Method == "initialize":
		p.started++
		session = fmt.Sprintf("session-%d", p.started)
		p.sessions[session] = true
		w.Header().Set("Mcp-Session-Id", session)
	case !p.sessions[session]:
		p.mu.Unlock()
		http.Error(w, fmt.Sprintf("no session %q", session), http.StatusNotFound)
		return
	case r.Header.Get("Mcp-Protocol-Version") == "":
		p.mu.Unlock()
		http.Error(w, "no Mcp-Protocol-Version header", http.StatusBadRequest)
		return
	}
	p.mu.Unlock()
	if resp, ok := msg.(*jsonrpc.Response); ok {
		p.mu.Lock()
		ch := p.answered[fmt.Sprint(resp.ID.Raw())]
		p.mu.Unlock()
		if ch != nil {
			ch <- resp.Result
		}
		w.WriteHeader(http.StatusAccepted)
		return
	}
	if !req.IsCall() {
		if req.Method == "notifications/cancelled" {
			var c struct {
				RequestID any `json:"requestId"`
			}
			_ = json.Unmarshal(req.Params, &c)
			p.mu.Lock()
			if cancel := p.inflight[session+fmt.Sprint(c.RequestID)]; cancel != nil {
				cancel()
			}
			p.mu.Unlock()
		}
		w.WriteHeader(http.StatusAccepted)
		return
	}
	// The client may give up on a request (notifications/cancelled)
	// without closing its stream.
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	key := session + fmt.Sprint(req.ID.Raw())
	p.mu.Lock()
	p.inflight[key] = cancel
	p.mu.Unlock()
	defer func() {
		p.mu.Lock()
		delete(p.inflight, key)
		p.mu.Unlock()
	}()
	res, err := p.answerHTTP(ctx, w, req)
	out := &jsonrpc.Response{ID: req.ID, Error: err}
	if err == nil {
		out.Result = res
	}
	data, _ := jsonrpc.EncodeMessage(out)
	if p.JSON || p.Plain {
		w.Header().Set("Content-Type", "application/json")
		w.Write(data)
		return
	}
	fmt.Fprintf(w, "data: %s\n\n", data)
}

// answerHTTP answers one request, its stream open (unless JSON) for the
// peer's questions meanwhile.
func (p *Peer) answerHTTP(ctx context.Context, w http.ResponseWriter, req *jsonrpc.Request) ([]byte, error) {
	if !p.JSON && !p.Plain {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		http.NewResponseController(w).Flush()
		var mu sync.Mutex
		ctx = context.WithValue(ctx, sendKey{}, func(msg jsonrpc.Message) {
			data, _ := jsonrpc.EncodeMessage(msg)
			mu.Lock()
			defer mu.Unlock()
			fmt.Fprintf(w, "data: %s\n\n", data)
			http.NewResponseController(w).Flush()
		})
	}
	res, err := p.handle(ctx, req)
	if err != nil {
		return nil, err
	}
	return json.Marshal(res)
}
