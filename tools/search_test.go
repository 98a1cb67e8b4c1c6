package tools

import (
	"bufio"
	"os"
	"slices"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/testutil"
)

// loadCatalog reads testdata/catalog: one tools/list answer per server,
// named after its alias.
func loadCatalog(tb testing.TB) *Catalog { return NewCatalog(loadSources(tb)) }

func loadSources(tb testing.TB) map[string]Source {
	tb.Helper()
	servers := map[string]Source{}
	for alias, list := range testutil.LoadCatalog(tb, "testdata/catalog") {
		servers[alias] = Source{Tools: list}
	}
	return servers
}

type query struct{ text, want string }

func loadQueries(tb testing.TB) []query {
	tb.Helper()
	return loadQueriesFrom(tb, "testdata/queries.txt")
}

// loadQueriesFrom reads a query set: a request, '|', the tool it wants, one
// a line; lines starting with # are comments.
func loadQueriesFrom(tb testing.TB, path string) []query {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out []query
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		text, want, ok := strings.Cut(line, "|")
		if !ok {
			tb.Fatalf("%s: %q has no |", path, line)
		}
		out = append(out, query{strings.TrimSpace(text), strings.TrimSpace(want)})
	}
	return out
}

// recall is the share of queries whose tool is among the first k matches,
// for k = 1, 3 and 5, and the queries missed at 5.
func recall(cat *Catalog, qs []query) (at [6]float64, missed []string) {
	for _, q := range qs {
		ms := cat.Search(q.text, "", 5)
		rank := slices.IndexFunc(ms, func(m Match) bool { return m.Tool.Display == q.want })
		for _, k := range []int{1, 3, 5} {
			if rank >= 0 && rank < k {
				at[k]++
			}
		}
		if rank < 0 {
			var got []string
			for _, m := range ms {
				got = append(got, m.Tool.Display)
			}
			missed = append(missed, q.text+" -> want "+q.want+", got "+strings.Join(got, " "))
		}
	}
	for _, k := range []int{1, 3, 5} {
		at[k] /= float64(len(qs))
	}
	return at, missed
}

func TestSearchQuerySet(t *testing.T) {
	cat := loadCatalog(t)
	qs := loadQueries(t)
	servers := map[string]bool{}
	for _, tool := range cat.Tools() {
		servers[tool.Server] = true
	}
	if cat.Len() < 500 || len(servers) < 20 || len(qs) < 100 {
		t.Fatalf("the benchmark wants 500 tools over 20 servers and 100 queries; testdata has %d tools, %d servers, %d queries", cat.Len(), len(servers), len(qs))
	}
	for _, q := range qs {
		if _, ok := cat.Lookup(q.want); !ok {
			t.Errorf("queries.txt: %q wants %s, which is not in the catalog", q.text, q.want)
		}
	}
	at, missed := recall(cat, qs)
	t.Logf("recall@1 %.3f, recall@3 %.3f, recall@5 %.3f over %d queries", at[1], at[3], at[5], len(qs))
	for _, m := range missed {
		t.Logf("missed: %s", m)
	}
	if at[5] < 0.95 {
		t.Errorf("recall@5 = %.3f, want at least 0.95", at[5])
	}
}

func TestSearch(t *testing.T) {
	cat := loadCatalog(t)
	tests := []struct {
		name, query, server string
		limit               int
		first               string
		n                   int
	}{
		{name: "plain words", query: "list a directory", first: "filesystem.list_directory"},
		{name: "one server only", query: "create an issue", server: "linear", first: "linear.create_issue"},
		{name: "limit", query: "delete", limit: 2, n: 2},
		{name: "default limit", query: "list", n: DefaultSearchLimit},
		{name: "camel and snake case", query: "listDirectory", first: "filesystem.list_directory"},
		{name: "nothing in common", query: "zzqx plover", n: 0},
		{name: "only stop words", query: "what is it", n: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ms := cat.Search(tt.query, tt.server, tt.limit)
			if tt.first != "" && (len(ms) == 0 || ms[0].Tool.Display != tt.first) {
				t.Errorf("Search(%q) first = %v, want %s", tt.query, names(ms), tt.first)
			}
			if tt.first == "" && len(ms) != tt.n {
				t.Errorf("Search(%q) = %d matches %v, want %d", tt.query, len(ms), names(ms), tt.n)
			}
			for _, m := range ms {
				if tt.server != "" && m.Tool.Server != tt.server {
					t.Errorf("Search(%q, server %s) found %s", tt.query, tt.server, m.Tool.Display)
				}
			}
		})
	}
}

