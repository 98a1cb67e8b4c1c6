package tools

import (
	"bytes"
	"cmp"
	"fmt"
	"iter"
	"slices"
	"strings"
)

// nameIndex holds the catalog's names for the checks across servers. It
// is kept up to date tool by tool (add, remove), so that a Builder changes
// it by one server's part; every list is in display-name order, the order
// in which a catalog built at once meets its tools, so that the first match
// is the same either way.
type nameIndex struct {
	byName map[string][]*Tool // lower-case tool name → tools
	bySkel map[string][]*Tool // skeleton of the name → tools
	// samePlace: server and skeleton of the tool's name → tools
	// (look-alikes on one server).
	samePlace map[[2]string][]*Tool
	// tools counts each alias's tools; aliases: lower-case alias → the
	// aliases that lower to it, aliasSkel: skeleton → aliases, each in the
	// order of their tools' display names (aliasOrder).
	tools     map[string]int
	aliases   map[string][]string
	aliasSkel map[string][]string
	// known has two bits set for each lower-case name and alias ever
	// added (see maybe): most words of a text are neither, and looking
	// each up in byName and aliases (maps of thousands, out of the cache)
	// was a tenth of a catalog's time. Removals leave their bits: a
	// word that only may be known is looked up.
	known *[knownWords]uint64
}

const knownWords = 1 << 12 // 256K bits: 32 KB

func knownBits(key uint64) (uint64, uint64) {
	return key & (knownWords*64 - 1), key >> 32 & (knownWords*64 - 1)
}

func (ix *nameIndex) know(lower string) {
	a, b := knownBits(wordKey(lower))
	ix.known[a>>6] |= 1 << (a & 63)
	ix.known[b>>6] |= 1 << (b & 63)
}

// maybe says whether the word whose wordKey is key may be a name or an
// alias of the index (false: it is neither).
func (ix *nameIndex) maybe(key uint64) bool {
	a, b := knownBits(key)
	return ix.known[a>>6]&(1<<(a&63)) != 0 && ix.known[b>>6]&(1<<(b&63)) != 0
}

func newNameIndex() *nameIndex {
	return &nameIndex{byName: map[string][]*Tool{}, bySkel: map[string][]*Tool{}, samePlace: map[[2]string][]*Tool{},
		tools: map[string]int{}, aliases: map[string][]string{}, aliasSkel: map[string][]string{}, known: new([knownWords]uint64)}
}

// add indexes t, whose Server, Name and Def must not change while it is
// indexed.
func (ix *nameIndex) add(t *Tool) {
	ix.know(strings.ToLower(t.Name))
	insertTool(ix.byName, strings.ToLower(t.Name), t)
	sk := skeleton(t.Name)
	insertTool(ix.bySkel, sk, t)
	insertTool(ix.samePlace, [2]string{t.Server, sk}, t)
	ix.tools[t.Server]++
	if ix.tools[t.Server] == 1 {
		ix.know(strings.ToLower(t.Server))
		insertAlias(ix.aliases, strings.ToLower(t.Server), t.Server)
		insertAlias(ix.aliasSkel, skeleton(t.Server), t.Server)
	}
}

// remove takes t (as added) out of the index.
func (ix *nameIndex) remove(t *Tool) {
	removeTool(ix.byName, strings.ToLower(t.Name), t)
	sk := skeleton(t.Name)
	removeTool(ix.bySkel, sk, t)
	removeTool(ix.samePlace, [2]string{t.Server, sk}, t)
	ix.tools[t.Server]--
	if ix.tools[t.Server] == 0 {
		delete(ix.tools, t.Server)
		removeAlias(ix.aliases, strings.ToLower(t.Server), t.Server)
		removeAlias(ix.aliasSkel, skeleton(t.Server), t.Server)
	}
}

// aliasOf is the alias whose lower case is lower (the first in display
// order when several are), or "".
func (ix *nameIndex) aliasOf(lower []byte) string {
	if as := ix.aliases[string(lower)]; len(as) > 0 {
		return as[0]
	}
	return ""
}

func insertTool[K comparable](m map[K][]*Tool, key K, t *Tool) {
	list := m[key]
	i, _ := slices.BinarySearchFunc(list, t.Display, func(e *Tool, d string) int { return strings.Compare(e.Display, d) })
	m[key] = slices.Insert(list, i, t)
}

