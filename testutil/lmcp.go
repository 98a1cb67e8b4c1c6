package testutil

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// LMCP is an lmcp-style MCP server (lmcp v0.5.4 as probed in the aish
// manifest): POST /mcp with a required bearer token, one plain JSON answer per
// request with "Connection: close", GET /mcp that sends `event: endpoint` and
// closes, protocol 2025-03-26, tools.listChanged false, JSON-RPC -32601 for an
// unknown method or tool, and isError results when a tool handler fails.
//
// Written by hand on purpose: it must behave like lmcp, not like the go-sdk.
type LMCP struct {
	URL   string // http://127.0.0.1:port/mcp
	Token string

	srv *httptest.Server

	mu      sync.Mutex
	methods []string
	auths   []string
}

// LMCPTools are the tools the fake serves: echo, add, and fail (whose handler
// always fails).
var LMCPTools = []map[string]any{
	{"name": "echo", "description": "Echo the text back", "inputSchema": map[string]any{
		"type": "object", "properties": map[string]any{"text": map[string]any{"type": "string"}}, "required": []string{"text"}}},
	{"name": "add", "description": "Add two numbers", "inputSchema": map[string]any{
		"type": "object", "properties": map[string]any{"a": map[string]any{"type": "number"}, "b": map[string]any{"type": "number"}}, "required": []string{"a", "b"}}},
	{"name": "fail", "description": "Always fails", "inputSchema": map[string]any{"type": "object"}},
}

// NewLMCP starts the server; it stops when the test ends.
func NewLMCP(t testing.TB, token string) *LMCP {
	l := &LMCP{Token: token}
	l.srv = httptest.NewServer(http.HandlerFunc(l.serve))
	l.URL = l.srv.URL + "/mcp"
	t.Cleanup(l.srv.Close)
	return l
}

// Close stops the server now (a dead server, for tests of reconnection).
func (l *LMCP) Close() { l.srv.CloseClientConnections(); l.srv.Close() }

// Methods returns the JSON-RPC methods received so far, in order.
func (l *LMCP) Methods() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.methods...)
}

// Authorizations returns every Authorization header received, in order.
func (l *LMCP) Authorizations() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.auths...)
}

func (l *LMCP) serve(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Connection", "close")
	l.mu.Lock()
	l.auths = append(l.auths, r.Header.Get("Authorization"))
	l.mu.Unlock()
	if r.URL.Path != "/mcp" {
		http.NotFound(w, r)
		return
	}
	if l.Token != "" && r.Header.Get("Authorization") != "Bearer "+l.Token {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		io.WriteString(w, `{"error":"unauthorized","error_description":"missing or invalid bearer token"}`)
		return
	}
	switch r.Method {
	case http.MethodGet:
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "event: endpoint\ndata: /mcp\n\n")
		return
	case http.MethodPost:
	default:
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	var req struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			Name      string         `json:"name"`
			Arguments map[string]any `json:"arguments"`
		} `json:"params"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		writeJSON(w, map[string]any{"jsonrpc": "2.0", "id": nil, "error": map[string]any{"code": -32700, "message": "Parse error"}})
		return
	}
	l.mu.Lock()
	l.methods = append(l.methods, req.Method)
	l.mu.Unlock()
	if len(req.ID) == 0 { // a notification
		w.WriteHeader(http.StatusAccepted)
		return
	}
	reply := func(result any) {
		writeJSON(w, map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": result})
	}
	fail := func(code int, msg string) {
		writeJSON(w, map[string]any{"jsonrpc": "2.0", "id": req.ID, "error": map[string]any{"code": code, "message": msg}})
	}
	text := func(s string, isError bool) map[string]any {
		return map[string]any{"content": []any{map[string]any{"type": "text", "text": s}}, "isError": isError}
	}
	switch req.Method {
	case "initialize":
		reply(map[string]any{
			"protocolVersion": "2025-03-26",
			"capabilities":    map[string]any{"tools": map[string]any{"listChanged": false}},
			"serverInfo":      map[string]any{"name": "lmcp", "version": "0.5.4"},
		})
	case "ping":
		reply(map[string]any{})
	case "tools/list":
		reply(map[string]any{"tools": LMCPTools})
	case "tools/call":
		a := req.Params.Arguments
		switch req.Params.Name {
		case "echo":
			reply(text(fmt.Sprint(a["text"]), false))
		case "add":
			x, _ := a["a"].(float64)
			y, _ := a["b"].(float64)
			reply(text(fmt.Sprint(x+y), false))
		case "fail":
			reply(text("Error: the handler failed on purpose", true))
		default:
			fail(-32601, "Tool not found: "+req.Params.Name)
		}
	default:
		fail(-32601, "Method not found: "+req.Method)
	}
}

func writeJSON(w http.ResponseWriter, v any) {
	data, _ := json.Marshal(v)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", fmt.Sprint(len(data)))
	w.Write(data)
}
