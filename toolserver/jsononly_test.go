package toolserver

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// A client that takes only JSON (Accept: application/json, or no Accept)
// gets one JSON body with the right Content-Type (Ahma's R8.2.2–R8.2.4),
// through a whole session (initialize, initialized, tools/call of a tool
// that sends progress, which it cannot take); a client that takes both
// gets the event stream as before.
func TestHTTPJSONOnlyClients(t *testing.T) {
	f := newFixture(t)
	const token = "a-token-of-at-least-32-characters-0123"
	srv := httptest.NewServer(f.srv.HTTPHandler(token))
	t.Cleanup(srv.Close)
	post := func(accept, session, body string) (*http.Response, string) {
		req, _ := http.NewRequest("POST", srv.URL, strings.NewReader(body))
		req.Host = "127.0.0.1"
		req.Header.Set("Content-Type", "application/json")
		if accept != "" {
			req.Header.Set("Accept", accept)
		}
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
		}
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp, string(data)
	}
	const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	for _, accept := range []string{"application/json", ""} {
		resp, body := post(accept, "", initialize)
		var msg struct {
			ID     int            `json:"id"`
			Result map[string]any `json:"result"`
		}
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/json" || json.Unmarshal([]byte(body), &msg) != nil || msg.ID != 1 || msg.Result["serverInfo"] == nil {
			t.Fatalf("Accept %q: %d %s\n%s", accept, resp.StatusCode, resp.Header.Get("Content-Type"), body)
		}
		session := resp.Header.Get("Mcp-Session-Id")
		if resp, body := post(accept, session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`); resp.StatusCode != http.StatusAccepted {
			t.Fatalf("initialized: %d %s", resp.StatusCode, body)
		}
		resp, body = post(accept, session, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"shell","arguments":{"command":"echo one; echo two"},"_meta":{"progressToken":"p"}}}`)
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/json" || !strings.Contains(body, `"id":2`) || !strings.Contains(body, "two") || strings.Contains(body, "notifications/progress") {
			t.Errorf("Accept %q, tools/call: %d %s\n%s", accept, resp.StatusCode, resp.Header.Get("Content-Type"), body)
		}
	}
	resp, body := post("application/json, text/event-stream", "", initialize)
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") || !strings.Contains(body, "data:") {
		t.Errorf("a client taking both: %d %s\n%s", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
}
