// Package testutil holds fakes and peers for Deckhand's tests: in-process
// go-sdk MCP servers, an lmcp-style JSON-per-POST server, a stdio server
// program that can be told to crash, hang or send garbage, and the locations
// of the real npm peers (server-everything, server-filesystem, the
// conformance suite) that `make setup` installs.
//
// Helpers may be used from parallel tests: a fake belongs to the test that
// made it (most close themselves in its Cleanup), and the programs built
// for tests are built once per process and shared, behind a sync.Once.
package testutil

import (
	"context"
	"deckhand/config"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// EchoIn and friends are the argument types of the in-process server's tools.
type (
	EchoIn struct {
		Text string `json:"text" jsonschema:"the text to echo"`
	}
	AddIn struct {
		A float64 `json:"a"`
		B float64 `json:"b"`
	}
	SlowIn struct {
		MS    int `json:"ms" jsonschema:"how long to take, in milliseconds"`
		Steps int `json:"steps,omitempty" jsonschema:"progress notifications to send"`
	}
	FailIn   struct{}
	GetenvIn struct {
		Name string `json:"name"`
	}
	Weather struct {
		City  string  `json:"city"`
		TempC float64 `json:"temp_c"`
	}
)

// NewServer returns a go-sdk server with tools echo, add, slow (sleeps,
// reporting progress, honouring cancellation), fail (an isError result) and
// weather (structured content with an output schema).
func NewServer(name string) *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: name, Version: "1.0.0"}, nil)
	sdk.AddTool(s, &sdk.Tool{Name: "echo", Description: "Echo the text back", Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
		func(_ context.Context, _ *sdk.CallToolRequest, in EchoIn) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "Echo: " + in.Text}}}, nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "add", Description: "Add two numbers"},
		func(_ context.Context, _ *sdk.CallToolRequest, in AddIn) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: fmt.Sprint(in.A + in.B)}}}, nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "slow", Description: "Take a while, reporting progress"},
		func(ctx context.Context, req *sdk.CallToolRequest, in SlowIn) (*sdk.CallToolResult, any, error) {
			steps := max(in.Steps, 1)
			for i := 1; i <= steps; i++ {
				select {
				case <-ctx.Done():
					return nil, nil, ctx.Err()
				case <-time.After(time.Duration(in.MS) * time.Millisecond / time.Duration(steps)):
				}
				if tok := req.Params.GetProgressToken(); tok != nil {
					req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{
						ProgressToken: tok, Progress: float64(i), Total: float64(steps), Message: fmt.Sprintf("step %d of %d", i, steps),
					})
				}
			}
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: fmt.Sprintf("slept %dms", in.MS)}}}, nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "fail", Description: "Always fails"},
		func(context.Context, *sdk.CallToolRequest, FailIn) (*sdk.CallToolResult, any, error) {
			return nil, nil, errors.New("the tool failed on purpose")
		})
	sdk.AddTool(s, &sdk.Tool{Name: "getenv", Description: "Read an environment variable of the server's process"},
		func(_ context.Context, _ *sdk.CallToolRequest, in GetenvIn) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: in.Name + "=" + os.Getenv(in.Name)}}}, nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "weather", Description: "Current weather"},
		func(_ context.Context, _ *sdk.CallToolRequest, in EchoIn) (*sdk.CallToolResult, Weather, error) {
			return nil, Weather{City: in.Text, TempC: 21.5}, nil
		})
	return s
}

// HTTPServer serves one go-sdk server over streamable HTTP (/mcp) and legacy
// SSE (/sse).
type HTTPServer struct {
	StreamableURL string
	SSEURL        string
	srv           *httptest.Server
}

// ServeHTTP serves s until the test ends.
func ServeHTTP(t testing.TB, s *sdk.Server) *HTTPServer {
	get := func(*http.Request) *sdk.Server { return s }
	mux := http.NewServeMux()
	mux.Handle("/mcp", sdk.NewStreamableHTTPHandler(get, nil))
	mux.Handle("/sse", sdk.NewSSEHandler(get, nil))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return &HTTPServer{StreamableURL: srv.URL + "/mcp", SSEURL: srv.URL + "/sse", srv: srv}
}

// Close stops serving and cuts every open connection: the server is gone.
func (h *HTTPServer) Close() {
	h.srv.CloseClientConnections()
	h.srv.Close()
}

// StdioServer is a config entry for the stdioserver test program with args.
// A -pidfile's folder is made writable to it: it runs sandboxed.
func StdioServer(t testing.TB, args ...string) config.Server {
	srv := config.Server{Command: BuildProgram(t, "./testutil/stdioserver"), Args: args}
	for i, a := range args {
		if a == "-pidfile" && i+1 < len(args) {
			srv.Write = append(srv.Write, filepath.Dir(args[i+1]))
		}
	}
	return srv
}
