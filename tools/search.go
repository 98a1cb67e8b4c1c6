package tools

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	lru "github.com/hashicorp/golang-lru/v2"
)

// Match is a tool found by Search.
type Match struct {
	Tool    Tool
	Score   float64
	Risk    string // from the annotations: read, write or destructive, and external
	Preview string // the parameters, short: "path: string, depth?: integer"
}

// DefaultSearchLimit is how many matches Search returns unless told.
const DefaultSearchLimit = 5

// searcher is a catalog's search index and its cache of answers, built on
// the first search: a catalog that is never searched costs nothing.
type searcher struct {
	once  sync.Once
	idx   *index
	cache *lru.Cache[searchKey, []Match]
}

type searchKey struct {
	query, server string
	limit         int
}

// Search ranks the catalog's tools (all, or one server's) for query, in
// plain words, by BM25F over their names, titles, parameters and
// descriptions (see search_index.go), and returns the best limit
// (DefaultSearchLimit when 0). Tools that share no word with the query are
// not returned.
//
// A query may hold several searches, one a line or separated by ';' ("list
// pull requests; merge a pull request"): each is ranked, and the answers
// are interleaved, each search's best first, so that every search has its
// tools among the first; without a limit, each search gets three places or
// more (at most MaxSearchLimit in all).
//
// Safe for concurrent use; repeated queries are answered from a cache.
func (c *Catalog) Search(query, server string, limit int) []Match {
	queries := splitQueries(query)
	if limit <= 0 {
		limit = min(max(DefaultSearchLimit, 3*len(queries)), MaxSearchLimit)
	}
	c.load()
	s := &c.search
	s.once.Do(func() {
		s.idx = newIndex(c.tools, nil, defaultSearchConfig())
		s.cache, _ = lru.New[searchKey, []Match](256)
	})
	var norm []string
	for _, q := range queries {
		norm = append(norm, strings.Join(words(q, false), " "))
	}
	key := searchKey{strings.Join(norm, ";"), server, limit}
	if m, ok := s.cache.Get(key); ok {
		return m
	}
	lists := make([][]ranked, len(queries))
	for i, q := range queries {
		lists[i] = s.idx.rank(q, server)
	}
	var out []Match
	for _, r := range interleave(lists, limit) {
		t := c.tools[r.doc]
		out = append(out, Match{Tool: t, Score: r.score, Risk: Risk(t), Preview: Preview(t.Def.InputSchema, 160)})
	}
	s.cache.Add(key, out)
	return out
}

// interleave merges the rankings of several searches into the first limit
// tools: each search's best, then each one's second, and so on, a tool
// found twice kept where it first came. (Reciprocal rank fusion, which
// lifts the tools found by several searches, measured worse when the
// searches are for different needs: TestSearchAblation.)
func interleave(lists [][]ranked, limit int) []ranked {
	var out []ranked
	seen := map[int]bool{}
	for r := 0; len(out) < limit; r++ {
		more := false
		for _, list := range lists {
			if r >= len(list) || len(out) == limit {
				continue
			}
			more = true
			if d := list[r].doc; !seen[d] {
				seen[d] = true
				out = append(out, list[r])
			}
		}
		if !more {
			break
		}
	}
	return out
}

// MaxSearchLimit is the most matches a search with several queries returns
// unless told.
const MaxSearchLimit = 20

// splitQueries cuts a query at new lines and ';' into its searches, the
// empty ones left out; a query with none is one empty search.
func splitQueries(query string) []string {
	var out []string
	for _, q := range strings.FieldsFunc(query, func(r rune) bool { return r == '\n' || r == ';' }) {
		if q = strings.TrimSpace(q); q != "" {
			out = append(out, q)
		}
	}
	if len(out) == 0 {
		return []string{""}
	}
	return out
}

