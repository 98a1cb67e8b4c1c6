package tools

import (
	"encoding/json"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"

	"deckhand/clean"
)

// Flag is one sign, in a tool's definition, of an attempt to steer the
// model or fool the person: a warning for the person deciding, never a
// verdict. Text quotes the definition (cleaned, but untrusted: escape it
// where it is shown).
type Flag struct {
	Kind string `json:"kind"`
	Text string `json:"text"`
}

// The kinds of flag. All but KindCollision and KindCleaned are high risk:
// a tool so flagged is quarantined (not offered to the model) until the
// person releases it (see servers.Pins.Quarantined).
const (
	KindHidden       = "hidden"       // invisible or control characters in a schema, which the model gets as sent
	KindCleaned      = "cleaned"      // the same in a title or description, removed before anyone reads it
	KindInstructions = "instructions" // text that gives the model orders (override, fake system text, no confirmation)
	KindConcealment  = "concealment"  // asks the model to hide something from the person
	KindExfiltration = "exfiltration" // reaches for secrets or sends data elsewhere
	KindShadowing    = "shadowing"    // names another server's tool: may change how that one is used
	KindPreference   = "preference"   // promotes itself over other tools
	KindParameter    = "parameter"    // a parameter asks for what the tool cannot need
	KindCollision    = "collision"    // a name or alias like another's
)

// High reports whether the flag is high risk (quarantines its tool).
func (f Flag) High() bool { return f.Kind != KindCollision && f.Kind != KindCleaned }

// Warnings are the flags' texts, for the approval and the terminal.
func (t Tool) Warnings() []string {
	out := make([]string, 0, len(t.Flags))
	for _, f := range t.Flags {
		out = append(out, f.Text)
	}
	return out
}

// Risky reports whether the tool has a high-risk flag.
func (t Tool) Risky() bool { return slices.ContainsFunc(t.Flags, Flag.High) }

// field is one string of a definition and where it is, for the warning
// (where: made only for a flag, as most strings earn none).
type field struct {
	text   string
	key    string // "title", "description", "annotations' title"; in a schema its key ("enum"...), "" for a parameter's name
	param  string // the parameter it belongs to, for parameter checks
	output bool   // in the output schema
	name   bool   // the text is a name (parameter name): split into words
	schema bool   // in a schema: sent to the model as it is (not cleaned)
}

// where says where f is: "description", "parameter path's description",
// "output parameter name x", ...
func (f *field) where() string {
	label := ""
	if f.output {
		label = "output "
	}
	switch {
	case !f.schema:
		return f.key
	case f.name:
		return label + "parameter name " + shownName(f.param)
	case f.param == "":
		return "the schema's " + f.key
	}
	return label + "parameter " + shownName(f.param) + "'s " + f.key
}

// fields lists every string of a definition that the model reads: title,
// description, annotations' title, and, in the input and output schemas
// (nested ones too), each parameter's name, title and description, and
// enum, const, default and example values.
func fields(t *Tool, out []field) []field {
	d := t.Raw
	out = append(out[:0], field{key: "title", text: d.Title}, field{key: "description", text: d.Description})
	if d.Annotations != nil {
		out = append(out, field{key: "annotations' title", text: d.Annotations.Title})
	}
	for _, s := range []struct {
		output bool
		schema any
	}{{false, d.InputSchema}, {true, d.OutputSchema}} {
		if s.schema == nil {
			continue
		}
		var v any
		switch x := s.schema.(type) {
		case map[string]any:
			v = x
		case json.RawMessage:
			if json.Unmarshal(x, &v) != nil {
				continue
			}
		default:
			raw, err := json.Marshal(x)
			if err != nil || json.Unmarshal(raw, &v) != nil {
				continue
			}
		}
		walkSchema(v, s.output, "", &out, 0)
	}
	return out
}

// walkSchema collects the strings of a JSON schema; param is the
// parameter the schema describes ("" at the top).
func walkSchema(v any, output bool, param string, out *[]field, depth int) {
	if depth > 32 {
		return
	}
	switch x := v.(type) {
	case map[string]any:
		for _, k := range []string{"title", "description"} {
			if s, ok := x[k].(string); ok {
				*out = append(*out, field{key: k, text: s, param: param, output: output, schema: true})
			}
		}
		for _, k := range []string{"enum", "examples", "const", "default"} {
			if v, ok := x[k]; ok {
				walkValues(v, field{key: k, param: param, output: output, schema: true}, out, depth)
			}
		}
		if props, ok := x["properties"].(map[string]any); ok {
			for _, name := range sortedKeys(props) {
				p := name
				if param != "" {
					p = param + "." + name
				}
				*out = append(*out, field{text: name, param: p, output: output, name: true, schema: true})
				walkSchema(props[name], output, p, out, depth+1)
			}
		}
		for _, k := range sortedKeys(x) {
			switch k {
			case "properties", "title", "description", "enum", "examples", "const", "default":
				continue
			}
			walkSchema(x[k], output, param, out, depth+1)
		}
	case []any:
		for _, e := range x {
			walkSchema(e, output, param, out, depth+1)
		}
	}
}

