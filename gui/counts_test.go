package gui

import (
	"context"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// A server with one tool says "1 tool" in Servers, not "1 tools".
func TestServersCountOneTool(t *testing.T) {
	one := sdk.NewServer(&sdk.Implementation{Name: "one", Version: "1"}, nil)
	sdk.AddTool(one, &sdk.Tool{Name: "get-time", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *sdk.CallToolRequest, map[string]any) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "now"}}}, nil, nil
		})
	h := newHarness(t, harnessOptions{inProcess: map[string]*sdk.Server{"one": one}})
	h.ui.showServers()
	h.until("the row of one, ready", func() bool { return h.shows(h.ui.serversW.Win, "one 1") })
	if !h.shows(h.ui.serversW.Win, "1 tool") || h.shows(h.ui.serversW.Win, "1 tools") {
		t.Errorf("Servers shows %q, want \"1 tool\" for the server with one tool", h.texts(h.ui.serversW.Win))
	}
}
