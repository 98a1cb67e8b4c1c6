package tools

import "testing"

// rankWith ranks with a configuration other than the default.
func rankWith(cat *Catalog, cfg searchConfig) func(string) []string {
	x := newIndex(cat.tools, cfg)
	return func(q string) []string {
		var out []string
		for _, r := range x.rank(q, "") {
			if len(out) == 20 {
				break
			}
			out = append(out, cat.tools[r.doc].Display)
		}
		return out
	}
}

// TestSearchAblation logs, with -v, what each part of the search adds:
// the figures with it turned off (or set as it was), beside the default's
// and plain BM25's, on each retrieval set and on testdata's query set.
//
//	go test -run TestSearchAblation -v ./tools/
func TestSearchAblation(t *testing.T) {
	if !testing.Verbose() {
		t.Skip("only logs: run with -v")
	}
	sets := retrievalSets(t)
	sets = append(sets, retrievalSet{"testdata", loadSources(t), loadQueries(t)})
	variants := []struct {
		name string
		edit func(*searchConfig)
	}{
		{"default", func(c *searchConfig) {}},
		{"no synonyms", func(c *searchConfig) { c.synonym = 0 }},
		{"no surface forms", func(c *searchConfig) { c.surface = 0 }},
		{"no decompounding", func(c *searchConfig) { c.decompound = 0 }},
		{"common params count fully", func(c *searchConfig) { c.commonParams = false }},
		{"params weigh 1.5 (as before)", func(c *searchConfig) { c.weight[fParams] = 1.5 }},
		{"no whole compounds", func(c *searchConfig) { c.compounds = false }},
		{"as before", func(c *searchConfig) {
			c.weight[fParams], c.surface, c.decompound, c.commonParams, c.compounds = 1.5, 0, 0, false, false
		}},
	}
	for _, set := range sets {
		cat := NewCatalog(set.sources)
		t.Logf("%-10s %-30s %v", set.name, "plain BM25", evaluate(set.queries, newPlainBM25(cat).rank))
		for _, v := range variants {
			cfg := defaultSearchConfig()
			v.edit(&cfg)
			t.Logf("%-10s %-30s %v", set.name, v.name, evaluate(set.queries, rankWith(cat, cfg)))
		}
	}
}
