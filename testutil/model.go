package testutil

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/tools/txtar"
)

// ModelResponse is one scripted answer of the fake model server.
type ModelResponse struct {
	Status int               // default 200
	Header map[string]string // default Content-Type: text/event-stream
	Body   string
	// Cut, when set, drops the connection after the body, without ending
	// the response properly: a server that died mid-stream.
	Cut bool
	// Hangup, when set, closes the connection without answering at all:
	// no status line, as an overloaded server or a proxy may.
	Hangup bool
	// Delay waits before answering.
	Delay time.Duration
	// Pace, when set, sends the body one SSE event at a time with this
	// pause between events: a model generating slowly.
	Pace time.Duration
}

// Script is a transcript: the answers to give, in order, and the golden
// expectation a test compares against.
type Script struct {
	Comment   string
	Responses []ModelResponse
	Want      string // the "want" file, if any
	Path      string
}

// LoadScript reads a txtar transcript. Files named "response N" hold one
// answer each: optional "Header: value" lines (Status: 429, Cut: true, Hangup: true,
// Delay: 50ms, or any HTTP header), a blank line, then the body as sent.
// A file named "want" holds the golden result.
func LoadScript(t testing.TB, path string) *Script {
	t.Helper()
	ar, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := &Script{Comment: string(ar.Comment), Path: path}
	for _, f := range ar.Files {
		switch {
		case f.Name == "want":
			s.Want = string(f.Data)
		case strings.HasPrefix(f.Name, "response"):
			s.Responses = append(s.Responses, parseResponse(t, path, f.Name, string(f.Data)))
		default:
			t.Fatalf("%s: unknown section %q", path, f.Name)
		}
	}
	return s
}

func parseResponse(t testing.TB, path, name, text string) ModelResponse {
	r := ModelResponse{Status: 200, Header: map[string]string{}}
	head, body, found := strings.Cut(text, "\n\n")
	if !found {
		t.Fatalf("%s: %s: want header lines, a blank line, then the body", path, name)
	}
	for _, line := range strings.Split(head, "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			t.Fatalf("%s: %s: bad header line %q", path, name, line)
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		switch strings.ToLower(k) {
		case "status":
			r.Status, _ = strconv.Atoi(v)
		case "cut":
			r.Cut = v == "true"
		case "hangup":
			r.Hangup = v == "true"
		case "delay":
			r.Delay, _ = time.ParseDuration(v)
		case "pace":
			r.Pace, _ = time.ParseDuration(v)
		default:
			r.Header[k] = v
		}
	}
	r.Body = body
	return r
}

// UpdateWant rewrites the script's "want" section.
func (s *Script) UpdateWant(t testing.TB, want string) {
	t.Helper()
	ar, err := txtar.ParseFile(s.Path)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for i := range ar.Files {
		if ar.Files[i].Name == "want" {
			ar.Files[i].Data = []byte(want)
			found = true
		}
	}
	if !found {
		ar.Files = append(ar.Files, txtar.File{Name: "want", Data: []byte(want)})
	}
	if err := os.WriteFile(s.Path, txtar.Format(ar), 0o644); err != nil {
		t.Fatal(err)
	}
}

// ModelServer is a scripted OpenAI-compatible server: POST
// /v1/chat/completions (or Anthropic's /v1/messages: the script says what
// is sent) answers with the scripted responses in order, and
// every request body is kept. When the script runs out, it answers with
// Fallback if set, else 500.
type ModelServer struct {
	URL string // the base URL, ending in /v1

	mu        sync.Mutex
	responses []ModelResponse
	requests  []json.RawMessage
	headers   []http.Header
	timings   []Timing
	// Fallback, if set, answers requests after the script is used up.
	Fallback func(req map[string]any) ModelResponse
	// Always, if set (and Fallback is not), answers every request after the
	// script without reading it: a benchmark's model, whose own garbage
	// should not weigh on the process it measures.
	Always  *ModelResponse
	models  []string // SetModels
	arrived chan struct{}
	key     string // RequireKey
	refused int    // requests refused for want of the key
}

