package tools

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/testutil"
)

// azureCatalog is the benign catalog of /work/shared/toolbench/azure-mcp
// (Microsoft's Azure MCP server, 180 tools), read where it lies (it is not
// copied here): one server, each tool named by its command ("acr registry
// list" is acr_registry_list), its options as the input schema's
// properties. Where the catalog is absent it says so and returns nil.
func azureCatalog(tb testing.TB) []*sdk.Tool {
	tb.Helper()
	path := os.Getenv("DECKHAND_AZURE_MCP")
	if path == "" {
		path = "/work/shared/toolbench/azure-mcp/tools.json"
	}
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Logf("the azure-mcp catalog is not here (%v): measured without it (DECKHAND_AZURE_MCP names its tools.json)", err)
		return nil
	}
	var file struct {
		Results []struct {
			Description string `json:"description"`
			Command     string `json:"command"`
			Option      []struct {
				Name        string `json:"name"`
				Description string `json:"description"`
				Type        string `json:"type"`
				Required    *bool  `json:"required"`
			} `json:"option"`
		} `json:"results"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	var out []*sdk.Tool
	for _, r := range file.Results {
		props := map[string]any{}
		var required []string
		for _, o := range r.Option {
			name := strings.TrimLeft(o.Name, "-")
			typ := o.Type
			if typ == "" {
				typ = "string"
			}
			props[name] = map[string]any{"type": typ, "description": o.Description}
			if o.Required != nil && *o.Required {
				required = append(required, name)
			}
		}
		schema := map[string]any{"type": "object", "properties": props}
		if len(required) > 0 {
			schema["required"] = required
		}
		out = append(out, &sdk.Tool{Name: strings.ReplaceAll(r.Command, " ", "_"), Description: r.Description, InputSchema: schema})
	}
	return out
}

// npmCatalogs lists the tools of the real MCP servers under
// testutil/node_modules (server-everything, server-filesystem,
// server-memory), each started as a child process over stdio.
func npmCatalogs(t *testing.T) map[string][]*sdk.Tool {
	t.Helper()
	p := testutil.RequirePeers(t)
	dir := t.TempDir()
	servers := map[string]*exec.Cmd{
		"everything": exec.Command(p.Node, p.Everything, "stdio"),
		"filesystem": exec.Command(p.Node, p.Filesystem, dir),
		"memory":     exec.Command(p.Node, p.Memory),
	}
	servers["memory"].Env = append(os.Environ(), "MEMORY_FILE_PATH="+filepath.Join(dir, "memory.jsonl"))
	out := map[string][]*sdk.Tool{}
	for alias, cmd := range servers {
		client := sdk.NewClient(&sdk.Implementation{Name: "deckhand-test", Version: "1"}, nil)
		cs, err := client.Connect(t.Context(), &sdk.CommandTransport{Command: cmd}, nil)
		if err != nil {
			t.Fatalf("connecting %s: %v", alias, err)
		}
		for tool, err := range cs.Tools(t.Context(), nil) {
			if err != nil {
				t.Fatalf("listing the tools of %s: %v", alias, err)
			}
			out[alias] = append(out[alias], tool)
		}
		cs.Close()
	}
	return out
}
