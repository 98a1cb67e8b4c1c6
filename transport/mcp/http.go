package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"

	"deckhand/redact"
	"deckhand/transport/errbody"
)

// httpTransport is the RoundTripper under every HTTP connection. It adds the
// bearer token, remembers why requests failed (for clear errors), notices a
// server that died, and recognises servers that answer each POST with plain
// JSON and have no stream to offer.
type httpTransport struct {
	base   http.RoundTripper
	token  string
	redact redact.Secrets
	known  *redact.Set // more to remove: the sign-in's tokens as they come; may be nil
	limit  int         // bytes in one message; MaxMessageBytes when 0
	// dropped notes a message over the limit; may be nil.
	dropped func(*FrameError)
	// allowHost says whether a host may be reached (policy.net); nil: any.
	allowHost   func(host string) bool
	refusedHost func(host string) // notes a refusal; may be nil

	// tap, if set, sees the answers to some of the SDK's requests
	// (tap.go).
	tap *answerTap

	// plain is set once the server showed it answers POSTs with plain JSON
	// and has no server-to-client stream (lmcp).
	plain atomic.Bool

	mu          sync.Mutex
	lastRefusal *HTTPError // the last response with status >= 400
	lastErr     error      // the last request that got no response at all
	onDead      func(error)
}

var _ http.RoundTripper = (*httpTransport)(nil)

// secrets are those removed from what the transport says of a failure.
func (t *httpTransport) secrets() redact.Secrets { return t.redact.Join(t.known.Get()) }

func (t *httpTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if t.allowHost != nil && !t.allowHost(req.URL.Hostname()) {
		// A redirect, or a legacy SSE endpoint, pointing elsewhere: the
		// token would go with it.
		err := fmt.Errorf("%s %s refused: %s is not the server's host, nor in policy.net.allow_domains", req.Method, redactedURL(req.URL), req.URL.Hostname())
		t.mu.Lock()
		t.lastErr = err
		t.mu.Unlock()
		if t.refusedHost != nil {
			t.refusedHost(req.URL.Hostname())
		}
		return nil, err
	}
	if t.token != "" {
		req = req.Clone(req.Context()) // a RoundTripper must not modify its request
		req.Header.Set("Authorization", "Bearer "+t.token)
	}
	var watched string
	if req.Method == http.MethodPost {
		var err error
		if watched, err = t.tap.sent(req); err != nil {
			return nil, err
		}
	}
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		t.tap.forget(watched)
		err = t.secrets().Error(err)
		t.mu.Lock()
		t.lastErr = err
		onDead := t.onDead
		t.mu.Unlock()
		if onDead != nil && isUnreachable(err) {
			onDead(err)
		}
		return nil, err
	}
	if resp.StatusCode >= 400 {
		t.tap.forget(watched)
		t.recordRefusal(req, resp)
		return resp, nil
	}
	ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if req.Method == http.MethodPost && resp.StatusCode == http.StatusOK && ct != "application/json" && ct != "text/event-stream" {
		// Not MCP (a web page, say). The SDK fails the request too, but
		// what reaches the caller of the handshake may be only that the
		// connection closed; this keeps the reason.
		head := peek(resp)
		err := fmt.Errorf("POST %s: unsupported content type %q (is this an MCP endpoint?): %s",
			redactedURL(req.URL), ct, t.secrets().String(errbody.Summary(head)))
		t.mu.Lock()
		t.lastErr = err
		t.mu.Unlock()
		return resp, nil
	}
	switch {
	case req.Method == http.MethodPost && ct == "application/json" && resp.Close && resp.Header.Get("Mcp-Session-Id") == "":
		// A sessionless server that closes the connection after each JSON
		// answer: the lmcp style.
		t.plain.Store(true)
	case req.Method == http.MethodGet && ct == "text/event-stream":
		resp.Body = &endpointSniffer{body: resp.Body, ctx: req.Context(), onPlain: func() { t.plain.Store(true) }}
	}
	return t.bound(req, resp, ct)
}

// bound keeps each message of a response under the limit for one message
// (see frameGuard): an event stream is read through a guard, and a JSON
// answer to a POST is read whole up to the limit and, if longer, replaced
// by an error answer to the request, so that the session goes on.
func (t *httpTransport) bound(req *http.Request, resp *http.Response, ct string) (*http.Response, error) {
	limit := t.limit
	if limit <= 0 {
		limit = MaxMessageBytes
	}
	var id any
	if req.Method == http.MethodPost {
		id = requestID(req)
	}
	switch {
	case ct == "text/event-stream":
		g := newFrameGuard(resp.Body, limit)
		g.sse, g.request = true, id
		g.dropped = t.dropped
		g.tap = t.tap
		resp.Body = struct {
			io.Reader
			io.Closer
		}{g, resp.Body}
	case ct == "application/json" && req.Method == http.MethodPost && resp.StatusCode < 300:
		body, err := io.ReadAll(io.LimitReader(resp.Body, int64(limit)+1))
		if err != nil {
			resp.Body.Close()
			return nil, err
		}
		if len(body) > limit {
			size := int64(len(body))
			n, _ := io.Copy(io.Discard, io.LimitReader(resp.Body, maxDiscard))
			size += n
			fe := &FrameError{Size: size, Limit: limit, Reason: "Deckhand dropped it and the connection stays up"}
			if t.dropped != nil {
				t.dropped(fe)
			}
			if id == nil {
				resp.Body.Close()
				return nil, fe
			}
			body, _ = json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": -32603, "message": fe.Error()}})
			resp.ContentLength = int64(len(body))
			resp.Header.Del("Content-Length")
		}
		resp.Body.Close()
		resp.Body = io.NopCloser(bytes.NewReader(body))
		t.tap.received(body)
	}
	return resp, nil
}