// params returns an input schema's parameter names and descriptions.
func params(schema any) map[string]string {
	s := decodeSchema(schema)
	out := make(map[string]string, len(s.Properties))
	for name, p := range s.Properties {
		desc, _ := p["description"].(string)
		out[name] = desc
	}
	return out
}

// objectSchema is the part of an input schema that names the parameters.
type objectSchema struct {
	Properties map[string]map[string]any `json:"properties"`
	Required   []string                  `json:"required"`
}

// decodeSchema reads an input schema (a map, a *jsonschema.Schema, raw
// JSON) through its JSON form; anything else has no parameters.
func decodeSchema(schema any) objectSchema {
	var m objectSchema
	if data, err := json.Marshal(schema); err == nil {
		json.Unmarshal(data, &m)
	}
	return m
}

// Preview describes an input schema's parameters in at most n bytes:
// "path: string, depth?: integer" (a ? marks the optional ones).
func Preview(schema any, n int) string {
	m := decodeSchema(schema)
	if len(m.Properties) == 0 {
		return "no parameters"
	}
	names := make([]string, 0, len(m.Properties))
	for name := range m.Properties {
		names = append(names, name)
	}
	// Required parameters first, then the rest, each by name.
	slices.SortFunc(names, func(a, b string) int {
		ra, rb := slices.Contains(m.Required, a), slices.Contains(m.Required, b)
		if ra != rb {
			if ra {
				return -1
			}
			return 1
		}
		return strings.Compare(a, b)
	})
	var parts []string
	for _, name := range names {
		typ := "any"
		switch t := m.Properties[name]["type"].(type) {
		case string:
			typ = t
		case []any:
			var ts []string
			for _, x := range t {
				ts = append(ts, fmt.Sprint(x))
			}
			typ = strings.Join(ts, "|")
		}
		if _, ok := m.Properties[name]["enum"]; ok {
			typ = "enum"
		}
		mark := ""
		if !slices.Contains(m.Required, name) {
			mark = "?"
		}
		parts = append(parts, name+mark+": "+typ)
	}
	out := strings.Join(parts, ", ")
	if len(out) > n {
		cut := strings.LastIndex(out[:n], ", ")
		if cut < 0 {
			cut = n
		}
		out = out[:cut] + fmt.Sprintf(", … (%d parameters)", len(names))
	}
	return out
}

// Risk is what a tool's annotations say it does: read, write or
// destructive, and external when it reaches outside this machine. The
// annotations' defaults (destructive, open world) apply to what they leave
// out; a tool without any is "unknown".
func Risk(t Tool) string {
	a := t.Def.Annotations
	if a == nil {
		return "unknown"
	}
	risk := "write"
	switch {
	case a.ReadOnlyHint:
		risk = "read"
	case a.DestructiveHint == nil || *a.DestructiveHint:
		risk = "destructive"
	}
	if a.OpenWorldHint == nil || *a.OpenWorldHint {
		risk += ", external"
	}
	return risk
}

// RenderMatches is tool_search's answer to the model: each match's name,
// risk, parameters and description, and what to do next.
func RenderMatches(query string, ms []Match) string {
	if len(ms) == 0 {
		return fmt.Sprintf("No tool matches %q. Try other words for what you want done (the action, and what it acts on), several searches at once separated by ';', or a server's alias.", query)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Tools matching %q, best first. They can be called from now on, by the name given.\n", query)
	for i, m := range ms {
		desc := strings.Join(strings.Fields(m.Tool.Def.Description), " ")
		if len(desc) > 300 {
			desc = desc[:strings.LastIndex(desc[:300], " ")+1] + "…"
		}
		risk := m.Risk
		if !m.Tool.Trusted && risk != "unknown" {
			risk += " (the server's hint)"
		}
		fmt.Fprintf(&b, "%d. %s (%s): %s\n   risk: %s\n   parameters: %s\n", i+1, m.Tool.Wire, m.Tool.Display, desc, risk, m.Preview)
	}
	return strings.TrimSuffix(b.String(), "\n")
}