// walkValues collects the strings of an enum, const, default or examples
// value as fields like at.
func walkValues(v any, at field, out *[]field, depth int) {
	switch x := v.(type) {
	case string:
		at.text = x
		*out = append(*out, at)
	case []any:
		for _, e := range x {
			if depth < 32 {
				walkValues(e, at, out, depth+1)
			}
		}
	}
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// shownName is a parameter's name (the server's, untrusted) as a flag
// shows it: one line, nothing hidden, not too long.
func shownName(name string) string {
	name = clean.Line(name)
	if r := []rune(name); len(r) > 60 {
		name = string(r[:60]) + "…"
	}
	return name
}

// nameWords makes a name ("ignoreAllPrevious_instructions") words for the
// text checks ("ignore all previous instructions").
func nameWords(name string) string {
	var b strings.Builder
	prev := rune(0)
	for _, r := range name {
		switch {
		case r == '_' || r == '-' || r == '.' || r == ' ':
			b.WriteByte(' ')
		case unicode.IsUpper(r) && unicode.IsLower(prev):
			b.WriteByte(' ')
			b.WriteRune(unicode.ToLower(r))
		default:
			b.WriteRune(unicode.ToLower(r))
		}
		prev = r
	}
	return b.String()
}

// lowerASCII lowers ASCII letters only, so that byte offsets into the
// result are offsets into s (for quoting what matched).
// Text already in lower case (most of it) is returned as it is.
func lowerASCII(s string) string {
	i := 0
	for i < len(s) && (s[i] < 'A' || s[i] > 'Z') {
		i++
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	for ; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b.WriteByte(c)
	}
	return b.String()
}

// quote is a short, one-line rendering of untrusted text for a flag.
func quote(s string) string {
	s = strings.Join(strings.Fields(clean.Line(s)), " ")
	if r := []rune(s); len(r) > 80 {
		s = string(r[:80]) + "…"
	}
	return "\"" + s + "\""
}

var kindSays = map[string]string{
	KindInstructions: "gives the model orders",
	KindConcealment:  "asks the model to hide something from you",
	KindExfiltration: "reaches for secrets or sends data elsewhere",
	KindPreference:   "promotes itself over other tools",
}

// flag adds the flags of every tool: what its definition's strings say
// (every string: see fields), what they name of other servers' tools, and
// names that look like others (on the same server, or another's). The
// lookups across servers go through indexes built once (by name, by
// look-alike skeleton, by alias), so the cost is linear in the catalog's
// text whatever the number of servers. Called with c.tools sorted by
// display name.
func (c *Catalog) flag(memo *Memo) {
	ix := newNameIndex()
	for i := range c.tools {
		ix.add(&c.tools[i])
	}
	owns := make([]own, len(c.tools))
	inParallel(len(c.tools), func(i int) { owns[i] = memo.own(&c.tools[i]) })
	for i := range c.tools {
		t := &c.tools[i]
		t.Flags = allFlags(t, owns[i], ix)
	}
}

// inParallel runs f(0) … f(n-1) on as many goroutines as there are CPUs
// (reading definitions is most of a catalog's cost, and each is read
// alone), and returns when all have run. Fewer than minParallel run on
// the caller's goroutine: waking workers for a server of two tools cost
// more CPU than reading them (a tenth of a start with 4,400 servers went
// to the scheduler and futexes).
func inParallel(n int, f func(int)) {
	workers := min(n, runtime.GOMAXPROCS(0))
	if workers <= 1 || n < minParallel {
		for i := range n {
			f(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				f(i)
			}
		})
	}
	wg.Wait()
}

// allFlags are t's flags: those its definition earns by itself (own),
// then what it names of other servers' tools and the names it looks like,
// as ix holds them.
func allFlags(t *Tool, own own, ix *nameIndex) []Flag {
	return composeFlags(own, shadowing(t, own, ix), ix.alike(t))
}

// shadowing is the shadowing flag's text when t's strings name another
// server's tool, or "".
func shadowing(t *Tool, own own, ix *nameIndex) string {
	for _, f := range own.texts {
		if other := ix.namesOther(t.Server, f.text); other != "" {
			return "its " + f.where() + " names " + other + ", a tool of another server"
		}
	}
	return ""
}

// composeFlags puts a tool's flags together: its own, then shadowing
// (unless "") and the look-alikes, each kind once.
func composeFlags(own own, shadow string, alike []string) []Flag {
	flags := slices.Clone(own.flags)
	add := func(kind, text string) {
		if !slices.ContainsFunc(flags, func(f Flag) bool { return f.Kind == kind }) {
			flags = append(flags, Flag{Kind: kind, Text: text})
		}
	}
	if shadow != "" {
		add(KindShadowing, shadow)
	}
	for _, s := range alike {
		add(KindCollision, s)
	}
	return flags
}