func names(ms []Match) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.Tool.Display)
	}
	return out
}

func TestRiskAndPreview(t *testing.T) {
	no, yes := false, true
	schema := map[string]any{"type": "object", "required": []any{"path"}, "properties": map[string]any{
		"path": map[string]any{"type": "string"}, "depth": map[string]any{"type": "integer"}, "mode": map[string]any{"type": "string", "enum": []any{"a", "b"}},
	}}
	tests := []struct {
		ann  *sdk.ToolAnnotations
		want string
	}{
		{nil, "unknown"},
		{&sdk.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: &no}, "read"},
		{&sdk.ToolAnnotations{ReadOnlyHint: true}, "read, external"},
		{&sdk.ToolAnnotations{DestructiveHint: &no, OpenWorldHint: &no}, "write"},
		{&sdk.ToolAnnotations{DestructiveHint: &yes, OpenWorldHint: &yes}, "destructive, external"},
		{&sdk.ToolAnnotations{OpenWorldHint: &no}, "destructive"},
	}
	for _, tt := range tests {
		if got := Risk(Tool{Def: &sdk.Tool{Annotations: tt.ann}}); got != tt.want {
			t.Errorf("Risk(%+v) = %q, want %q", tt.ann, got, tt.want)
		}
	}
	if got, want := Preview(schema, 200), "path: string, depth?: integer, mode?: enum"; got != want {
		t.Errorf("Preview = %q, want %q", got, want)
	}
	if got := Preview(schema, 20); !strings.HasPrefix(got, "path: string") || !strings.Contains(got, "(3 parameters)") {
		t.Errorf("Preview cut short = %q", got)
	}
	if got := Preview(nil, 100); got != "no parameters" {
		t.Errorf("Preview(nil) = %q", got)
	}
}

func TestRenderMatches(t *testing.T) {
	cat := loadCatalog(t)
	out := RenderMatches("read a file", cat.Search("read a file", "filesystem", 2))
	for _, want := range []string{"1. filesystem__read_", "(filesystem.read_", "risk: read (the server's hint)", "parameters: path"} {
		if !strings.Contains(out, want) {
			t.Errorf("RenderMatches lacks %q:\n%s", want, out)
		}
	}
	if out := RenderMatches("zzqx", nil); !strings.Contains(out, "No tool matches") {
		t.Errorf("RenderMatches(none) = %q", out)
	}
}

func FuzzTerms(f *testing.F) {
	for _, s := range []string{"listDirectory", "list_directory", "créer un fichier", "HTTPServer2Go", "", "   ", "ÀÉ-ü_ß"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, term := range terms(text) {
			if term == "" || strings.ContainsAny(term, " _-") {
				t.Fatalf("terms(%q) has %q", text, term)
			}
		}
	})
}

// BenchmarkSearch reports tool_search's recall at 1, 3 and 5 on the query
// set over the 507-tool catalog, and the cost of a search: with a new
// catalog each round (the index built, then every query ranked) against
// the same catalog again (every answer from the cache).
func BenchmarkSearch(b *testing.B) {
	qs := loadQueries(b)
	sources := loadSources(b)
	var at [6]float64
	b.Run("uncached", func(b *testing.B) {
		for b.Loop() {
			at, _ = recall(NewCatalog(sources), qs)
		}
		b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(qs)), "µs/query")
		b.ReportMetric(at[1], "recall@1")
		b.ReportMetric(at[3], "recall@3")
		b.ReportMetric(at[5], "recall@5")
	})
	cat := NewCatalog(sources)
	recall(cat, qs)
	b.Run("cached", func(b *testing.B) {
		for b.Loop() {
			recall(cat, qs)
		}
		b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(qs)), "µs/query")
	})
}

func TestWords(t *testing.T) {
	tests := []struct {
		text      string
		compounds bool
		want      []string
	}{
		{"listDirectory", false, []string{"list", "directory"}},
		{"list_directory list-directory list.directory", false, []string{"list", "directory", "list", "directory", "list", "directory"}},
		{"MySQL server", false, []string{"my", "sql", "server"}},
		{"MySQL server", true, []string{"my", "sql", "mysql", "server"}},
		{"show PostgreSQL", true, []string{"show", "postgre", "sql", "postgresql"}},
		{"getIssue", true, []string{"get", "issue", "getissue"}},
	}
	for _, tt := range tests {
		if got := words(tt.text, tt.compounds); !slices.Equal(got, tt.want) {
			t.Errorf("words(%q, %v) = %q, want %q", tt.text, tt.compounds, got, tt.want)
		}
	}
	vocab := map[string]bool{"host": true, "pool": true, "work": true, "log": true, "hostpool": true}
	for w, want := range map[string][]string{"hostpool": {"host", "pool"}, "worklog": {"work", "log"}, "hostess": nil, "logs": nil} {
		if got := split(w, vocab); !slices.Equal(got, want) {
			t.Errorf("split(%q) = %q, want %q", w, got, want)
		}
	}
}

