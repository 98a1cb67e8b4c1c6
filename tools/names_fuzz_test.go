package tools

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// namesOther reads the words once and finds what the two passes it
// replaced found (kept below), whatever the text: wire names first, then
// the first word naming a tool.
func FuzzNamesOther(f *testing.F) {
	ix := newNameIndex()
	for _, s := range []struct{ alias, name string }{{"fs", "read_file"}, {"fs", "list"}, {"gh", "list"}, {"gh", "create-issue"}, {"h", "read_file"}, {"web", "fetch"}, {"Up", "getItem"}} {
		ix.add(&Tool{Server: s.alias, Name: s.name, Display: s.alias + "." + s.name, Def: &sdk.Tool{Name: s.name}})
	}
	for _, s := range []string{"Call fs.read_file first.", "use list of gh then fs__list", "create-issue", "the list tool of the web server; web.fetch", "gh/list or fs:list", "getItem up__getitem", "h__read_file fs list"} {
		f.Add("h", s)
		f.Add("fs", s)
	}
	f.Fuzz(func(t *testing.T, alias, text string) {
		if got, want := ix.namesOther(alias, text), ix.namesOtherTwoPasses(alias, text); got != want {
			t.Errorf("namesOther(%q, %q) = %q, want %q", alias, text, got, want)
		}
	})
}

func (ix *nameIndex) namesOtherTwoPasses(alias, text string) string {
	lowerAlias := strings.ToLower(alias)
	var mentioned map[string]bool // other servers' aliases named in text (made for the first)
	var buf [64]byte
	for i, j := range wordSpans(text) {
		w := lowerInto(buf[:], text[i:j])
		if a := ix.aliasOf(w); a != "" && string(w) != lowerAlias {
			if mentioned == nil {
				mentioned = map[string]bool{}
			}
			mentioned[a] = true
		}
		// A wire name: alias__tool.
		if a, tool, ok := bytes.Cut(w, []byte("__")); ok && string(a) != lowerAlias {
			if d := ix.toolOf(ix.aliasOf(a), tool); d != "" {
				return d
			}
		}
	}
	var prevBuf [64]byte
	var prev []byte // the word before, lower case, when it ends just before one of "./:"
	prevEnd := -2
	for i, j := range wordSpans(text) {
		w := lowerInto(buf[:], text[i:j])
		// alias.tool, alias/tool, alias:tool (the alias word just before).
		if i > 0 && prevEnd == i-1 && strings.IndexByte("./:", text[i-1]) >= 0 {
			if a := ix.aliasOf(prev); a != "" && string(prev) != lowerAlias {
				if d := ix.toolOf(a, w); d != "" {
					return d
				}
			}
		}
		prev, prevEnd = append(prevBuf[:0], w...), j
		idx, ok := ix.byName[string(w)]
		if !ok {
			continue
		}
		own := slices.ContainsFunc(idx, func(o *Tool) bool { return o.Server == alias })
		if own {
			continue
		}
		orig := text[i:j]
		distinctive := strings.ContainsAny(orig, "_-") || hasInnerUpper(orig)
		for _, o := range idx {
			if distinctive || mentioned[o.Server] {
				return o.Display
			}
		}
	}
	return ""
}
