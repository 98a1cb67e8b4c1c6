package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// floodView is an MCP App view that, once loaded, floods its host with
// messages.
const floodView = `<!doctype html><p>a view that floods</p><script>
setTimeout(() => { for (let i = 0; i < 200000; i++) window.parent.postMessage({jsonrpc: '2.0', method: 'notifications/message', params: {level: 'info', data: i}}, '*'); }, 300);
</script>`

// reportView is an MCP App view that speaks the protocol and reports to
// its server, through note (a tool for the views only), the theme it was
// initialized with and every notification its host sends it.
const reportView = `<!doctype html><p>a view that reports</p><script>
let id = 0;
const send = (method, params) => window.parent.postMessage({jsonrpc: '2.0', id: ++id, method, params}, '*');
const note = (method, params) => send('tools/call', {name: 'note', arguments: {method, params: params || {}}});
window.addEventListener('message', e => {
  const m = e.data;
  if (!m || m.jsonrpc !== '2.0') return;
  if (m.id === 1 && m.result) {
    note('initialize', {theme: m.result.hostContext.theme});
    window.parent.postMessage({jsonrpc: '2.0', method: 'ui/notifications/initialized'}, '*');
  } else if (m.method && m.method.startsWith('ui/notifications/')) {
    note(m.method, m.params);
  }
});
send('ui/initialize', {protocolVersion: '2026-01-26', appInfo: {name: 'report', version: '1'}, appCapabilities: {}});
</script>`

// addAppView adds a tool show whose view (an MCP App) is of kind: "flood"
// floods its host with messages; "report" reports what its host tells it
// through note, a tool for the views only (_meta.ui.visibility
// ["app"]), which appends each note to notes; its show {block: true}
// waits until it is cancelled.
func addAppView(s *sdk.Server, kind, notes string) {
	const uri = "ui://show/view.html"
	html := floodView
	if kind == "report" {
		html = reportView
	}
	s.AddTool(&sdk.Tool{Name: "show", Description: "Show something in a view",
		InputSchema: &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{"block": {Type: "boolean"}}},
		Meta:        sdk.Meta{"ui": map[string]any{"resourceUri": uri}}},
		func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			var args struct{ Block bool }
			json.Unmarshal(req.Params.Arguments, &args)
			if args.Block {
				<-ctx.Done()
				return nil, ctx.Err()
			}
			// Structured content and _meta too: what a view is given of
			// the result, besides the text the model gets.
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "shown: " + kind}},
				StructuredContent: map[string]any{"shown": kind}, Meta: sdk.Meta{"example.com/kind": kind}}, nil
		})
	if kind == "report" {
		var mu sync.Mutex
		s.AddTool(&sdk.Tool{Name: "note", Description: "Note what the view was told", InputSchema: &jsonschema.Schema{Type: "object"},
			Meta: sdk.Meta{"ui": map[string]any{"resourceUri": uri, "visibility": []string{"app"}}}},
			func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
				mu.Lock()
				defer mu.Unlock()
				f, err := os.OpenFile(notes, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
				if err != nil {
					return nil, err
				}
				defer f.Close()
				fmt.Fprintf(f, "%s\n", req.Params.Arguments)
				return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "noted"}}}, nil
			})
	}
	s.AddResource(&sdk.Resource{URI: uri, Name: "view", MIMEType: "text/html;profile=mcp-app"},
		func(context.Context, *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: uri, MIMEType: "text/html;profile=mcp-app", Text: html}}}, nil
		})
}