func removeTool[K comparable](m map[K][]*Tool, key K, t *Tool) {
	list := slices.DeleteFunc(m[key], func(e *Tool) bool { return e == t })
	if len(list) == 0 {
		delete(m, key)
		return
	}
	m[key] = list
}

func insertAlias(m map[string][]string, key, alias string) {
	list := m[key]
	i, _ := slices.BinarySearchFunc(list, alias, aliasOrder)
	m[key] = slices.Insert(list, i, alias)
}

func removeAlias(m map[string][]string, key, alias string) {
	list := slices.DeleteFunc(m[key], func(a string) bool { return a == alias })
	if len(list) == 0 {
		delete(m, key)
		return
	}
	m[key] = list
}

// aliasOrder compares aliases as the display names of their tools sort
// (a+"." with b+"."): aliases hold no ".", so the order of two servers'
// tools is that of their aliases so compared.
func aliasOrder(a, b string) int {
	n := min(len(a), len(b))
	if c := strings.Compare(a[:n], b[:n]); c != 0 {
		return c
	}
	switch {
	case len(a) == len(b):
		return 0
	case len(a) < len(b):
		return cmp.Compare('.', b[n])
	default:
		return cmp.Compare(a[n], '.')
	}
}

// wordSpans yields the start and end of each identifier text holds, as
// the regular expression [A-Za-z0-9][A-Za-z0-9_-]* would find them
// (leftmost, longest), with what joins them left in the gaps:
// "fs.read_file", "fs/read_file", "fs__read_file", "fs:read_file" are
// alias and tool; plain words too. By hand: the regexp package's matcher
// took half of a catalog's flagging time (every description of every
// tool is split); and as an iterator, not a slice of spans, which was a
// tenth of a start's allocations.
func wordSpans(text string) iter.Seq2[int, int] {
	return func(yield func(int, int) bool) {
		for i := 0; i < len(text); {
			if !isAlnum(text[i]) {
				i++
				continue
			}
			j := i + 1
			for j < len(text) && (isAlnum(text[j]) || text[j] == '_' || text[j] == '-') {
				j++
			}
			if !yield(i, j) {
				return
			}
			i = j
		}
	}
}

// lowerInto is s in lower case (ASCII letters only, as wordSpans's words
// hold no other), written into buf: for map lookups by a word without
// making a string of it.
func lowerInto(buf []byte, s string) []byte {
	buf = buf[:0]
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf = append(buf, c)
	}
	return buf
}

// wordKey is a hash of s in lower case (ASCII letters only), FNV-1a: the
// key of a Builder's postings. Two words with one key only make a change
// re-check a tool it did not need to.
func wordKey(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		h = (h ^ uint64(c)) * 1099511628211
	}
	return h
}

func isAlnum(b byte) bool {
	return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9'
}

