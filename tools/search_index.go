package tools

import (
	"maps"
	"math"
	"slices"
	"strings"
	"unicode"
)

// The fields of a tool that are searched.
const (
	fName = iota
	fTitle
	fServer
	fParams
	fDesc
	fAbout // the server's own words about itself: its name and instructions
	nFields
)

// searchConfig is how the search weighs what it finds. Search uses
// defaultSearchConfig; the tests measure each part against it
// (TestSearchAblation).
type searchConfig struct {
	// weight is how much a word counts in each field: a word of the name
	// says most about what a tool does, one of its parameters least (they
	// say what it takes). b is how much a field's length damps a match
	// (BM25F's b): descriptions run long, names do not.
	weight, b [nFields]float64
	k1        float64
	// synonym is how much a query word's synonyms count. A word and its
	// synonyms are one term, saturated once: a tool that holds both is
	// not counted twice.
	synonym float64
	// surface is how much a word's own form counts beside its stem:
	// "servers" meets "Lists all servers" better than "a server's name".
	surface float64
	// decompound is how much the two words of a compound word of a name
	// count ("hostpool": "host" and "pool"), when both are words of the
	// catalog.
	decompound float64
	// commonParams: a parameter most of its server's tools take (tenant,
	// subscription, owner, repo) counts by how few take it, and hardly
	// counts in a word's rarity.
	commonParams bool
	// compounds: a word split at a change of case is also kept whole
	// ("MySQL": "my", "sql" and "mysql").
	compounds bool
	// readBoost multiplies the score of the read-only tools for a request
	// put as a question ("what…", "list…").
	readBoost float64
	// related is how much a query word's neighbours in the catalog count:
	// the words that share tools with it far more often than chance
	// (normalised PMI over the tools' names, titles and descriptions at
	// least relatedNPMI, in relatedMin tools or more; the relatedTop best).
	// 0 leaves them out.
	related     float64
	relatedMin  int
	relatedNPMI float64
	relatedTop  int
}

func defaultSearchConfig() searchConfig {
	return searchConfig{
		weight:       [nFields]float64{fName: 3, fTitle: 2, fServer: 2, fParams: 0.5, fDesc: 1, fAbout: 0},
		b:            [nFields]float64{fName: 0.3, fTitle: 0.3, fServer: 0, fParams: 0.5, fDesc: 0.75, fAbout: 0.75},
		k1:           1.2,
		synonym:      0.5,
		surface:      0.5,
		decompound:   0.5,
		commonParams: true,
		compounds:    true,
		readBoost:    1.5,
		relatedMin:   2,
		relatedNPMI:  0.5,
		relatedTop:   3,
	}
}

// index is a BM25F index of a catalog's tools, inverted: for each term,
// the tools that hold it, with its frequency there (weighted by field and
// normalised by the field's length), so that a search only visits the
// tools that share a term with the query.
type index struct {
	cfg      searchConfig
	tools    []Tool
	postings map[string][]posting
	idf      map[string]float64
	// related are each term's neighbours in the catalog, with their
	// normalised PMI (see searchConfig.related); nil when not used.
	related map[string][]neighbour
}

type neighbour struct {
	term string
	npmi float64
}

type posting struct {
	doc int32
	tf  float32
}

// surfaceMark starts the term that holds a word's own form when its stem
// differs ("=servers" beside "server"); no word holds it.
const surfaceMark = "="

