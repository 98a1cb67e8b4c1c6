package request

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/config"
	"deckhand/testutil"
	"deckhand/tools"
	"deckhand/transport/llm"
	"deckhand/transport/mcp"
)

func TestFitContext(t *testing.T) {
	big := strings.Repeat("x", 400) // about 100 tokens
	u := func(s string) llm.Message { return llm.Message{Role: llm.RoleUser, Content: s} }
	as := func(s string) llm.Message { return llm.Message{Role: llm.RoleAssistant, Content: s} }
	call := func(id string) llm.Message {
		return llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: id, Name: "t", Arguments: big}}}
	}
	res := func(id string) llm.Message { return llm.Message{Role: llm.RoleTool, ToolCallID: id, Content: big} }
	history := []llm.Message{
		u("q1 " + big), as("a1 " + big),
		u("q2"), call("c1"), res("c1"), as("a2"),
		u("q3 " + big), call("c2"), res("c2"), call("c3"), res("c3"), as("a3"),
	}
	tests := []struct {
		name    string
		budget  int
		want    []string // the first 12 characters of each kept message, or its tool call id
		dropped int
	}{
		{"everything fits", 10000, nil, 0},
		{"the oldest turn goes first", 800, []string{"q2", "c1", "c1", "a2", "q3", "c2", "c2", "c3", "c3", "a3"}, 2},
		{"then whole turns", 650, []string{"q3", "c2", "c2", "c3", "c3", "a3"}, 6},
		{"then units inside the current turn, keeping its question", 350, []string{"q3", "c3", "c3", "a3"}, 8},
		{"the question and the latest unit always stay", 10, []string{"q3", "a3"}, 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kept, dropped := Fit(history, tt.budget)
			if tt.want == nil {
				if len(kept) != len(history) || dropped != 0 {
					t.Errorf("Fit kept %d of %d", len(kept), len(history))
				}
				return
			}
			var got []string
			for _, m := range kept {
				switch {
				case m.ToolCallID != "":
					got = append(got, m.ToolCallID)
				case len(m.ToolCalls) > 0:
					got = append(got, m.ToolCalls[0].ID)
				default:
					got = append(got, strings.Fields(m.Content)[0])
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" || dropped != tt.dropped {
				t.Errorf("Fit(budget %d) dropped %d (want %d); kept (-want +got):\n%s", tt.budget, dropped, tt.dropped, diff)
			}
			// A tool result never loses its call, nor a call its result.
			for i, m := range kept {
				if m.Role == llm.RoleTool && (i == 0 || (kept[i-1].Role != llm.RoleTool && len(kept[i-1].ToolCalls) == 0)) {
					t.Errorf("tool result %s kept without its call", m.ToolCallID)
				}
			}
		})
	}
}

func TestSystemPrompt(t *testing.T) {
	if p := System(true, ""); !strings.Contains(p, "CMD:") || len(p) > 1200 || strings.Contains(p, "tool_search") {
		t.Errorf("System(true) = %d bytes, %q", len(p), p)
	}
	if p := System(false, ""); strings.Contains(p, "CMD:") {
		t.Errorf("System(false) mentions CMD:")
	}
	if p := System(false, "- fs (3 tools): a, b, c"); !strings.Contains(p, "tool_search") || !strings.Contains(p, "- fs (3 tools): a, b, c") {
		t.Errorf("System with a lazy index = %q", p)
	}
}

func TestUsage(t *testing.T) {
	for _, tc := range []struct {
		name      string
		turn      llm.Turn
		estimate  int
		want      llm.Usage
		estimated bool
	}{
		{"the server's figures", llm.Turn{Text: "hi", Usage: &llm.Usage{PromptTokens: 10, CompletionTokens: 2, TotalTokens: 12}}, 99,
			llm.Usage{PromptTokens: 10, CompletionTokens: 2, TotalTokens: 12}, false},
		{"estimated from the text", llm.Turn{Text: "12345678"}, 50, llm.Usage{PromptTokens: 50, CompletionTokens: 2, TotalTokens: 52}, true},
		{"estimated with tool calls", llm.Turn{ToolCalls: []llm.ToolCall{{Name: "fs__read", Arguments: `{"path":"/a"}`}}}, 10,
			llm.Usage{PromptTokens: 10, CompletionTokens: 6, TotalTokens: 16}, true},
	} {
		got, estimated := Usage(tc.turn, tc.estimate)
		if got != tc.want || estimated != tc.estimated {
			t.Errorf("%s: Usage() = %+v, %v; want %+v, %v", tc.name, got, estimated, tc.want, tc.estimated)
		}
	}
}

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