// minParallel is the fewest definitions inParallel reads on several
// goroutines.
const minParallel = 8

// own is what a definition earns by itself: the flags of its own text,
// and its strings as the checks across servers read them.
type own struct {
	flags []Flag
	texts []field
}

// ownFlags flags what t's definition says by itself (every string: see
// fields), leaving the checks across tools to flag.
func ownFlags(t *Tool) own {
	var out own
	add := func(kind, text string) {
		if !slices.ContainsFunc(out.flags, func(f Flag) bool { return f.Kind == kind }) {
			out.flags = append(out.flags, Flag{Kind: kind, Text: text})
		}
	}
	buf := fieldBufs.Get().(*[]field)
	fs := fields(t, *buf)
	defer func() {
		clear(fs) // holds none of t's strings while pooled
		*buf = fs[:0]
		fieldBufs.Put(buf)
	}()
	descs := map[string]string{} // each parameter's description
	for _, f := range fs {
		if f.param != "" && !f.name && f.key == "description" {
			if _, ok := descs[f.param]; !ok {
				descs[f.param] = f.text
			}
		}
	}
	scope := &toolScope{tool: t}
	kept := 0
	for _, f := range fs {
		if f.text == "" {
			continue
		}
		text := f.text
		if what, hid := hiddenIn(f.text); hid {
			if f.schema {
				add(KindHidden, "its "+f.where()+" holds "+what+", which the model gets as it is")
			} else {
				add(KindCleaned, "its "+f.where()+" held "+what+" (removed before you or the model read it)")
			}
			text = clean.Text(text) // "ig\u200bnore" is read as "ignore"
		}
		if f.name {
			text = nameWords(text)
			if strings.Count(text, " ") < 2 {
				text = "" // a name of one or two words gives no orders
			}
		}
		// Each string is tried alone, with the signs whose words it holds:
		// trying each sign first on the whole definition, to keep only
		// those that matched there, ran every candidate's expression over
		// every string (a word as common as "you" or "other" makes one a
		// candidate), and took half of a catalog's time.
		for _, m := range allSigns(text, out.flags) {
			add(m.kind, "its "+f.where()+" "+kindSays[m.kind]+" ("+quote(m.text)+")")
		}
		if text != "" {
			// Kept in fs itself, before where the loop reads (the
			// memo keeps them: copied at the end, to their number).
			fs[kept] = f
			fs[kept].text = text
			kept++
		}
		if f.name {
			if m, ok := checkParam(nameWords(f.text), descs[f.param], scope); ok {
				add(KindParameter, "its parameter "+quote(f.param)+" asks for what the tool cannot need ("+quote(m)+")")
			}
		}
	}
	if kept > 0 {
		out.texts = slices.Clone(fs[:kept])
	}
	return out
}

// fieldBufs are the lists ownFlags reads a definition's strings into (a
// list made for each was a sixth of a catalog's garbage).
var fieldBufs = sync.Pool{New: func() any { return new([]field) }}

// Memo keeps what each definition earns by itself (ownFlags), by its
// hash, across the catalogs a registry builds: when one server's tools
// change, only its new definitions are read. Entries not used during the
// last round (see Round) are dropped. A nil *Memo keeps nothing. Safe for
// concurrent use.
type Memo struct {
	mu         sync.Mutex
	cur, older map[string]own
}

// own is what t's definition earns by itself, from the memo or worked
// out (and kept there).
func (m *Memo) own(t *Tool) own {
	o, ok := m.get(t.Hash)
	if !ok {
		o = ownFlags(t)
		m.put(t.Hash, o)
	}
	return o
}

func (m *Memo) get(hash string) (own, bool) {
	if m == nil || hash == "" {
		return own{}, false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if o, ok := m.cur[hash]; ok {
		return o, true
	}
	if o, ok := m.older[hash]; ok {
		if m.cur == nil {
			m.cur = map[string]own{}
		}
		m.cur[hash] = o
		return o, true
	}
	return own{}, false
}

func (m *Memo) put(hash string, o own) {
	if m == nil || hash == "" {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.cur == nil {
		m.cur = map[string]own{}
	}
	m.cur[hash] = o
}

// Round begins a round of builds (the registry's catalogs after one
// change): what the round before used is kept one round more.
func (m *Memo) Round() {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.older, m.cur = m.cur, map[string]own{}
	if m.older == nil {
		m.older = map[string]own{}
	}
}

// plainSpace are the formatting characters that hide nothing: tabs and
// line ends, CRLF included (Windows servers end lines so).
var plainSpace = strings.NewReplacer("\r\n", "", "\n", "", "\t", "")

// hiddenIn describes the first character of text a person would not see
// as it is, tabs and line ends apart.
func hiddenIn(text string) (string, bool) {
	if strings.ContainsAny(text, "\r\n\t") {
		text = plainSpace.Replace(text) // which copies even text without them
	}
	what, _, hid := clean.Hidden(text)
	return what, hid
}
