package toolserver

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"deckhand/testutil"
)

// tools serve --http --echo (Ahma's R8.3): each message a client posts and
// each the server answers is written pretty-printed with two-space indents
// after "→ STDIN:" or "← STDOUT:"; a body that is not JSON as it is; the
// bearer token never.
func TestHTTPEcho(t *testing.T) {
	var out testutil.LockedBuffer
	f := newFixture(t, func(o *Options) { o.Echo = &out })
	const token = "a-token-of-at-least-32-characters-0123"
	srv := httptest.NewServer(f.srv.HTTPHandler(token))
	t.Cleanup(srv.Close)
	post := func(body string) int {
		req, _ := http.NewRequest("POST", srv.URL, strings.NewReader(body))
		req.Host = "127.0.0.1"
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		buf := make([]byte, 64<<10)
		for {
			if _, err := resp.Body.Read(buf); err != nil {
				break
			}
		}
		return resp.StatusCode
	}
	if code := post(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`); code != http.StatusOK {
		t.Fatalf("initialize: %d", code)
	}
	post("not json at all")
	got := out.String()
	for _, want := range []string{
		"→ STDIN: {\n  \"jsonrpc\": \"2.0\",\n  \"id\": 1,\n  \"method\": \"initialize\",",
		"← STDOUT: {\n  \"jsonrpc\": \"2.0\",\n  \"id\": 1,\n  \"result\": {",
		"→ STDIN: not json at all\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the echo lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, token) || strings.Contains(got, "\x1b[") {
		t.Errorf("the echo shows the token or colours a non-terminal:\n%s", got)
	}
}
