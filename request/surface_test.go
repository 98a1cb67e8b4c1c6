package request

import (
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"path/filepath"
	"slices"
	"strings"
	"testing"

	"deckhand/config"
	"deckhand/testutil"
	"deckhand/tools"
	"deckhand/transport/llm"
)

// catalogOf is the catalog of the big test catalog's servers (500 tools
// over 31 servers).
func catalogOf(t testing.TB) *tools.Catalog {
	t.Helper()
	src := map[string]tools.Source{}
	for alias, list := range testutil.LoadCatalog(t, filepath.Join(testutil.ModuleRoot(t), "tools", "testdata", "catalog")) {
		src[alias] = tools.Source{Tools: list}
	}
	return tools.NewCatalog(src)
}

func TestPlanSurface(t *testing.T) {
	cat := catalogOf(t)
	yes, no := true, false
	tests := []struct {
		name     string
		cfg      func(*config.Config)
		lazy     int // how many tools are lazy
		eagerHas string
		lazyHas  string
		indexHas string
		noneLazy bool
	}{
		{name: "auto, a large catalog", cfg: func(*config.Config) {}, lazy: cat.Len(), indexHas: "- gcal (14 tools): create_calendar, create_event"},
		{name: "auto, a huge budget", cfg: func(c *config.Config) { c.Model.MaxContextTokens = 10_000_000 }, noneLazy: true},
		{name: "never", cfg: func(c *config.Config) { c.MCP.Lazy = config.LazyNever }, noneLazy: true},
		{name: "never, but one server lazy", cfg: func(c *config.Config) {
			c.MCP.Lazy = config.LazyNever
			c.MCP.Servers = map[string]config.Server{"aws": {URL: "http://x/mcp", Lazy: &yes}}
		}, lazy: 36, lazyHas: "aws.s3_list_buckets", eagerHas: "git__status"},
		{name: "always, but one server eager", cfg: func(c *config.Config) {
			c.MCP.Lazy = config.LazyAlways
			c.MCP.Servers = map[string]config.Server{"git": {Command: "git-mcp", Lazy: &no}}
		}, lazy: cat.Len() - 25, eagerHas: "git__status", lazyHas: "github.create_issue"},
		{name: "eager tools and servers", cfg: func(c *config.Config) {
			c.MCP.Lazy = config.LazyAlways
			c.MCP.Eager = []string{"github.create_issue", "weather.*"}
		}, lazy: cat.Len() - 6, eagerHas: "weather__get_forecast", lazyHas: "github.get_issue"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := &config.Config{}
			tt.cfg(cfg)
			cfg.ApplyDefaults()
			s := Plan(cat, cfg)
			if tt.noneLazy {
				if len(s.Lazy) != 0 || s.Index != "" || len(s.Tools(nil)) != cat.Len() {
					t.Errorf("%d lazy tools, %d sent; want none lazy, all sent", len(s.Lazy), len(s.Tools(nil)))
				}
				return
			}
			if len(s.Lazy) != tt.lazy {
				t.Errorf("%d lazy tools, want %d", len(s.Lazy), tt.lazy)
			}
			sent := s.Tools(nil)
			if sent[0].Name != ToolSearchName {
				t.Errorf("the tools field starts with %s, want tool_search", sent[0].Name)
			}
			if tt.eagerHas != "" && !slices.ContainsFunc(sent, func(x llm.Tool) bool { return x.Name == tt.eagerHas }) {
				t.Errorf("%s is not sent", tt.eagerHas)
			}
			if tt.lazyHas != "" && !s.Lazy[tt.lazyHas] {
				t.Errorf("%s is not lazy", tt.lazyHas)
			}
			if tt.indexHas != "" && !strings.Contains(s.Index, tt.indexHas) {
				t.Errorf("index lacks %q:\n%s", tt.indexHas, s.Index)
			}
			loaded := s.Tools(map[string]bool{tt.lazyHas: true})
			if tt.lazyHas != "" && len(loaded) != len(sent)+1 {
				t.Errorf("loading %s sends %d tools, want %d", tt.lazyHas, len(loaded), len(sent)+1)
			}
		})
	}
}

// A server whose first tool has a 128-character name (the spec's longest)
// gets an index line; planning does not panic.
func TestServerIndexLongNames(t *testing.T) {
	long := strings.Repeat("n", 128)
	cat := tools.NewCatalog(map[string]tools.Source{"odd": {Tools: []*sdk.Tool{{Name: long}, {Name: "short"}}}})
	cfg := &config.Config{}
	cfg.MCP.Lazy = config.LazyAlways
	cfg.ApplyDefaults()
	s := Plan(cat, cfg)
	if !strings.HasPrefix(s.Index, "- odd (2 tools): nnn") || len(s.Index) > 142 {
		t.Errorf("index = %q", s.Index)
	}
}
