package main

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// floodView is an MCP App view that, once loaded, floods its host with
// messages.
const floodView = `<!doctype html><p>a view that floods</p><script>
setTimeout(() => { for (let i = 0; i < 200000; i++) window.parent.postMessage({jsonrpc: '2.0', method: 'notifications/message', params: {level: 'info', data: i}}, '*'); }, 300);
</script>`

// addAppView adds a tool show whose view (an MCP App) misbehaves: kind
// "flood" floods its host with messages.
func addAppView(s *sdk.Server, kind string) {
	const uri = "ui://show/view.html"
	html := floodView
	s.AddTool(&sdk.Tool{Name: "show", Description: "Show something in a view", InputSchema: &jsonschema.Schema{Type: "object"},
		Meta: sdk.Meta{"ui": map[string]any{"resourceUri": uri}}},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "shown: " + kind}}}, nil
		})
	s.AddResource(&sdk.Resource{URI: uri, Name: "view", MIMEType: "text/html;profile=mcp-app"},
		func(context.Context, *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: uri, MIMEType: "text/html;profile=mcp-app", Text: html}}}, nil
		})
}
