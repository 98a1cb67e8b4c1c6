package tools

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"

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
// plain words, by BM25 over their names, titles, parameter names and
// descriptions, and returns the best limit (DefaultSearchLimit when 0).
// Tools that share no word with the query are not returned. Safe for
// concurrent use; repeated queries are answered from a cache.
func (c *Catalog) Search(query, server string, limit int) []Match {
	if limit <= 0 {
		limit = DefaultSearchLimit
	}
	s := &c.search
	s.once.Do(func() {
		s.idx = newIndex(c.tools)
		s.cache, _ = lru.New[searchKey, []Match](256)
	})
	key := searchKey{strings.Join(terms(query), " "), server, limit}
	if m, ok := s.cache.Get(key); ok {
		return m
	}
	var out []Match
	for _, r := range s.idx.rank(query, server) {
		if len(out) == limit {
			break
		}
		t := c.tools[r.doc]
		out = append(out, Match{Tool: t, Score: r.score, Risk: Risk(t), Preview: Preview(t.Def.InputSchema, 160)})
	}
	s.cache.Add(key, out)
	return out
}

// The fields of a tool that are searched, with their weight (a word in a
// tool's name says more than one in its description) and how much their
// length damps a match (BM25F's b: descriptions run long, names do not).
const (
	fName = iota
	fTitle
	fServer
	fParams
	fDesc
	nFields
)

var (
	fieldWeight = [nFields]float64{fName: 3, fTitle: 2, fServer: 2, fParams: 1.5, fDesc: 1}
	fieldB      = [nFields]float64{fName: 0.3, fTitle: 0.3, fServer: 0, fParams: 0.5, fDesc: 0.75}
)

const (
	wSyn   = 0.5 // a query word's synonyms count for less than the word
	bm25K1 = 1.2
)

// index is a BM25F index of a catalog's tools.
type index struct {
	tools  []Tool
	tf     [][nFields]map[string]float64 // per tool and field: term frequency
	length [][nFields]float64
	avgLen [nFields]float64
	df     map[string]int
}

func newIndex(tools []Tool) *index {
	x := &index{tools: tools, tf: make([][nFields]map[string]float64, len(tools)), length: make([][nFields]float64, len(tools)), df: map[string]int{}}
	for i, t := range tools {
		add := func(f int, text string, w float64) {
			if x.tf[i][f] == nil {
				x.tf[i][f] = map[string]float64{}
			}
			for _, term := range terms(text) {
				x.tf[i][f][term] += w
				x.length[i][f] += w
			}
		}
		add(fName, t.Name, 1)
		add(fServer, t.Server, 1)
		if t.Def != nil {
			add(fTitle, t.Def.Title, 1)
			if t.Def.Annotations != nil {
				add(fTitle, t.Def.Annotations.Title, 1)
			}
			add(fDesc, t.Def.Description, 1)
			for name, desc := range params(t.Def.InputSchema) {
				add(fParams, name, 1)
				add(fParams, desc, 0.5)
			}
		}
		seen := map[string]bool{}
		for f := range nFields {
			x.avgLen[f] += x.length[i][f]
			for term := range x.tf[i][f] {
				if !seen[term] {
					seen[term] = true
					x.df[term]++
				}
			}
		}
	}
	for f := range nFields {
		if len(tools) > 0 {
			x.avgLen[f] /= float64(len(tools))
		}
		if x.avgLen[f] == 0 {
			x.avgLen[f] = 1
		}
	}
	return x
}

type ranked struct {
	doc   int
	score float64
}

func (x *index) rank(query, server string) []ranked {
	weights := map[string]float64{}
	ws := words(query)
	// A request that starts "what…", "which…" or "show…" asks to read: tools
	// that only read get more, and "show" itself names no tool.
	question := len(ws) > 0 && questionWords[ws[0]]
	if len(ws) > 0 && intentOnly[ws[0]] {
		query = strings.Join(ws[1:], " ")
	}
	for _, term := range terms(query) {
		weights[term] = 1
	}
	for term := range maps.Clone(weights) {
		for _, syn := range synonyms[term] {
			if _, ok := weights[syn]; !ok {
				weights[syn] = wSyn
			}
		}
	}
	n := float64(len(x.tools))
	var out []ranked
	for i := range x.tools {
		if server != "" && x.tools[i].Server != server {
			continue
		}
		score := 0.0
		for term, qw := range weights {
			tf := 0.0
			for f := range nFields {
				if c := x.tf[i][f][term]; c > 0 {
					norm := 1 - fieldB[f] + fieldB[f]*x.length[i][f]/x.avgLen[f]
					tf += fieldWeight[f] * c / norm
				}
			}
			if tf == 0 {
				continue
			}
			df := float64(x.df[term])
			idf := math.Log(1 + (n-df+0.5)/(df+0.5))
			score += qw * idf * tf * (bm25K1 + 1) / (tf + bm25K1)
		}
		if score > 0 {
			if a := x.tools[i].Def.Annotations; question && a != nil && a.ReadOnlyHint {
				score *= 1.5
			}
			out = append(out, ranked{i, score})
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].score > out[b].score })
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

// terms are a text's words for searching: lower case, split at case changes,
// digits, '_' and '-', stop words left out, each reduced to a stem.
func terms(text string) []string {
	var out []string
	for _, w := range words(text) {
		if stopWords[w] {
			continue
		}
		out = append(out, stem(w))
	}
	return out
}