// namesOther returns a tool of a server other than alias that text names,
// or "": as alias.tool, alias/tool, alias:tool or alias__tool in any case,
// as a distinctive tool name (one with _ or - or a capital inside) that
// only other servers have, or as a tool name in a text that names its
// server ("the read_text_file tool of the fs server"). Each word is one
// lookup in the index.
func (ix *nameIndex) namesOther(alias, text string) string {
	lowerAlias := strings.ToLower(alias)
	var mentioned map[string]bool // other servers' aliases named in text (made for the first)
	// One pass over the words (two took a tenth of a catalog's time): a
	// wire name anywhere wins; otherwise the first word that names a tool,
	// as alias.tool or distinctively (found), or, before it, a plain name
	// of a tool whose server the text mentions anywhere (pending, decided
	// once every word is read).
	found := ""
	var pending [][]*Tool
	var buf, prevBuf [64]byte
	var prev []byte // the word before, lower case, when it ends just before one of "./:"
	prevEnd := -2
	for i, j := range wordSpans(text) {
		w := lowerInto(buf[:], text[i:j])
		known := ix.maybe(wordKey(text[i:j])) // wordKey lowers as it reads
		if known {
			if a := ix.aliasOf(w); a != "" && string(w) != lowerAlias {
				if mentioned == nil {
					mentioned = map[string]bool{}
				}
				mentioned[a] = true
			}
		}
		// A wire name: alias__tool.
		if a, tool, ok := bytes.Cut(w, []byte("__")); ok && string(a) != lowerAlias {
			if d := ix.toolOf(ix.aliasOf(a), tool); d != "" {
				return d
			}
		}
		if found != "" {
			continue
		}
		// alias.tool, alias/tool, alias:tool (the alias word just before).
		if i > 0 && prevEnd == i-1 && strings.IndexByte("./:", text[i-1]) >= 0 {
			if a := ix.aliasOf(prev); a != "" && string(prev) != lowerAlias {
				if d := ix.toolOf(a, w); d != "" {
					found = d
					continue
				}
			}
		}
		prev, prevEnd = append(prevBuf[:0], w...), j
		if !known {
			continue
		}
		idx, ok := ix.byName[string(w)]
		if !ok || slices.ContainsFunc(idx, func(o *Tool) bool { return o.Server == alias }) {
			continue
		}
		if orig := text[i:j]; strings.ContainsAny(orig, "_-") || hasInnerUpper(orig) {
			found = idx[0].Display
			continue
		}
		pending = append(pending, idx)
	}
	for _, idx := range pending {
		for _, o := range idx {
			if mentioned[o.Server] {
				return o.Display
			}
		}
	}
	return found
}

func hasInnerUpper(s string) bool {
	for i := 1; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' && 'a' <= s[i-1] && s[i-1] <= 'z' {
			return true
		}
	}
	return false
}

// toolOf is the display name of alias's tool called name (lower case),
// or "".
func (ix *nameIndex) toolOf(alias string, name []byte) string {
	if alias == "" {
		return ""
	}
	for _, o := range ix.byName[string(name)] {
		if o.Server == alias {
			return o.Display
		}
	}
	return ""
}

// alike says which names t's name or server's alias look like: on the
// same server, names equal but for case or confusable characters; on
// other servers, the same name, or one that looks like it; and other
// aliases that look like t's.
func (ix *nameIndex) alike(t *Tool) []string {
	var out []string
	sk := skeleton(t.Name)
	for _, b := range ix.samePlace[[2]string{t.Server, sk}] {
		switch {
		case b.Display == t.Display:
		case strings.EqualFold(t.Name, b.Name):
			out = append(out, "its name differs only in case from "+b.Display+" on the same server")
		default:
			out = append(out, "its name looks like "+b.Display+" on the same server (characters easy to confuse: "+confusedIn(t.Name, b.Name)+")")
		}
	}
	for _, a := range ix.aliasSkel[skeleton(t.Server)] {
		if a != t.Server {
			out = append(out, fmt.Sprintf("its server's alias %s looks like %s, another server's", t.Server, a))
			break
		}
	}
	same, like := "", ""
	for _, b := range ix.bySkel[sk] {
		if b.Server == t.Server || (b.Name == t.Name && same != "") || (b.Name != t.Name && like != "") {
			continue // only the first of each is named: the rest need no reading
		}
		// The same name on two servers is common (github.list_issues,
		// linear.list_issues): flagged when one passes for the other (a
		// description much like the other's, or none of its own), or when
		// the names differ in a letter or digit easy to confuse (a
		// deliberate look-alike, not a naming convention).
		deliberate := strings.ReplaceAll(strings.ToLower(t.Name), "-", "_") != strings.ReplaceAll(strings.ToLower(b.Name), "-", "_") || t.Name != b.Name && strings.EqualFold(t.Name, b.Name)
		if !deliberate && !passesFor(t, b) {
			continue
		}
		if b.Name == t.Name {
			if same == "" {
				same = b.Display
			}
		} else if like == "" {
			like = b.Display
		}
		if same != "" && like != "" {
			break
		}
	}
	if same != "" {
		out = append(out, "its name is also "+same+"'s, and its description is much like it: one may pass for the other")
	}
	if like != "" {
		out = append(out, "its name looks like "+like+" on another server (characters easy to confuse: "+confusedIn(t.Name, strings.TrimPrefix(like, like[:strings.IndexByte(like, '.')+1]))+")")
	}
	return out
}

