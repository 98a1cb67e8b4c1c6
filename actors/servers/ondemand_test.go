package servers_test

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/actors/servers"
	"deckhand/actors/servers/serverstest"
	"deckhand/config"
	"deckhand/toolcall"
)

// A server that connects on demand waits idle with the tools of its last
// connection; the first call connects it and runs only if the server
// still offers that tool as it was checked.
func TestOnDemandFirstCall(t *testing.T) {
	object := map[string]any{"type": "object"}
	tests := []struct {
		name      string
		cached    *sdk.Tool // the last connection's
		cannot    bool      // the server will not start
		wantText  string
		wantErr   error  // errors.Is
		wantMsg   string // else the error's text
		wantState servers.State
	}{
		{name: "the same tool", cached: &sdk.Tool{Name: "echo", InputSchema: object},
			wantText: "echoed", wantState: servers.StateReady},
		{name: "redefined", cached: &sdk.Tool{Name: "echo", Description: "an older echo", InputSchema: object},
			wantErr: toolcall.ErrChanged, wantState: servers.StateReady},
		{name: "gone", cached: &sdk.Tool{Name: "shout", InputSchema: object},
			wantMsg:   `s.shout: server s connected without a tool named "shout" (it was offered from the server's last connection); the call was not made`,
			wantState: servers.StateReady},
		{name: "cannot connect", cached: &sdk.Tool{Name: "echo", InputSchema: object}, cannot: true,
			wantMsg:   "server s: connecting: starting the built-in server: no such server",
			wantState: servers.StateFailed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := sdk.NewServer(&sdk.Implementation{Name: "echo", Version: "1"}, nil)
			srv.AddTool(&sdk.Tool{Name: "echo", InputSchema: object}, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
				return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "echoed"}}}, nil
			})
			build := serverstest.InProcess(srv)
			if tt.cannot {
				build = func() (*sdk.Server, error) { return nil, errors.New("no such server") }
			}
			s := serverstest.Start(t, servers.Options{
				Servers:   map[string]config.Server{"s": {Connect: config.ConnectOnDemand}},
				InProcess: map[string]func() (*sdk.Server, error){"s": build},
				Cached:    map[string][]*sdk.Tool{"s": {tt.cached}},
			})
			idle := s.Await(t, "s", servers.StateIdle)
			if idle.Tools != 1 {
				t.Errorf("idle with %d tools, want the one cached", idle.Tools)
			}
			display := "s." + tt.cached.Name
			checked, ok := s.Router.Catalog().Lookup(display)
			if !ok {
				t.Fatalf("%s is not offered while s is idle", display)
			}
			res := s.Call(t.Context(), &servers.CallTool{ID: "c1", Tool: display, Resolved: &checked})
			var got string
			if res.Result != nil && len(res.Result.Content) == 1 {
				if text, ok := res.Result.Content[0].(*sdk.TextContent); ok {
					got = text.Text
				}
			}
			if diff := cmp.Diff(tt.wantText, got); diff != "" {
				t.Errorf("the call's text (-want +got):\n%s", diff)
			}
			switch {
			case tt.wantErr != nil:
				if !errors.Is(res.Err, tt.wantErr) {
					t.Errorf("the call's error = %v, want %v", res.Err, tt.wantErr)
				}
			case tt.wantMsg != "":
				if res.Err == nil || res.Err.Error() != tt.wantMsg {
					t.Errorf("the call's error = %v, want %q", res.Err, tt.wantMsg)
				}
			case res.Err != nil:
				t.Errorf("the call's error = %v, want none", res.Err)
			}
			serverstest.ExpectStatus(t, s.Events, "s", tt.wantState)
		})
	}
}
