package servers

import (
	"context"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/tools"
)

// What an in-process server left out reaches the catalog with its
// listing, and again when RelistTools asks: a definition newly broken
// changes no tool, so the server announces nothing.
func TestNotLoadedFollowsRelist(t *testing.T) {
	as := quietSystem(t)
	srv := sdk.NewServer(&sdk.Implementation{Name: "local", Version: "1"}, nil)
	srv.AddTool(&sdk.Tool{Name: "greet", InputSchema: map[string]any{"type": "object"}}, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return &sdk.CallToolResult{}, nil
	})
	var left atomic.Pointer[[]tools.Rejected]
	left.Store(&[]tools.Rejected{})
	sup, _, router := startInProcess(t, as, "local", srv, func(o *Options) {
		o.NotLoaded = map[string]func() []tools.Rejected{"local": func() []tools.Rejected { return *left.Load() }}
	})
	wait := func(what string, ok func(*tools.Catalog) bool) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); !ok(router.Catalog()); runtime.Gosched() {
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s: rejected %+v", what, router.Catalog().Rejected())
			}
		}
	}
	wait("greet", func(c *tools.Catalog) bool { _, ok := c.Lookup("local.greet"); return ok })
	if _, ok := router.Catalog().LeftOut("local__frob"); ok {
		t.Fatal("frob is left out before anything said so")
	}

	left.Store(&[]tools.Rejected{{Name: "frob", Reason: "frob.json: frob is not installed"}})
	as.Root.Send(sup, &RelistTools{Alias: "local"})
	wait("frob left out", func(c *tools.Catalog) bool { _, ok := c.LeftOut("local__frob"); return ok })
	r, _ := router.Catalog().LeftOut("local.frob")
	if !r.NotLoaded || r.Reason != "frob.json: frob is not installed" || r.Server != "local" {
		t.Errorf("LeftOut(local.frob) = %+v", r)
	}
}
