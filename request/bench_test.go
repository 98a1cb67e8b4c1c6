package request

import (
	"encoding/json"
	"strings"
	"testing"

	"deckhand/config"
	"deckhand/transport/llm"
)

// BenchmarkToolSurface measures the tools field of a request over the
// 507-tool, 31-server catalog in tools/testdata: every schema sent (eager)
// against lazy (tool_search alone, the servers' index moving to the system
// prompt), in bytes and estimated tokens; and, for lazy, after five tools
// were found. Planning the surface is what is timed.
func BenchmarkToolSurface(b *testing.B) {
	cat := catalogOf(b)
	cfg := &config.Config{}
	cfg.ApplyDefaults()
	var lazy *Surface
	for b.Loop() {
		lazy = Plan(cat, cfg)
	}
	size := func(list []llm.Tool) int {
		data, _ := json.Marshal(list)
		return len(data)
	}
	eager := size(ToolList(cat))
	first := size(lazy.Tools(nil))
	index := len(lazy.Index)
	loaded := map[string]bool{}
	for _, m := range cat.Search("create calendar event", "", 5) {
		loaded[m.Tool.Display] = true
	}
	after := size(lazy.Tools(loaded))
	b.ReportMetric(float64(cat.Len()), "tools")
	b.ReportMetric(float64(eager), "eager-bytes")
	b.ReportMetric(float64(EstimateTokens(strings.Repeat("x", eager))), "eager-tokens")
	b.ReportMetric(float64(first), "lazy-bytes")
	b.ReportMetric(float64(index), "index-bytes")
	b.ReportMetric(float64(EstimateTokens(strings.Repeat("x", first+index))), "lazy+index-tokens")
	b.ReportMetric(100*(1-float64(first+index)/float64(eager)), "%smaller")
	b.ReportMetric(float64(after), "lazy-5-loaded-bytes")
}