// requestID is the JSON-RPC id of the request in a POST's body, or nil.
func requestID(req *http.Request) any {
	if req.GetBody == nil {
		return nil
	}
	body, err := req.GetBody()
	if err != nil {
		return nil
	}
	defer body.Close()
	var msg struct {
		ID json.RawMessage `json:"id"`
	}
	if json.NewDecoder(io.LimitReader(body, 1<<20)).Decode(&msg) != nil || len(msg.ID) == 0 {
		return nil
	}
	var s idScanner
	s.feed([]byte(`{"id":`))
	s.feed(msg.ID)
	s.feed([]byte(`}`))
	return s.id()
}

// recordRefusal keeps the status and a body excerpt of a failed response,
// and puts the bytes it read back so the SDK sees the whole body.
func (t *httpTransport) recordRefusal(req *http.Request, resp *http.Response) {
	head := peek(resp)
	refusal := &HTTPError{
		Method: req.Method,
		URL:    redactedURL(req.URL),
		Status: resp.StatusCode,
		Body:   t.secrets().String(errbody.Summary(head)),
	}
	t.mu.Lock()
	t.lastRefusal = refusal
	t.mu.Unlock()
}

// peek reads the start of a response's body and puts it back, so the SDK
// still sees the whole body.
func peek(resp *http.Response) []byte {
	head, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	resp.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(head), resp.Body), resp.Body}
	return head
}

// failure explains why connecting failed, from what the transport saw.
func (t *httpTransport) failure() (refusal *HTTPError, err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.lastRefusal, t.lastErr
}

func (t *httpTransport) resetFailure() {
	t.mu.Lock()
	t.lastRefusal, t.lastErr = nil, nil
	t.mu.Unlock()
}

func (t *httpTransport) setOnDead(f func(error)) {
	t.mu.Lock()
	t.onDead = f
	t.mu.Unlock()
}

// isUnreachable reports whether err means the server is not there at all:
// no listener, no route, no such host. Timeouts and cancellations are not.
func isUnreachable(err error) bool {
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		return true
	}
	var dns *net.DNSError
	return errors.As(err, &dns) && !dns.IsTimeout
}

func redactedURL(u *url.URL) string {
	c := *u
	if q := c.Query(); len(q) > 0 {
		for k := range q {
			q.Set(k, "xxxxx")
		}
		c.RawQuery = q.Encode()
	}
	return c.Redacted()
}

// endpointSniffer watches the first event of the standalone GET stream. A
// server that sends `event: endpoint` and closes is announcing where to POST
// (lmcp, and the legacy SSE transport's first event), not offering a stream
// of server messages. Left alone, the SDK would treat the close as a broken
// stream and eventually fail the session; instead the stream is held open,
// quietly, until the connection is closed.
type endpointSniffer struct {
	body    io.ReadCloser
	ctx     context.Context
	onPlain func()
	head    []byte
	held    bool
}

func (s *endpointSniffer) Read(p []byte) (int, error) {
	if s.held {
		<-s.ctx.Done()
		return 0, s.ctx.Err()
	}
	n, err := s.body.Read(p)
	if len(s.head) < 1024 {
		s.head = append(s.head, p[:min(n, 1024-len(s.head))]...)
	}
	if errors.Is(err, io.EOF) && firstEventIsEndpoint(s.head) {
		s.onPlain()
		s.held = true
		if n > 0 {
			return n, nil
		}
		<-s.ctx.Done()
		return 0, s.ctx.Err()
	}
	return n, err
}

func (s *endpointSniffer) Close() error { return s.body.Close() }

// firstEventIsEndpoint reports whether the first event in an SSE stream's
// opening bytes is named "endpoint".
func firstEventIsEndpoint(head []byte) bool {
	text := strings.ReplaceAll(string(head), "\r\n", "\n")
	started := false
	for line := range strings.SplitSeq(text, "\n") {
		switch {
		case line == "" && started:
			return false // the first event ended without a name
		case line == "", strings.HasPrefix(line, ":"):
			continue // blank lines before the first event, and comments
		}
		started = true
		field, value, _ := strings.Cut(line, ":")
		if field == "event" {
			return strings.TrimPrefix(value, " ") == "endpoint"
		}
	}
	return false
}