// newIndex indexes tools; about holds each server's own words about itself
// (its name and instructions from initialize), by alias.
func newIndex(tools []Tool, about map[string]string, cfg searchConfig) *index {
	n := len(tools)
	x := &index{cfg: cfg, tools: tools, postings: map[string][]posting{}, idf: map[string]float64{}}

	// How many of each server's tools take each parameter, by name.
	schemas := make([]map[string]string, n)
	serverSize := map[string]int{}
	takers := map[[2]string]int{}
	for i, t := range tools {
		serverSize[t.Server]++
		if t.Def != nil {
			schemas[i] = params(t.Def.InputSchema)
			for name := range schemas[i] {
				takers[[2]string{t.Server, name}]++
			}
		}
	}
	// The catalog's words, to find the compounds of names.
	vocab := map[string]bool{}
	if cfg.decompound > 0 {
		for i, t := range tools {
			texts := []string{t.Name}
			if t.Def != nil {
				texts = append(texts, t.Def.Title, t.Def.Description)
				for name, desc := range schemas[i] {
					texts = append(texts, name, desc)
				}
			}
			for _, text := range texts {
				for _, w := range words(text, false) {
					vocab[w], vocab[stem(w)] = true, true
				}
			}
		}
	}

	tf := make([][nFields]map[string]float64, n)
	length := make([][nFields]float64, n)
	var avgLen [nFields]float64
	// A term's document frequency counts each tool by how surely it holds
	// the term: a parameter the whole server takes counts for little.
	df := map[string]float64{}
	for i, t := range tools {
		sure := map[string]float64{}
		put := func(f int, term string, w, certainty float64) {
			tf[i][f][term] += w
			sure[term] = max(sure[term], certainty)
		}
		add := func(f int, text string, w, certainty float64) {
			if w <= 0 {
				return
			}
			if tf[i][f] == nil {
				tf[i][f] = map[string]float64{}
			}
			for _, word := range words(text, cfg.compounds) {
				if stopWords[word] {
					continue
				}
				term := stem(word)
				put(f, term, w, certainty)
				length[i][f] += w
				if cfg.surface > 0 && term != word {
					put(f, surfaceMark+word, w, certainty)
				}
				if f == fName && cfg.decompound > 0 {
					for _, part := range split(word, vocab) {
						if !stopWords[part] {
							put(f, stem(part), w*cfg.decompound, certainty)
						}
					}
				}
			}
		}
		add(fName, t.Name, 1, 1)
		add(fServer, t.Server, 1, 1)
		if cfg.weight[fAbout] > 0 {
			add(fAbout, about[t.Server], 1, 1)
		}
		if t.Def != nil {
			add(fTitle, t.Def.Title, 1, 1)
			if t.Def.Annotations != nil {
				add(fTitle, t.Def.Annotations.Title, 1, 1)
			}
			add(fDesc, t.Def.Description, 1, 1)
			for name, desc := range schemas[i] {
				w := 1.0
				if cfg.commonParams {
					// 1 for a parameter only this tool takes, near 0 for
					// one they all take.
					w = 1 - float64(takers[[2]string{t.Server, name}]-1)/float64(serverSize[t.Server])
				}
				add(fParams, name, w, w)
				add(fParams, desc, 0.5*w, w)
			}
		}
		for term, p := range sure {
			df[term] += p
		}
		for f := range nFields {
			avgLen[f] += length[i][f]
		}
	}
	for f := range nFields {
		if n > 0 {
			avgLen[f] /= float64(n)
		}
		if avgLen[f] == 0 {
			avgLen[f] = 1
		}
	}
	for term, d := range df {
		x.idf[term] = math.Log(1 + (float64(n)-d+0.5)/(d+0.5))
	}
	if cfg.related > 0 {
		x.related = related(tf, cfg)
	}
	for i := range tools {
		combined := map[string]float64{}
		for f := range nFields {
			norm := 1 - cfg.b[f] + cfg.b[f]*length[i][f]/avgLen[f]
			for term, c := range tf[i][f] {
				combined[term] += cfg.weight[f] * c / norm
			}
		}
		for term, c := range combined {
			x.postings[term] = append(x.postings[term], posting{int32(i), float32(c)})
		}
	}
	return x
}

