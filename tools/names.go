package tools

import (
	"fmt"
	"slices"
	"strings"
)

// nameIndex holds the catalog's names for the checks across servers.
type nameIndex struct {
	tools  []Tool
	byName map[string][]int // lower-case tool name → tools
	bySkel map[string][]int // skeleton of the name → tools
	// aliases: lower-case alias → the alias; aliasSkel: skeleton → aliases.
	aliases   map[string]string
	aliasSkel map[string][]string
	// samePlace: skeleton of server and tool → tools (look-alikes on one
	// server).
	samePlace map[string][]int
}

func newNameIndex(list []Tool) *nameIndex {
	ix := &nameIndex{tools: list, byName: map[string][]int{}, bySkel: map[string][]int{}, aliases: map[string]string{}, aliasSkel: map[string][]string{}, samePlace: map[string][]int{}}
	for i, t := range list {
		n := strings.ToLower(t.Name)
		ix.byName[n] = append(ix.byName[n], i)
		sk := skeleton(t.Name)
		ix.bySkel[sk] = append(ix.bySkel[sk], i)
		key := t.Server + "." + sk
		ix.samePlace[key] = append(ix.samePlace[key], i)
		la := strings.ToLower(t.Server)
		if _, ok := ix.aliases[la]; !ok {
			ix.aliases[la] = t.Server
			as := skeleton(t.Server)
			ix.aliasSkel[as] = append(ix.aliasSkel[as], t.Server)
		}
	}
	return ix
}

// wordSpans splits text into the identifiers it holds, as the regular
// expression [A-Za-z0-9][A-Za-z0-9_-]* would find them (leftmost,
// longest), with what joins them left in the gaps: "fs.read_file",
// "fs/read_file", "fs__read_file", "fs:read_file" are alias and tool;
// plain words too. By hand: the regexp package's matcher took half of a
// catalog's flagging time (every description of every tool is split).
func wordSpans(text string) [][2]int {
	var out [][2]int
	for i := 0; i < len(text); {
		if !isAlnum(text[i]) {
			i++
			continue
		}
		j := i + 1
		for j < len(text) && (isAlnum(text[j]) || text[j] == '_' || text[j] == '-') {
			j++
		}
		out = append(out, [2]int{i, j})
		i = j
	}
	return out
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
	locs := wordSpans(text)
	if len(locs) == 0 {
		return ""
	}
	lowerAlias := strings.ToLower(alias)
	mentioned := map[string]bool{} // other servers' aliases named in text
	for _, l := range locs {
		w := strings.ToLower(text[l[0]:l[1]])
		if a, ok := ix.aliases[w]; ok && w != lowerAlias {
			mentioned[a] = true
		}
		// A wire name: alias__tool.
		if a, tool, ok := strings.Cut(w, "__"); ok && a != lowerAlias {
			if d := ix.toolOf(ix.aliases[a], tool); d != "" {
				return d
			}
		}
	}
	for k, l := range locs {
		w := strings.ToLower(text[l[0]:l[1]])
		// alias.tool, alias/tool, alias:tool (the alias word just before).
		if k > 0 && l[0] > 0 && strings.ContainsRune("./:", rune(text[l[0]-1])) && locs[k-1][1] == l[0]-1 {
			prev := strings.ToLower(text[locs[k-1][0]:locs[k-1][1]])
			if a, ok := ix.aliases[prev]; ok && prev != lowerAlias {
				if d := ix.toolOf(a, w); d != "" {
					return d
				}
			}
		}
		idx, ok := ix.byName[w]
		if !ok {
			continue
		}
		own := slices.ContainsFunc(idx, func(i int) bool { return ix.tools[i].Server == alias })
		if own {
			continue
		}
		orig := text[l[0]:l[1]]
		distinctive := strings.ContainsAny(orig, "_-") || hasInnerUpper(orig)
		for _, i := range idx {
			o := ix.tools[i]
			if distinctive || mentioned[o.Server] {
				return o.Display
			}
		}
	}
	return ""
}

func hasInnerUpper(s string) bool {
	for i := 1; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' && 'a' <= s[i-1] && s[i-1] <= 'z' {
			return true
		}
	}
	return false
}

// toolOf is the display name of alias's tool called name (any case), or "".
func (ix *nameIndex) toolOf(alias, name string) string {
	if alias == "" {
		return ""
	}
	for _, i := range ix.byName[strings.ToLower(name)] {
		if ix.tools[i].Server == alias {
			return ix.tools[i].Display
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
	for _, j := range ix.samePlace[t.Server+"."+sk] {
		b := ix.tools[j]
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
	for _, j := range ix.bySkel[sk] {
		b := ix.tools[j]
		if b.Server == t.Server {
			continue
		}
		// The same name on two servers is common (github.list_issues,
		// linear.list_issues): flagged when one passes for the other (a
		// description much like the other's, or none of its own), or when
		// the names differ in a letter or digit easy to confuse (a
		// deliberate look-alike, not a naming convention).
		deliberate := strings.ReplaceAll(strings.ToLower(t.Name), "-", "_") != strings.ReplaceAll(strings.ToLower(b.Name), "-", "_") || t.Name != b.Name && strings.EqualFold(t.Name, b.Name)
		if !deliberate && !passesFor(t, &b) {
			continue
		}
		if b.Name == t.Name {
			if same == "" {
				same = b.Display
			}
		} else if like == "" {
			like = b.Display
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
	for _, l := range wordSpans(lower) {
		w := lower[l[0]:l[1]]
		w = strings.TrimSuffix(w, "s")
		if len(w) < 3 || skip[w] || skip[w+"s"] || commonWords[w] {
			continue
		}
		out[w] = true
	}
	return out
}

var commonWords = map[string]bool{"the": true, "and": true, "for": true, "with": true, "thi": true, "that": true, "from": true, "into": true, "are": true, "can": true, "its": true, "use": true, "all": true, "one": true, "your": true, "you": true, "return": true, "given": true, "specified": true}

// confusables are the ASCII sequences a reader easily takes for another, and
// what skeleton makes of each. Longer ones come first.
var confusables = strings.NewReplacer("rn", "m", "vv", "w", "cl", "d", "0", "o", "1", "l", "i", "l", "5", "s", "3", "e", "q", "g", "-", "_", ".", "_")

// skeleton is what a name looks like to a hurried reader: lower case, and
// each confusable replaced by what it is taken for; a trailing "_" (or
// "-") goes too.
func skeleton(name string) string {
	return strings.TrimRight(confusables.Replace(strings.ToLower(name)), "_")
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
