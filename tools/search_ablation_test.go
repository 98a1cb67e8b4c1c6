package tools

import (
	"cmp"
	"fmt"
	"slices"
	"testing"
)

// rankWith ranks with a configuration other than the default.
func rankWith(cat *Catalog, about map[string]string, cfg searchConfig) func(string) []string {
	x := newIndex(cat.tools, about, cfg)
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

// fuseRRF merges rankings by reciprocal rank fusion: a tool scores the sum
// of 1/(k+rank) over the rankings that hold it.
func fuseRRF(lists [][]ranked, limit, k int) []ranked {
	score := map[int]float64{}
	var order []int
	for _, list := range lists {
		for r, x := range list {
			if _, ok := score[x.doc]; !ok {
				order = append(order, x.doc)
			}
			score[x.doc] += 1 / float64(k+r+1)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(score[b], score[a]) })
	var out []ranked
	for _, d := range order[:min(limit, len(order))] {
		out = append(out, ranked{d, score[d]})
	}
	return out
}

// qsPairs pairs each request with the next one for the same tool.
func qsPairs(qs []query) [][2]query {
	var out [][2]query
	for i, a := range qs {
		for j := 1; j < len(qs); j++ {
			if o := qs[(i+j)%len(qs)]; o.want == a.want && o.text != a.text {
				out = append(out, [2]query{a, o})
				break
			}
		}
	}
	return out
}

// paraphrasesWith is recall@5 of "a; b" for pairs, "-" without any.
func paraphrasesWith(pairs [][2]query, search func(string, int) []string) string {
	if len(pairs) == 0 {
		return "  -  "
	}
	n := 0.0
	for _, p := range pairs {
		if slices.Contains(search(p[0].text+"; "+p[1].text, 5), p[0].want) {
			n++
		}
	}
	return fmt.Sprintf("%.3f", n/float64(len(pairs)))
}

func twoNeedsWith(qs []query, search func(string, int) []string) float64 {
	n, both := 0.0, 0.0
	for i, a := range qs {
		b := qs[(i+len(qs)/2)%len(qs)]
		if a.want == b.want {
			continue
		}
		n++
		got := search(a.text+"; "+b.text, 6)
		if slices.Contains(got, a.want) && slices.Contains(got, b.want) {
			both++
		}
	}
	return both / n
}

// TestSearchAblation logs, with -v, what each part of the search adds:
// the figures with it turned off (or set as it was), beside the default's
// and plain BM25's, on each retrieval set and on testdata's query set; and
// the levers measured and left off (the catalog's own neighbours of a
// word, the server's words about itself as a field), and how several
// searches in one query are merged (interleaved, or by reciprocal rank
// fusion).
//
//	go test -run TestSearchAblation -v ./tools/
func TestSearchAblation(t *testing.T) {
	if !testing.Verbose() {
		t.Skip("only logs: run with -v")
	}
	sets := retrievalSets(t)
	sets = append(sets, retrievalSet{"testdata", loadSources(t), loadQueries(t), nil})
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
		{"catalog neighbours 0.1, top 1", func(c *searchConfig) { c.related, c.relatedTop = 0.1, 1 }},
		{"catalog neighbours 0.2", func(c *searchConfig) { c.related = 0.2 }},
		{"catalog neighbours 0.2, npmi 0.6, top 2", func(c *searchConfig) { c.related, c.relatedTop, c.relatedNPMI = 0.2, 2, 0.6 }},
		{"catalog neighbours 0.4", func(c *searchConfig) { c.related = 0.4 }},
		{"catalog neighbours 0.2, no synonyms", func(c *searchConfig) { c.related, c.synonym = 0.2, 0 }},
		{"server's words 0.3", func(c *searchConfig) { c.weight[fAbout] = 0.3 }},
		{"server's words 1", func(c *searchConfig) { c.weight[fAbout] = 1 }},
		{"as before", func(c *searchConfig) {
			c.weight[fParams], c.surface, c.decompound, c.commonParams, c.compounds = 1.5, 0, 0, false, false
		}},
	}
	for _, set := range sets {
		cat := NewCatalog(set.sources)
		x := newIndex(cat.tools, nil, defaultSearchConfig())
		for _, m := range []struct {
			name  string
			merge func([][]ranked, int) []ranked
		}{
			{"interleaved", interleave},
			{"fused (RRF k 1)", func(l [][]ranked, n int) []ranked { return fuseRRF(l, n, 1) }},
			{"fused (RRF k 10)", func(l [][]ranked, n int) []ranked { return fuseRRF(l, n, 10) }},
			{"fused (RRF k 60)", func(l [][]ranked, n int) []ranked { return fuseRRF(l, n, 60) }},
		} {
			search := func(q string, limit int) []string {
				var lists [][]ranked
				for _, s := range splitQueries(q) {
					lists = append(lists, x.rank(s, ""))
				}
				var out []string
				for _, r := range m.merge(lists, limit) {
					out = append(out, cat.tools[r.doc].Display)
				}
				return out
			}
			p := paraphrasesWith(qsPairs(set.queries), search)
			two := twoNeedsWith(set.queries, search)
			t.Logf("%-10s several searches %-18s one need two ways (a; b) R@5 %s; two needs both in the first 6 %.3f", set.name, m.name, p, two)
		}
		t.Logf("%-10s %-40s %v", set.name, "plain BM25", evaluate(set.queries, newPlainBM25(cat).rank))
		for _, v := range variants {
			cfg := defaultSearchConfig()
			v.edit(&cfg)
			t.Logf("%-10s %-40s %v", set.name, v.name, evaluate(set.queries, rankWith(cat, set.about, cfg)))
		}
	}
}
