package actors

import (
	"context"
	"slices"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/actors/conversation"
	"deckhand/config"
	"deckhand/testutil"
)

func disableTools(alias string, names ...string) func(*config.Config) {
	return func(c *config.Config) {
		if c.MCP.Servers == nil {
			c.MCP.Servers = map[string]config.Server{}
		}
		srv := c.MCP.Servers[alias]
		srv.DisabledTools = names
		c.MCP.Servers[alias] = srv
	}
}

// A disabled tool is not offered, cannot be called, and is still listed
// (as disabled) for the servers panel; enabling it again brings it back.
func TestServersDisabledToolsLeftOut(t *testing.T) {
	model := testutil.NewModelServer(t,
		calls(testutil.ToolCallSpec{ID: "c1", Name: "t__echo", Arguments: `{"text": "hi"}`}),
		answer("done"),
	)
	c := startChat(t, model, map[string]*sdk.Server{"t": testutil.NewServer("t")}, disableTools("t", "echo"), autoApprove("t.*"),
		func(c *config.Config) { c.MCP.Lazy = config.LazyNever })
	ctx, cancel := context.WithTimeout(t.Context(), wait)
	defer cancel()
	cat, err := c.sys.Catalog(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := cat.Lookup("t.echo"); ok {
		t.Error("the catalog has the disabled t.echo")
	}
	if _, ok := cat.Lookup("t.add"); !ok {
		t.Error("the catalog lacks t.add")
	}

	c.send("echo hi")
	fin := expect[*conversation.ToolCallFinished](c)
	if !fin.IsError && !fin.Refused {
		t.Errorf("the call of a disabled tool ran: %+v", fin)
	}
	expect[*conversation.RunFinished](c)
	if _, offered := c.request(0); slices.Contains(offered, "t__echo") || !slices.Contains(offered, "t__add") {
		t.Errorf("the model was offered %v", offered)
	}

	res, err := c.sys.CallTool(ctx, "t.echo", []byte(`{"text": "x"}`), nil)
	if err != nil || res.Err == nil || !strings.Contains(res.Err.Error(), "disabled") {
		t.Errorf("calling t.echo = %+v, %v; want refused as disabled", res, err)
	}

	listing, err := c.sys.ServerListing(ctx, "t")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range listing.Tools {
		names = append(names, tool.Name)
	}
	if !slices.Contains(names, "echo") || !slices.Contains(names, "add") || !listing.Disabled["echo"] || listing.Disabled["add"] {
		t.Errorf("listing = %v, disabled %v", names, listing.Disabled)
	}

	c.sys.SetDisabledTools("t", nil)
	testutil.Eventually(t, wait, func() bool {
		cat, _ := c.sys.Catalog(context.Background())
		_, ok := cat.Lookup("t.echo")
		return ok
	}, "t.echo enabled again")
}

// tool_search does not find a disabled tool.
func TestServersDisabledToolsNotSearched(t *testing.T) {
	model := testutil.NewModelServer(t,
		calls(testutil.ToolCallSpec{ID: "s1", Name: "tool_search", Arguments: `{"query": "echo the text back"}`}),
		answer("nothing"),
	)
	c := startChat(t, model, map[string]*sdk.Server{"t": testutil.NewServer("t")}, disableTools("t", "echo"),
		func(c *config.Config) { c.MCP.Lazy = config.LazyAlways })
	c.send("find echo")
	search := expect[*conversation.ToolCallFinished](c)
	if search.Tool != "local.tool_search" || strings.Contains(search.Output, "t__echo") || strings.Contains(search.Output, "t.echo") {
		t.Errorf("tool_search found the disabled tool: %+v", search)
	}
	expect[*conversation.RunFinished](c)
}
