package mcp

import (
	"context"
	"slices"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/config"
)

// Deckhand asks a server only what its capabilities announce: a server
// with prompts and no tools is not sent tools/list (which it may refuse,
// and then would fail to connect); it connects, with no tools. One with
// tools is asked, as before.
func TestToolsListOnlyWhenAnnounced(t *testing.T) {
	for _, withTools := range []bool{false, true} {
		srv := sdk.NewServer(&sdk.Implementation{Name: "prompts-only", Version: "1"}, nil)
		srv.AddPrompt(&sdk.Prompt{Name: "hello"}, func(context.Context, *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
			return &sdk.GetPromptResult{}, nil
		})
		if withTools {
			sdk.AddTool(srv, &sdk.Tool{Name: "echo"}, func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
				return &sdk.CallToolResult{}, nil, nil
			})
		}
		var mu sync.Mutex
		var methods []string
		srv.AddReceivingMiddleware(func(next sdk.MethodHandler) sdk.MethodHandler {
			return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
				mu.Lock()
				methods = append(methods, method)
				mu.Unlock()
				return next(ctx, method, req)
			}
		})
		c, err := Dial(t.Context(), "p", config.Server{}, Options{InProcess: srv})
		if err != nil {
			t.Fatal(err)
		}
		tools, err := c.ListTools(t.Context())
		c.Close()
		mu.Lock()
		asked := slices.Contains(methods, "tools/list")
		mu.Unlock()
		if err != nil || asked != withTools || (len(tools) == 1) != withTools {
			t.Errorf("with tools %v: %d tools, err %v, tools/list asked %v (%v)", withTools, len(tools), err, asked, methods)
		}
	}
}
