package mcp

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/config"
	"deckhand/testutil"
)

type mib struct {
	MiB int `json:"mib"`
}

func bigServer() *sdk.Server {
	s := testutil.NewServer("big")
	sdk.AddTool(s, &sdk.Tool{Name: "big", Description: "Return mib MiB"},
		func(_ context.Context, _ *sdk.CallToolRequest, in mib) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: strings.Repeat("x", in.MiB<<20)}}}, nil, nil
		})
	return s
}

// Over HTTP too, a 50 MiB answer fails its call with the reason and the
// session goes on: streamable with event streams or JSON answers, and the
// legacy SSE transport.
func TestOversizedOverHTTP(t *testing.T) {
	s := bigServer()
	get := func(*http.Request) *sdk.Server { return s }
	mux := http.NewServeMux()
	mux.Handle("/stream", sdk.NewStreamableHTTPHandler(get, nil))
	mux.Handle("/json", sdk.NewStreamableHTTPHandler(get, &sdk.StreamableHTTPOptions{JSONResponse: true}))
	mux.Handle("/sse", sdk.NewSSEHandler(get, nil))
	h := httptest.NewServer(mux)
	t.Cleanup(h.Close)
	for _, srv := range []config.Server{
		{URL: h.URL + "/stream", Transport: "streamable"},
		{URL: h.URL + "/json", Transport: "streamable"},
		{URL: h.URL + "/sse", Transport: "sse"},
	} {
		t.Run(srv.URL[len(h.URL)+1:], func(t *testing.T) {
			c := dial(t, srv, Options{})
			_, err := c.CallTool(t.Context(), "big", map[string]any{"mib": 50}, nil)
			if err == nil || !strings.Contains(err.Error(), "50.0 MiB, over the 16.0 MiB one message may have") {
				t.Errorf("50 MiB: %v, want its size and the limit", err)
			}
			if got := callText(t, c, "echo", map[string]any{"text": "after"}); got != "Echo: after" {
				t.Errorf("then echo = %q", got)
			}
			if got := callText(t, c, "big", map[string]any{"mib": 1}); len(got) != 1<<20 {
				t.Errorf("1 MiB came back as %d bytes", len(got))
			}
		})
	}
}