// NewModelServer serves responses until the test ends.
func NewModelServer(t testing.TB, responses ...ModelResponse) *ModelServer {
	m := &ModelServer{responses: responses, arrived: make(chan struct{}, 1000)}
	srv := httptest.NewServer(http.HandlerFunc(m.serve))
	t.Cleanup(srv.Close)
	m.URL = srv.URL + "/v1"
	return m
}

// Timing says when a request's body had arrived and when its answer had been
// written in full.
type Timing struct{ Arrived, Answered time.Time }

// Timings returns the timings of the requests so far, in order.
func (m *ModelServer) Timings() []Timing { return m.TimingsFrom(0) }

// TimingsFrom returns the timings of the requests from the i-th on.
func (m *ModelServer) TimingsFrom(i int) []Timing {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]Timing(nil), m.timings[min(i, len(m.timings)):]...)
}

// Count is the number of requests so far.
func (m *ModelServer) Count() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.timings)
}

// Requests returns the request bodies received so far.
func (m *ModelServer) Requests() []json.RawMessage {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]json.RawMessage(nil), m.requests...)
}

// Headers returns the request headers received so far.
func (m *ModelServer) Headers() []http.Header {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]http.Header(nil), m.headers...)
}

// Arrived receives a value per request, when its body has been read.
func (m *ModelServer) Arrived() <-chan struct{} { return m.arrived }

// Add appends responses to the script.
func (m *ModelServer) Add(responses ...ModelResponse) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.responses = append(m.responses, responses...)
}

// RequireKey makes the server refuse (401) every request that does not
// send key as its bearer token, as a hosted model does; a refused request
// uses no scripted response and is counted by Refused, not kept.
func (m *ModelServer) RequireKey(key string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.key = key
}

// Refused is the number of requests refused for want of the key.
func (m *ModelServer) Refused() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.refused
}

// SetModels makes GET /models list these.
func (m *ModelServer) SetModels(ids ...string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.models = ids
}

func (m *ModelServer) serve(w http.ResponseWriter, r *http.Request) {
	m.mu.Lock()
	models, key := m.models, m.key
	if key != "" && r.Header.Get("Authorization") != "Bearer "+key {
		m.refused++
		m.mu.Unlock()
		http.Error(w, `{"error":{"message":"Incorrect API key provided"}}`, http.StatusUnauthorized)
		return
	}
	m.mu.Unlock()
	if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/models") && models != nil {
		var list struct {
			Data []map[string]string `json:"data"`
		}
		for _, id := range models {
			list.Data = append(list.Data, map[string]string{"id": id, "object": "model"})
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(list)
		return
	}
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/chat/completions") && !strings.HasSuffix(r.URL.Path, "/messages") {
		http.Error(w, `{"error":{"message":"not found"}}`, http.StatusNotFound)
		return
	}
	body, _ := io.ReadAll(r.Body)
	arrived := time.Now()
	m.mu.Lock()
	index := len(m.requests)
	m.timings = append(m.timings, Timing{Arrived: arrived})
	m.requests = append(m.requests, body)
	m.headers = append(m.headers, r.Header.Clone())
	var resp ModelResponse
	switch {
	case len(m.responses) > 0:
		resp, m.responses = m.responses[0], m.responses[1:]
	case m.Fallback != nil:
		var req map[string]any
		json.Unmarshal(body, &req)
		resp = m.Fallback(req)
	case m.Always != nil:
		resp = *m.Always
	default:
		resp = ModelResponse{Status: 500, Body: `{"error":{"message":"the script has no more responses"}}`}
	}
	m.mu.Unlock()
	select {
	case m.arrived <- struct{}{}:
	default: // nobody is counting
	}

	if resp.Delay > 0 {
		select {
		case <-time.After(resp.Delay):
		case <-r.Context().Done():
			return
		}
	}
	if resp.Hangup {
		if conn, _, err := w.(http.Hijacker).Hijack(); err == nil {
			conn.Close()
		}
		return
	}
	if resp.Cut {
		cut(w, resp)
		return
	}
	if _, ok := resp.Header["Content-Type"]; !ok {
		w.Header().Set("Content-Type", "text/event-stream")
	}
	for k, v := range resp.Header {
		w.Header().Set(k, v)
	}
	status := resp.Status
	if status == 0 {
		status = 200
	}
	w.WriteHeader(status)
	if resp.Pace > 0 {
		for _, event := range strings.SplitAfter(resp.Body, "\n\n") {
			io.WriteString(w, event)
			w.(http.Flusher).Flush()
			select {
			case <-time.After(resp.Pace):
			case <-r.Context().Done():
				return
			}
		}
	} else {
		io.WriteString(w, resp.Body)
	}
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
	m.mu.Lock()
	m.timings[index].Answered = time.Now()
	m.mu.Unlock()
}

