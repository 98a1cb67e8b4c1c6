package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"time"
)

// request is one request a host made to the model, as the recorder saw it.
type request struct {
	at    time.Duration // since the host was started
	path  string
	bytes int // the body as sent, byte for byte
	tools int // entries in its "tools" field
}

// recorder sits between the hosts and aimock: it passes every request on
// unchanged (streams flushed as they come) and notes when it came and how
// big its body was. aimock's own journal re-encodes the bodies it parsed,
// so the recorder is what gives exact sizes and times. One run at a time.
type recorder struct {
	proxy *httputil.ReverseProxy

	mu    sync.Mutex
	start time.Time
	reqs  []request
	hook  func() // run once, before the run's first model request carrying tools goes on
}

func newRecorder(target *url.URL) *recorder {
	p := httputil.NewSingleHostReverseProxy(target)
	p.FlushInterval = -1
	return &recorder{proxy: p}
}

// reset starts a new run's record.
func (r *recorder) reset(start time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.start, r.reqs, r.hook = start, nil, nil
}

// onFirstToolsRequest sets a function that holds the run's first model
// request carrying tools while it runs (the process tree is sampled then:
// every server is up and the answer is being asked for). A request without
// tools (crush's title request) goes on: the hold weighs on every host's
// first request with tools alike.
func (r *recorder) onFirstToolsRequest(f func()) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.hook = f
}

func (r *recorder) requests() []request {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]request(nil), r.reqs...)
}

// modelRequests are the chat requests (OpenAI chat completions or
// responses, Anthropic messages) of the run, in order.
func (r *recorder) modelRequests() []request {
	var out []request
	for _, q := range r.requests() {
		if isModelPath(q.path) {
			out = append(out, q)
		}
	}
	return out
}

// firstWithTools is the first model request that carries tools: a host's
// first request for the measures (one without tools, such as crush's
// title request, is not).
func firstWithTools(reqs []request) (request, bool) {
	for _, q := range reqs {
		if isModelPath(q.path) && q.tools > 0 {
			return q, true
		}
	}
	return request{}, false
}

func isModelPath(p string) bool {
	return strings.HasSuffix(p, "/chat/completions") || strings.HasSuffix(p, "/responses") || strings.HasSuffix(p, "/messages")
}

func (r *recorder) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, err := io.ReadAll(req.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var parsed struct {
		Tools []json.RawMessage `json:"tools"`
	}
	json.Unmarshal(body, &parsed)

	r.mu.Lock()
	r.reqs = append(r.reqs, request{at: time.Since(r.start), path: req.URL.Path, bytes: len(body), tools: len(parsed.Tools)})
	var hook func()
	if isModelPath(req.URL.Path) && len(parsed.Tools) > 0 {
		hook, r.hook = r.hook, nil
	}
	r.mu.Unlock()
	if hook != nil {
		hook()
	}

	req.Body = io.NopCloser(bytes.NewReader(body))
	req.ContentLength = int64(len(body))
	r.proxy.ServeHTTP(w, req)
}