// related finds each term's neighbours: the terms of the tools' names,
// titles and descriptions that share tools with it far more often than
// chance would have them.
func related(tf [][nFields]map[string]float64, cfg searchConfig) map[string][]neighbour {
	n := float64(len(tf))
	df := map[string]float64{}
	co := map[[2]string]float64{}
	for _, fields := range tf {
		set := map[string]bool{}
		for _, f := range []int{fName, fTitle, fDesc} {
			for term := range fields[f] {
				if !strings.HasPrefix(term, surfaceMark) {
					set[term] = true
				}
			}
		}
		ts := slices.Sorted(maps.Keys(set))
		for i, a := range ts {
			df[a]++
			for _, b := range ts[i+1:] {
				co[[2]string{a, b}]++
			}
		}
	}
	out := map[string][]neighbour{}
	for pair, c := range co {
		if c < float64(cfg.relatedMin) || c == n {
			continue
		}
		a, b := pair[0], pair[1]
		npmi := math.Log(n*c/(df[a]*df[b])) / -math.Log(c/n)
		if npmi >= cfg.relatedNPMI {
			out[a] = append(out[a], neighbour{b, npmi})
			out[b] = append(out[b], neighbour{a, npmi})
		}
	}
	for term, ns := range out {
		slices.SortFunc(ns, func(p, q neighbour) int {
			if p.npmi != q.npmi {
				if p.npmi > q.npmi {
					return -1
				}
				return 1
			}
			return strings.Compare(p.term, q.term)
		})
		out[term] = ns[:min(len(ns), cfg.relatedTop)]
	}
	return out
}

// split cuts a word into two words of vocab of three letters or more
// ("hostpool": "host", "pool"), the longest first part first; nil when it
// cannot.
func split(w string, vocab map[string]bool) []string {
	for i := len(w) - 3; i >= 3; i-- {
		if vocab[w[:i]] && vocab[w[i:]] {
			return []string{w[:i], w[i:]}
		}
	}
	return nil
}

type ranked struct {
	doc   int
	score float64
}

// rank scores the tools (all, or one server's) that share a term with
// query, best first.
func (x *index) rank(query, server string) []ranked {
	ws := words(query, x.cfg.compounds)
	// A request that starts "what…", "which…" or "show…" asks to read: tools
	// that only read get more, and "show" itself names no tool.
	question := len(ws) > 0 && questionWords[ws[0]]
	if len(ws) > 0 && intentOnly[ws[0]] {
		ws = ws[1:]
	}
	concepts := x.concepts(ws)

	scores := make([]float64, len(x.tools))
	tf := make([]float64, len(x.tools))
	var hit, touched []int
	for _, c := range concepts {
		// The concept is one term: its frequency is the sum of its terms'
		// (each by its weight), its idf the least of theirs (as if all
		// the tools that hold any held one term), so that a rare synonym
		// counts no more than the word.
		idf := math.Inf(1)
		for term := range c.terms {
			if len(x.postings[term]) > 0 {
				idf = min(idf, x.idf[term])
			}
		}
		touched = touched[:0]
		for _, term := range slices.Sorted(maps.Keys(c.terms)) { // in order: sums come out the same each time
			w := c.terms[term]
			for _, p := range x.postings[term] {
				if tf[p.doc] == 0 {
					touched = append(touched, int(p.doc))
				}
				tf[p.doc] += w * float64(p.tf)
			}
		}
		for _, d := range touched {
			if scores[d] == 0 {
				hit = append(hit, d)
			}
			scores[d] += c.weight * idf * tf[d] * (x.cfg.k1 + 1) / (tf[d] + x.cfg.k1)
			tf[d] = 0
		}
	}

	out := make([]ranked, 0, len(hit))
	for _, i := range hit {
		t := x.tools[i]
		if server != "" && t.Server != server || scores[i] <= 0 {
			continue
		}
		s := scores[i]
		if a := t.Def.Annotations; question && a != nil && a.ReadOnlyHint {
			s *= x.cfg.readBoost
		}
		out = append(out, ranked{i, s})
	}
	// Best first; ties in catalog order, so that answers are stable.
	slices.SortFunc(out, func(a, b ranked) int {
		if a.score != b.score {
			if a.score > b.score {
				return -1
			}
			return 1
		}
		return a.doc - b.doc
	})
	return out
}