// words splits "listDirectory", "list_directory" and "list-directory" alike.
func words(text string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(text)
	for i, r := range rs {
		switch {
		case unicode.IsLetter(r):
			// a lower-to-upper change starts a word: listDirectory
			if unicode.IsUpper(r) && i > 0 && unicode.IsLower(rs[i-1]) {
				flush()
			}
			cur = append(cur, r)
		case unicode.IsDigit(r):
			cur = append(cur, r)
		default:
			flush()
		}
	}
	flush()
	return out
}

// stem strips the common English endings, so that "files", "listing" and
// "deleted" meet "file", "list" and "delete". (Crude next to a Porter
// stemmer, and enough for tool names and short descriptions.)
func stem(w string) string {
	if len(w) == 3 && w[2] == 's' && w[1] != 's' && !strings.ContainsRune("aeiou", rune(w[1])) {
		return w[:2] // vms, prs, ids, dbs
	}
	if len(w) <= 3 {
		return w
	}
	// Plurals first, then verb endings: "meetings" and "meeting" both end
	// at "meet".
	switch {
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		w = w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"), strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "shes"), strings.HasSuffix(w, "xes"):
		w = w[:len(w)-2]
	case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		w = w[:len(w)-1]
	}
	undouble := func(w string) string {
		if n := len(w); n > 2 && w[n-1] == w[n-2] && !strings.ContainsRune("lsz", rune(w[n-1])) {
			return w[:n-1] // running -> run
		}
		return w
	}
	switch {
	case strings.HasSuffix(w, "ing") && len(w) > 5:
		w = undouble(w[:len(w)-3])
	case strings.HasSuffix(w, "ed") && len(w) > 4:
		w = undouble(w[:len(w)-2])
	}
	return strings.TrimSuffix(w, "e") // "delete" and "deleted" meet at "delet"
}

var intentOnly = map[string]bool{"show": true, "display": true, "give": true}

var questionWords = map[string]bool{"what": true, "which": true, "who": true, "when": true, "where": true, "how": true, "show": true, "list": true, "is": true, "are": true, "do": true, "does": true, "did": true, "will": true}

var stopWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an and any are as at be been by can could do does for from get give has have
		how i if in into is it its let me my of on or our please should so some that the their them then there these
		this those to us using want was we what when where which who will with would you your need like just tell about`) {
		stopWords[w] = true
	}
}

// synonyms widen a query's words (by stem) to the words tools use for the
// same thing. Kept small: each entry is a pair people and tool authors
// really mix up.
var synonyms = map[string][]string{}

func init() {
	groups := [][]string{
		{"delete", "remove", "erase", "drop", "destroy", "forget", "cancel"},
		{"create", "add", "new", "make", "insert", "open", "remember"},
		{"update", "edit", "modify", "change", "patch", "set", "rename"},
		{"read", "fetch", "retrieve", "show", "view", "display", "open", "load"},
		{"list", "enumerate", "browse", "all"},
		{"search", "find", "query", "lookup", "look", "locate", "grep", "filter"},
		{"send", "post", "message", "reply", "write"},
		{"run", "execute", "exec", "invoke", "launch", "start", "trigger"},
		{"stop", "cancel", "halt", "terminate", "kill"},
		{"file", "document", "doc"},
		{"folder", "directory", "dir"},
		{"event", "meeting", "appointment", "calendar", "schedule"},
		{"issue", "ticket", "bug", "task"},
		{"task", "todo", "reminder"},
		{"complete", "done", "finish", "close", "resolve"},
		{"repo", "repository", "project"},
		{"pull", "pr", "merge"},
		{"email", "mail", "inbox"},
		{"user", "member", "person", "people", "account"},
		{"page", "website", "site", "url", "web"},
		{"screenshot", "capture", "snapshot"},
		{"click", "press", "tap"},
		{"type", "fill", "enter"},
		{"table", "schema", "column"},
		{"database", "db", "sql"},
		{"instance", "vm", "server", "machine"},
		{"bucket", "storage", "blob", "object"},
		{"log", "logs", "history", "commits"},
		{"commit", "change"},
		{"branch", "checkout"},
		{"weather", "forecast", "temperature", "rain", "snow", "wind", "sunny"},
		{"comment", "note", "reply"},
		{"size", "info", "metadata", "stat", "detail"},
		{"move", "rename", "transfer"},
		{"copy", "duplicate", "clone"},
		{"download", "fetch", "pull"},
		{"upload", "push", "publish"},
		{"price", "cost", "bill", "invoice", "payment", "charge"},
		{"customer", "client"},
		{"remember", "memory", "knowledge", "store", "save"},
		{"relation", "link", "connect"},
		{"entity", "node", "observation", "fact", "note"},
		{"say", "said", "message", "conversation", "history"},
		{"count", "number", "sum", "total", "add"},
	}
	for _, g := range groups {
		stems := make([]string, len(g))
		for i, w := range g {
			stems[i] = stem(w)
		}
		for _, s := range stems {
			for _, o := range stems {
				if o != s && !slices.Contains(synonyms[s], o) {
					synonyms[s] = append(synonyms[s], o)
				}
			}
		}
	}
}

// RenderMatches is tool_search's answer to the model: each match's name,
// risk, parameters and description, and what to do next.
func RenderMatches(query string, ms []Match) string {
	if len(ms) == 0 {
		return fmt.Sprintf("No tool matches %q. Try other words (what the tool acts on, and the action), or a server's alias.", query)
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
