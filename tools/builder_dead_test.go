package tools

import (
	"fmt"
	"runtime"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// servers50 is n servers' listings of 50 tools each (the same names and
// descriptions on each, as make bench-peers' stdioserver -tools 50 lists).
func servers50(n int) map[string][]*sdk.Tool {
	descs := []string{
		"Lists the issues of a repository, newest first, with their labels, assignees and state.",
		"Reads a file from the workspace and returns its text.",
		"Searches the documentation for a query and returns the best matching sections.",
	}
	out := map[string][]*sdk.Tool{}
	for i := range n {
		var list []*sdk.Tool
		for j := range 50 {
			list = append(list, &sdk.Tool{Name: fmt.Sprintf("tool_%03d", j+1), Description: descs[j%len(descs)],
				InputSchema: map[string]any{"type": "object", "properties": map[string]any{"query": map[string]any{"type": "string"}}}})
		}
		out[fmt.Sprintf("s%03d", i)] = list
	}
	return out
}

// TestBuilderDropsReplacedTools: every server's cached tools replaced by its
// own listing (a start with a log) leave at most a quarter as many dead
// entries as live ones in the builder's postings.
func TestBuilderDropsReplacedTools(t *testing.T) {
	b := NewBuilder(nil)
	for alias, l := range servers50(40) {
		b.Set(alias, Source{Tools: l, Cached: true})
	}
	for alias, l := range servers50(40) {
		b.Set(alias, Source{Tools: l})
	}
	if b.dead > b.live/4+256 {
		t.Errorf("after replacing every server's tools: %d dead entries kept beside %d live", b.dead, b.live)
	}
}

// BenchmarkBuilderReplaced: the heap a builder keeps after 100 servers'
// cached tools (5,000) were each replaced by the server's listing, as a
// ratio to a builder given the listings only, in one run.
func BenchmarkBuilderReplaced(b *testing.B) {
	kept := func(cachedFirst bool) float64 {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		bl := NewBuilder(nil)
		if cachedFirst {
			for alias, l := range servers50(100) {
				bl.Set(alias, Source{Tools: l, Cached: true})
			}
		}
		for alias, l := range servers50(100) {
			bl.Set(alias, Source{Tools: l})
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		runtime.KeepAlive(bl)
		return float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / (1 << 20)
	}
	var replaced, listed float64
	for range b.N {
		replaced += kept(true)
		listed += kept(false)
	}
	b.ReportMetric(replaced/float64(b.N), "MB-cached-then-listed")
	b.ReportMetric(listed/float64(b.N), "MB-listed-only")
	b.ReportMetric(replaced/listed, "replaced/listed")
}