// cut writes a chunked SSE response and drops the connection before its end.
func cut(w http.ResponseWriter, resp ModelResponse) {
	conn, _, err := w.(http.Hijacker).Hijack()
	if err != nil {
		return
	}
	defer conn.Close()
	fmt.Fprintf(conn, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n")
	fmt.Fprintf(conn, "%x\r\n%s\r\n", len(resp.Body), resp.Body)
}

// SSE renders chunks as an SSE body ending with [DONE]: each value is
// marshalled as one data event.
func SSE(chunks ...any) string {
	var b strings.Builder
	for _, c := range chunks {
		data, err := json.Marshal(c)
		if err != nil {
			panic(err)
		}
		fmt.Fprintf(&b, "data: %s\n\n", data)
	}
	b.WriteString("data: [DONE]\n\n")
	return b.String()
}

// TextChunks is a streamed answer of text, one chunk per piece, then a stop.
func TextChunks(pieces ...string) string {
	var chunks []any
	for i, p := range pieces {
		delta := map[string]any{"content": p}
		if i == 0 {
			delta["role"] = "assistant"
		}
		chunks = append(chunks, chunkOf(delta, nil))
	}
	stop := "stop"
	chunks = append(chunks, chunkOf(map[string]any{}, &stop), usageChunk(10, len(pieces)))
	return SSE(chunks...)
}

// ToolCallChunks is a streamed answer calling tools: each call's arguments
// are split in two fragments.
func ToolCallChunks(calls ...ToolCallSpec) string {
	var chunks []any
	for i, c := range calls {
		half := len(c.Arguments) / 2
		chunks = append(chunks,
			chunkOf(map[string]any{"tool_calls": []any{map[string]any{"index": i, "id": c.ID, "type": "function",
				"function": map[string]any{"name": c.Name, "arguments": c.Arguments[:half]}}}}, nil),
			chunkOf(map[string]any{"tool_calls": []any{map[string]any{"index": i,
				"function": map[string]any{"arguments": c.Arguments[half:]}}}}, nil))
	}
	reason := "tool_calls"
	chunks = append(chunks, chunkOf(map[string]any{}, &reason), usageChunk(20, 10))
	return SSE(chunks...)
}

// ToolCallSpec describes one call for ToolCallChunks.
type ToolCallSpec struct{ ID, Name, Arguments string }

func chunkOf(delta map[string]any, finish *string) map[string]any {
	var fr any
	if finish != nil {
		fr = *finish
	}
	return map[string]any{
		"id": "chatcmpl-test", "object": "chat.completion.chunk", "created": 1700000000, "model": "scripted",
		"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": fr}},
	}
}

func usageChunk(prompt, completion int) map[string]any {
	return map[string]any{
		"id": "chatcmpl-test", "object": "chat.completion.chunk", "created": 1700000000, "model": "scripted", "choices": []any{},
		"usage": map[string]any{"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion},
	}
}