// toolList builds a server's tools from name, description and parameter
// names.
func toolList(tools ...[3]string) Source {
	var out []*sdk.Tool
	for _, t := range tools {
		props := map[string]any{}
		for _, p := range strings.Fields(t[2]) {
			props[p] = map[string]any{"type": "string", "description": "The " + p + "."}
		}
		out = append(out, &sdk.Tool{Name: t[0], Description: t[1], InputSchema: map[string]any{"type": "object", "properties": props}})
	}
	return Source{Tools: out}
}

// Look-alike tools: the parameters every tool takes say nothing, a plural
// asks for the list, and a compound name meets the words apart.
func TestSearchLookAlikes(t *testing.T) {
	cat := NewCatalog(map[string]Source{"cloud": toolList(
		[3]string{"subscription_list", "List all subscriptions for an account.", ""},
		[3]string{"group_list", "List the resource groups in a subscription.", "subscription tenant"},
		[3]string{"server_list", "Lists all servers in a subscription.", "subscription tenant"},
		[3]string{"server_get", "Retrieves the configuration of a server.", "subscription tenant server"},
		[3]string{"database_list", "Lists the databases of a server.", "subscription tenant server"},
		[3]string{"hostpool_list", "List the hostpools in a subscription: pools of session hosts.", "subscription tenant"},
		[3]string{"hostpool_host_list", "List the session hosts in a hostpool.", "subscription tenant hostpool"},
		[3]string{"user_list", "List the users of a subscription.", "subscription tenant"},
	)})
	tests := []struct {
		query, want string
		within      int
	}{
		{"what subscriptions do I have", "cloud.subscription_list", 1},
		{"show me my servers", "cloud.server_list", 1},
		{"configuration of server web-1", "cloud.server_get", 1},
		// hostpool_host_list holds "host" twice over: second is fair
		{"list all host pools", "cloud.hostpool_list", 2},
	}
	for _, tt := range tests {
		ms := cat.Search(tt.query, "", 5)
		if i := slices.IndexFunc(ms, func(m Match) bool { return m.Tool.Display == tt.want }); i < 0 || i >= tt.within {
			t.Errorf("Search(%q) = %v, want %s among the first %d", tt.query, names(ms), tt.want, tt.within)
		}
	}
}

func TestSearchSeveralQueries(t *testing.T) {
	src, _ := synthCatalog()
	cat := NewCatalog(src)
	ms := cat.Search("list open pull requests on github; post a message to a slack channel\nmake a directory", "", 0)
	if len(ms) != 9 {
		t.Errorf("three searches, no limit: %d matches %v, want 9", len(ms), names(ms))
	}
	for i, want := range []string{"github.list_pull_requests", "slack.slack_post_message", "filesystem.create_directory"} {
		if len(ms) <= i || ms[i].Tool.Display != want {
			t.Errorf("match %d = %v, want %s (each search's best first)", i, names(ms), want)
		}
	}
	if ms := cat.Search("list open pull requests on github; post a message to a slack channel", "", 3); len(ms) != 3 {
		t.Errorf("limit 3: %v", names(ms))
	}
	one := cat.Search("list open pull requests on github", "", 0)
	if again := cat.Search(" ; list open pull requests on github;", "", 0); !slices.Equal(names(one), names(again)) {
		t.Errorf("empty searches should change nothing: %v, then %v", names(one), names(again))
	}
}

// Searches from many goroutines at once, on a fresh catalog: the index
// is built once, and the answers are those of a search alone.
func TestSearchConcurrent(t *testing.T) {
	src, qs := synthCatalog()
	want := map[string][]string{}
	alone := NewCatalog(src)
	for _, q := range qs {
		want[q.text] = names(alone.Search(q.text, "", 5))
	}
	cat := NewCatalog(src)
	done := make(chan bool)
	for g := range 8 {
		go func() {
			defer func() { done <- true }()
			for i := range qs {
				q := qs[(i+g*7)%len(qs)]
				if got := names(cat.Search(q.text, "", 5)); !slices.Equal(got, want[q.text]) {
					t.Errorf("Search(%q) = %v, alone %v", q.text, got, want[q.text])
				}
			}
		}()
	}
	for range 8 {
		<-done
	}
}
