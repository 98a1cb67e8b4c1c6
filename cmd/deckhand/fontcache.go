//go:build deckhand_testhooks

package main

import (
	"fmt"
	"sort"
	"sync"
	_ "unsafe" // go:linkname
)

// fyneFontCache is Fyne's cache of font faces (internal/painter.fontCache,
// an async.Map: a sync.Map underneath), keyed by text style and theme
// scope. Each entry holds its own parse of the text font and of the
// bundled emoji font (4.7 MB of heap): the memory report lists its keys, so
// a test can tell how many styles the window draws.
//
//go:linkname fyneFontCache fyne.io/fyne/v2/internal/painter.fontCache
var fyneFontCache struct{ sync.Map }

// fontFaces is the keys of Fyne's font cache, each as "{style scope}".
func fontFaces() []string {
	var keys []string
	fyneFontCache.Range(func(k, _ any) bool {
		keys = append(keys, fmt.Sprintf("%+v", k))
		return true
	})
	sort.Strings(keys)
	return keys
}