// concept is what one query word (or several that are synonyms) stands
// for: terms, each with the weight its frequency counts by, scored as one
// term, times weight.
type concept struct {
	terms  map[string]float64
	weight float64
}

// concepts turns a query's words into what to look for: each word with its
// synonyms (query words that are synonyms of each other are one concept),
// and apart, for less, a word's own form.
func (x *index) concepts(ws []string) []concept {
	var stems []string
	var out []concept
	seen := map[string]bool{}
	for _, w := range ws {
		if stopWords[w] {
			continue
		}
		s := stem(w)
		if !seen[s] {
			seen[s] = true
			stems = append(stems, s)
		}
		if x.cfg.surface > 0 && s != w && !seen[surfaceMark+w] {
			seen[surfaceMark+w] = true
			out = append(out, concept{map[string]float64{surfaceMark + w: 1}, x.cfg.surface})
		}
	}
	// Union-find over the stems: synonyms of each other share a group.
	group := make([]int, len(stems))
	for i := range group {
		group[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		if group[i] != i {
			group[i] = find(group[i])
		}
		return group[i]
	}
	if x.cfg.synonym > 0 {
		for i, s := range stems {
			for j, o := range stems {
				if i != j && slices.Contains(synonyms[s], o) {
					group[find(j)] = find(i)
				}
			}
		}
	}
	byGroup := map[int]map[string]float64{}
	for i, s := range stems {
		g := find(i)
		c := byGroup[g]
		if c == nil {
			c = map[string]float64{}
			byGroup[g] = c
			out = append(out, concept{c, 1})
		}
		c[s] = 1
		if x.cfg.synonym > 0 {
			for _, syn := range synonyms[s] {
				c[syn] = max(c[syn], x.cfg.synonym)
			}
		}
	}
	// A word's neighbours in the catalog, apart: each its own concept, so
	// that a common neighbour does not lower the word's rarity.
	for _, s := range stems {
		for _, nb := range x.related[s] {
			if !seen[nb.term] {
				out = append(out, concept{map[string]float64{nb.term: 1}, x.cfg.related * nb.npmi})
			}
		}
	}
	return out
}

// terms are a text's words for searching: lower case, split at case changes,
// digits, '_', '-' and '.', stop words left out, each reduced to a stem.
func terms(text string) []string {
	var out []string
	for _, w := range words(text, false) {
		if !stopWords[w] {
			out = append(out, stem(w))
		}
	}
	return out
}

// words splits "listDirectory", "list_directory" and "list-directory" alike,
// in lower case. With compounds, a word split at a change of case is also
// kept whole: "MySQL" is "my", "sql" and "mysql".
func words(text string, compounds bool) []string {
	var out []string
	var cur []rune
	rs := []rune(text)
	start, parts := 0, 0 // where the run of letters and digits began; its case changes
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	whole := func(end int) {
		if compounds && parts > 0 {
			out = append(out, strings.ToLower(string(rs[start:end])))
		}
		start, parts = end+1, 0
	}
	for i, r := range rs {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			// a lower-to-upper change starts a word: listDirectory
			if unicode.IsUpper(r) && i > 0 && unicode.IsLower(rs[i-1]) {
				flush()
				parts++
			}
			cur = append(cur, r)
		default:
			flush()
			whole(i)
		}
	}
	flush()
	whole(len(rs))
	return out
}

// stem strips the common English endings, so that "files", "listing" and
// "deleted" meet "file", "list" and "delete". (Crude next to a Porter
// stemmer, and enough for tool names and short descriptions: Porter2
// measured no better on the retrieval sets.)
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