// tool_search takes the lazy tool surface's input (query, domain,
// includeLoaded, limit) and answers in its shape besides the text: what was
// loaded before, each match with its status and canonical name, what is
// loaded after, and what to do next. A domain is a server; an unknown one
// is an error naming the servers.
func TestSearchSeedShape(t *testing.T) {
	cat := catalogOf(t)
	cfg := &config.Config{}
	cfg.MCP.Lazy = config.LazyAlways
	cfg.ApplyDefaults()
	s := Plan(cat, cfg)
	loaded := map[string]bool{"gcal.create_event": true}

	ans, err := Search(cat, s, loaded, []byte(`{"query":"create calendar event","domain":"gcal","limit":3}`))
	if err != nil {
		t.Fatal(err)
	}
	r := ans.Structured
	if r.Query != "create calendar event" || !slices.Equal(r.LoadedBefore, []string{"gcal.create_event"}) || len(r.Matches) == 0 || len(r.Matches) > 3 {
		t.Fatalf("result = %+v", r)
	}
	statuses := map[string]string{}
	for _, m := range r.Matches {
		if m.Domain != "gcal" || !strings.HasPrefix(m.CanonicalName, "gcal.") || !strings.HasPrefix(m.Name, "gcal__") || m.SchemaPreview == "" || m.Risk == "" {
			t.Errorf("match = %+v", m)
		}
		statuses[m.CanonicalName] = m.Status
	}
	if statuses["gcal.create_event"] != "loaded" {
		t.Errorf("the tool loaded before is %q, want loaded: %v", statuses["gcal.create_event"], statuses)
	}
	for name, st := range statuses {
		if name != "gcal.create_event" && (st != "available_lazy" || !slices.Contains(ans.Newly, name) || !slices.Contains(r.LoadedAfter, name)) {
			t.Errorf("%s: status %q, newly %v, after %v", name, st, ans.Newly, r.LoadedAfter)
		}
	}
	if !strings.Contains(r.NextInstruction, "gcal__") || !strings.Contains(ans.Text, "Tools matching") {
		t.Errorf("next %q, text %q", r.NextInstruction, ans.Text)
	}

	ans, err = Search(cat, s, loaded, []byte(`{"query":"create calendar event","domain":"gcal","includeLoaded":false}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ans.Structured.Matches {
		if m.CanonicalName == "gcal.create_event" {
			t.Errorf("includeLoaded false still lists the loaded tool")
		}
	}
	if ans, err := Search(cat, s, nil, []byte(`{"query":"send an email","domain":"all"}`)); err != nil || len(ans.Structured.Matches) == 0 {
		t.Errorf("domain all: %v %+v", err, ans.Structured)
	}
	if _, err := Search(cat, s, nil, []byte(`{"query":"x","domain":"nosuch"}`)); err == nil || !strings.Contains(err.Error(), `no server (domain) named "nosuch"`) || !strings.Contains(err.Error(), "gcal") {
		t.Errorf("an unknown domain: %v", err)
	}
	if ans, err := Search(cat, s, nil, []byte(`{"query":"zzzqqq xylophone"}`)); err != nil || len(ans.Structured.Matches) != 0 || !strings.Contains(ans.Structured.NextInstruction, "search again") {
		t.Errorf("no match: %v %+v", err, ans.Structured)
	}
}

// The eager baseline: with the catalog lazy, the built-in server's file and
// shell core is still sent with every request (the lazy tool surface's
// "file/shell core"), its other tools are lazy; mcp.eager set (even to
// nothing) replaces the baseline.
func TestEagerBaseline(t *testing.T) {
	src := map[string]tools.Source{}
	for alias, list := range testutil.LoadCatalog(t, filepath.Join(testutil.ModuleRoot(t), "tools", "testdata", "catalog")) {
		src[alias] = tools.Source{Tools: list}
	}
	schema := map[string]any{"type": "object"}
	src["local"] = tools.Source{Tools: []*sdk.Tool{
		{Name: "files_read", Description: "Read a file", InputSchema: schema},
		{Name: "shell", Description: "Run a script", InputSchema: schema},
		{Name: "git_log", Description: "Show commits", InputSchema: schema},
	}}
	cat := tools.NewCatalog(src)
	for _, tt := range []struct {
		name       string
		eager      []string
		eagerTools []string
		lazyTools  []string
	}{
		{"the baseline", nil, []string{"local.files_read", "local.shell"}, []string{"local.git_log", "gcal.create_event"}},
		{"none", []string{}, nil, []string{"local.files_read", "local.shell", "local.git_log"}},
		{"a choice of one's own", []string{"local.git_log"}, []string{"local.git_log"}, []string{"local.files_read"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg := &config.Config{}
			cfg.MCP.Lazy = config.LazyAlways
			cfg.MCP.Eager = tt.eager
			cfg.ApplyDefaults()
			s := Plan(cat, cfg)
			for _, name := range tt.eagerTools {
				if s.Lazy[name] {
					t.Errorf("%s is lazy", name)
				}
			}
			for _, name := range tt.lazyTools {
				if !s.Lazy[name] {
					t.Errorf("%s is not lazy", name)
				}
			}
		})
	}
}

// A plan holds the definitions of the tools it always sends, not those of
// the lazy ones, made when loaded: each lazy tool costs the plan its place
// in two maps, not its schema (with 5,000 tools every definition kept was
// 1.7 MB held for a conversation's life); and the plan is the same.
func TestPlanHoldsLazyToolsLight(t *testing.T) {
	cat := catalogOf(t)
	cfg := &config.Config{}
	cfg.ApplyDefaults()
	cat.Tools()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.GC() // twice: pools are emptied over two
	runtime.ReadMemStats(&before)
	s := Plan(cat, cfg)
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&after)
	if len(s.Lazy) != cat.Len() {
		t.Fatalf("%d of %d tools lazy, want all", len(s.Lazy), cat.Len())
	}
	if per := (int64(after.HeapAlloc) - int64(before.HeapAlloc)) / int64(cat.Len()); per > 200 {
		t.Errorf("the plan holds %d bytes a lazy tool, want at most 200", per)
	}
	if got, want := catalogTokens(cat), ToolTokens(ToolList(cat)); got != want {
		t.Errorf("catalogTokens = %d, want ToolTokens(ToolList(cat)) = %d", got, want)
	}
	loaded := map[string]bool{}
	for _, tl := range cat.Tools()[:3] {
		loaded[tl.Display] = true
	}
	all := ToolList(cat)
	want := []llm.Tool{ToolSearchTool, all[0], all[1], all[2]}
	if diff := cmp.Diff(want, s.Tools(loaded)); diff != "" {
		t.Errorf("Tools(three loaded) (-want +got):\n%s", diff)
	}
	runtime.KeepAlive(s)
}

func TestObjectSchema(t *testing.T) {
	empty := `{"type":"object","properties":{}}`
	tests := []struct {
		name   string
		schema any
		want   string
	}{
		{name: "both keys, passed as given", schema: json.RawMessage(`{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}`), want: `{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}`},
		{name: "no type", schema: json.RawMessage(`{"properties":{"a":{"type":"string"}}}`), want: `{"properties":{"a":{"type":"string"}},"type":"object"}`},
		{name: "no properties", schema: map[string]any{"type": "object"}, want: `{"properties":{},"type":"object"}`},
		{name: "a key only like type", schema: json.RawMessage(`{"Type":"object","properties":{}}`), want: `{"Type":"object","properties":{},"type":"object"}`},
		{name: "nil", schema: nil, want: empty},
		{name: "not an object", schema: json.RawMessage(`["type","properties"]`), want: empty},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(ObjectSchema(tt.schema)); got != tt.want {
				t.Errorf("ObjectSchema(%v) = %s, want %s", tt.schema, got, tt.want)
			}
		})
	}
}

// A schema that has its type and properties is read at its top level
// only: what its properties hold is not decoded (with 5,000 tools, a tree
// of maps for each at every plan made 11 MB of garbage while the first
// request was built).
func TestObjectSchemaReadsTopLevel(t *testing.T) {
	var props strings.Builder
	for i := range 200 {
		if i > 0 {
			props.WriteString(",")
		}
		fmt.Fprintf(&props, `"p%d":{"type":"string","description":"parameter %d","enum":["a","b","c"]}`, i, i)
	}
	schema := json.RawMessage(`{"type":"object","properties":{` + props.String() + `},"required":["p1"]}`)
	if got := testing.AllocsPerRun(20, func() { ObjectSchema(schema) }); got > 20 {
		t.Errorf("ObjectSchema of a 200-property schema makes %.0f allocations, want at most 20 (its top level only)", got)
	}
}

// catalogTokens sizes a catalog as its list's JSON text would be, without
// making it: every tool's name, description (its title first when it does
// not say it, HTML characters escaped), schema (kept, completed or
// replaced), over the test catalog as the SDK decodes it and as a
// connection keeps it (schemas as JSON text). And it makes little
// garbage doing it: with 5,000 tools, a JSON text for each at every plan
// was 6 MB while the first request was built.
func TestCatalogTokens(t *testing.T) {
	odd := map[string]tools.Source{"odd": {Tools: []*sdk.Tool{
		{Name: "html", Title: "A <b> & c", Description: "x < y > z & \u2028 \"quoted\"\n\ttab", InputSchema: json.RawMessage(`{"type":"object","properties":{"a":{"description":"<&>"}}}`)},
		{Name: "no_schema"},
		{Name: "no_type", InputSchema: json.RawMessage(`{"properties":{}}`)},
		{Name: "no_props", Title: "Same", Description: "Same words", InputSchema: map[string]any{"type": "object"}},
		{Name: "spaced", InputSchema: json.RawMessage(`{ "type" : "object", "properties" : { } }`)},
		{Name: "array", InputSchema: json.RawMessage(`[1,2]`)},
	}}}
	compacted := map[string]tools.Source{}
	for alias, list := range testutil.LoadCatalog(t, filepath.Join(testutil.ModuleRoot(t), "tools", "testdata", "catalog")) {
		mcp.CompactSchemas(list)
		compacted[alias] = tools.Source{Tools: list}
	}
	for _, tt := range []struct {
		name string
		cat  *tools.Catalog
	}{
		{name: "decoded schemas", cat: catalogOf(t)},
		{name: "schemas as text", cat: tools.NewCatalog(compacted)},
		{name: "odd tools", cat: tools.NewCatalog(odd)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got, want := catalogTokens(tt.cat), ToolTokens(ToolList(tt.cat)); got != want {
				t.Errorf("catalogTokens = %d, want ToolTokens(ToolList(cat)) = %d", got, want)
			}
		})
	}
	cat := tools.NewCatalog(compacted)
	cat.Tools()
	allocated := func(f func()) uint64 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		f()
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	whole := allocated(func() {
		for _, tl := range cat.Tools() {
			json.Marshal(toolDef(tl))
		}
	})
	if got := allocated(func() { catalogTokens(cat) }); got*2 > whole {
		t.Errorf("sizing the catalog allocates %d bytes, marshalling each tool %d; want at most half", got, whole)
	}
}

// The index counts in words: "1 tool", "2 tools".
func TestServerIndexCounts(t *testing.T) {
	cat := tools.NewCatalog(map[string]tools.Source{
		"clock": {Tools: []*sdk.Tool{{Name: "get-time"}}},
		"fs":    {Tools: []*sdk.Tool{{Name: "read"}, {Name: "write"}}},
	})
	cfg := &config.Config{}
	cfg.MCP.Lazy = config.LazyAlways
	cfg.ApplyDefaults()
	got := Plan(cat, cfg).Index
	want := "- clock (1 tool): get-time\n- fs (2 tools): read, write"
	if strings.TrimSpace(got) != want {
		t.Errorf("index = %q, want %q", got, want)
	}
}
