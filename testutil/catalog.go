package testutil

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// CatalogServers serves a catalog of tool definitions (a folder of
// tools/list answers, one JSON file per server, named after its alias, such
// as tools/testdata/catalog) from in-process go-sdk servers. Every tool
// answers "alias.tool called with ARGS".
func CatalogServers(tb testing.TB, dir string) map[string]*sdk.Server {
	tb.Helper()
	out := map[string]*sdk.Server{}
	for alias, list := range LoadCatalog(tb, dir) {
		s := sdk.NewServer(&sdk.Implementation{Name: alias, Version: "1.0.0"}, nil)
		for _, t := range list {
			display := alias + "." + t.Name
			s.AddTool(t, func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
				return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: display + " called with " + string(req.Params.Arguments)}}}, nil
			})
		}
		out[alias] = s
	}
	return out
}

// LoadCatalog reads a folder of tools/list answers, one JSON file per
// server named after its alias, and returns each server's tools.
func LoadCatalog(tb testing.TB, dir string) map[string][]*sdk.Tool {
	tb.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) == 0 {
		tb.Fatalf("no catalog in %s: %v", dir, err)
	}
	out := map[string][]*sdk.Tool{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		var list sdk.ListToolsResult
		if err := json.Unmarshal(data, &list); err != nil {
			tb.Fatalf("%s: %v", f, err)
		}
		out[strings.TrimSuffix(filepath.Base(f), ".json")] = list.Tools
	}
	return out
}