// passesFor reports whether a's description says little that b's does
// not: once the words of their names are set aside, a holds no word of
// its own, or at least half of the fewer words are shared.
func passesFor(a, b *Tool) bool {
	if a.Def.Description == b.Def.Description {
		// Equal descriptions hold equal words: a passes for b. Said at
		// once, as it is the common case (one server run twice, or a fork)
		// and reading the words made half of a start's garbage with 100
		// servers of the same 50 tools.
		return true
	}
	name := map[string]bool{}
	for _, w := range strings.Fields(nameWords(a.Name) + " " + nameWords(b.Name)) {
		name[w] = true
	}
	wa, wb := contentWords(a.Def.Description, name), contentWords(b.Def.Description, name)
	if len(wa) == 0 {
		return true
	}
	if len(wb) == 0 {
		return false
	}
	shared := 0
	for w := range wa {
		if wb[w] {
			shared++
		}
	}
	return 2*shared >= min(len(wa), len(wb))
}

// contentWords are text's words of three letters or more, lower case,
// but for skip and a few of the commonest.
func contentWords(text string, skip map[string]bool) map[string]bool {
	out := map[string]bool{}
	lower := lowerASCII(text)
	for i, j := range wordSpans(lower) {
		w := lower[i:j]
		w = strings.TrimSuffix(w, "s")
		if len(w) < 3 || skip[w] || skip[w+"s"] || commonWords[w] {
			continue
		}
		out[w] = true
	}
	return out
}

var commonWords = map[string]bool{"the": true, "and": true, "for": true, "with": true, "thi": true, "that": true, "from": true, "into": true, "are": true, "can": true, "its": true, "use": true, "all": true, "one": true, "your": true, "you": true, "return": true, "given": true, "specified": true}

// confusable are the ASCII sequences a reader easily takes for another,
// and what skeleton makes of each: rn for m, vv for w, cl for d, and these
// bytes (0 for o, 1 and i for l, 5 for s, 3 for e, q for g, - and . for _).
var confusable = func() (t [256]byte) {
	for i := range t {
		t[i] = byte(i)
	}
	for _, p := range []string{"0o", "1l", "il", "5s", "3e", "qg", "-_", "._"} {
		t[p[0]] = p[1]
	}
	return t
}()

// skeleton is what a name looks like to a hurried reader: lower case, and
// each confusable replaced by what it is taken for, from the left; a
// trailing "_" (or "-") goes too. By hand: a strings.Replacer with
// sequences of two bytes copies every name twice, and skeletons are made
// for every tool and server of a catalog.
func skeleton(name string) string {
	name = strings.ToLower(name)
	b := make([]byte, 0, len(name))
	for i := 0; i < len(name); i++ {
		c := name[i]
		if i+1 < len(name) {
			switch name[i : i+2] {
			case "rn":
				c, i = 'm', i+1
			case "vv":
				c, i = 'w', i+1
			case "cl":
				c, i = 'd', i+1
			}
		}
		b = append(b, confusable[c])
	}
	return strings.TrimRight(string(b), "_")
}

// confusedIn names the characters that make a and b look alike, for the
// warning: those that differ, position by position, when the names are as
// long; otherwise the multi-letter look-alikes (rn and m) they hold.
func confusedIn(a, b string) string {
	var out []string
	add := func(x, y string) {
		if x > y {
			x, y = y, x
		}
		if p := x + " and " + y; !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	la, lb := strings.ToLower(a), strings.ToLower(b)
	if len(la) == len(lb) {
		for i := range len(la) {
			if la[i] != lb[i] {
				add(la[i:i+1], lb[i:i+1])
			}
		}
	} else {
		for _, p := range [][2]string{{"rn", "m"}, {"vv", "w"}, {"cl", "d"}} {
			if (strings.Contains(la, p[0]) && strings.Contains(lb, p[1])) || (strings.Contains(la, p[1]) && strings.Contains(lb, p[0])) {
				out = append(out, p[0]+" and "+p[1])
			}
		}
	}
	if la != a || lb != b {
		out = append(out, "case")
	}
	if len(out) == 0 {
		return "several"
	}
	return strings.Join(out, ", ")
}
