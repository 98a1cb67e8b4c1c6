package guitest

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	_ "unsafe" // go:linkname

	"fyne.io/fyne/v2"
)

// fyneFontCache is Fyne's cache of font faces (internal/painter.fontCache,
// an async.Map: a sync.Map underneath), keyed by text style and theme
// scope. Each entry holds its own parse of the text font, the bundled
// emoji font and a system font (about 8.7 MB of heap in the real window),
// made the first time a text of that style is measured or drawn, kept
// for the life of the process. Fyne's test driver measures through the
// same cache. (cmd/deckhand's memory report reads it the same way.)
//
//go:linkname fyneFontCache fyne.io/fyne/v2/internal/painter.fontCache
var fyneFontCache struct{ sync.Map }

// ForgetFontFaces empties Fyne's font cache, so that FontFaces then says
// what was measured or drawn since (the process's earlier tests drew
// styles of their own). Fyne parses the fonts again when next asked.
func ForgetFontFaces() { fyneFontCache.Clear() }

// FontFaces is the text styles Fyne holds a font face for, named by
// StyleName and sorted: each one a parse of the fonts.
func FontFaces() []string {
	var out []string
	fyneFontCache.Range(func(k, _ any) bool {
		// The key is painter.cacheID{style fyne.TextStyle; scope string}.
		s := reflect.ValueOf(k).FieldByName("style")
		out = append(out, StyleName(fyne.TextStyle{
			Bold: s.FieldByName("Bold").Bool(), Italic: s.FieldByName("Italic").Bool(),
			Monospace: s.FieldByName("Monospace").Bool(), Symbol: s.FieldByName("Symbol").Bool(),
			Underline: s.FieldByName("Underline").Bool(), Strikethrough: s.FieldByName("Strikethrough").Bool(),
			TabWidth: int(s.FieldByName("TabWidth").Int()),
		}))
		return true
	})
	slices.Sort(out)
	return slices.Compact(out)
}

// fyneBundledFaces is the parse of each of Fyne's bundled fonts that
// Deckhand's copy of Fyne (third_party/fyne) shares between text styles,
// keyed by the font's resource: the emoji and symbol fonts are parsed the
// first time a rune needs them, not once for each style.
//
//go:linkname fyneBundledFaces fyne.io/fyne/v2/internal/painter.bundledFaces
var fyneBundledFaces struct{ sync.Map }

// BundledFontParses names the bundled fonts Fyne has parsed (by their
// resources' names, sorted), once each for the life of the process.
func BundledFontParses() []string {
	var out []string
	fyneBundledFaces.Range(func(k, _ any) bool {
		out = append(out, k.(fyne.Resource).Name())
		return true
	})
	slices.Sort(out)
	return out
}

// StyleName names a text style for a test's failure: "regular", "bold
// italic", "monospace"…
func StyleName(s fyne.TextStyle) string {
	var parts []string
	for _, p := range []struct {
		on   bool
		name string
	}{{s.Bold, "bold"}, {s.Italic, "italic"}, {s.Monospace, "monospace"}, {s.Symbol, "symbol"},
		{s.Underline, "underline"}, {s.Strikethrough, "strikethrough"}, {s.TabWidth != 0, fmt.Sprint("tab ", s.TabWidth)}} {
		if p.on {
			parts = append(parts, p.name)
		}
	}
	if len(parts) == 0 {
		return "regular"
	}
	return strings.Join(parts, " ")
}
