package gui

import (
	"slices"

	"fyne.io/fyne/v2/theme"
)

// The chat view keeps the row views the list shows, to redraw a row that
// changes in place and to learn its height from its view. It must not keep
// the ones the list has let go of: Fyne's list keeps the views scrolled out
// of sight in a sync.Pool, which the next collection empties, and empties
// it itself at each full refresh (every SetItemHeight), making new views
// as rows come into sight. Kept here, every view ever made stayed, with
// its widgets, rich text and highlighted code, and Fyne's caches kept
// their renderers alive whenever the chat view touched them (setRunning
// on every run): two views per row of a conversation written in, for the
// life of the window.

// showing notes that the list shows row id with v: v joins the views, and
// another view that showed the row before is stale (the list let it go).
func (cv *chatView) showing(id int, v *rowView) {
	cv.views = slices.DeleteFunc(cv.views, func(o *rowView) bool { return o != v && o.id == id })
	if !slices.Contains(cv.views, v) {
		cv.views = append(cv.views, v)
		if len(cv.views) > keepViews {
			cv.forget() // scrolling: the rows passed went out of sight
		}
	}
}

// keepViews is how many views the chat view holds before it looks for
// those out of sight: a screenful or two.
const keepViews = 16

// forget drops the views of rows more than a screen away from the view:
// the list shows none of them (a view it takes from its pool for them
// comes back through showing).
func (cv *chatView) forget() {
	first, last := cv.nearRows()
	cv.views = slices.DeleteFunc(cv.views, func(v *rowView) bool { return v.id < first || v.id > last })
}

// nearRows are the rows within a screen of those in view.
func (cv *chatView) nearRows() (first, last int) {
	offset, height := cv.list.GetScrollOffset(), cv.list.Size().Height
	lo, hi := offset-height, offset+2*height
	pad := theme.Padding()
	first, last = len(cv.rows), -1
	top := float32(0)
	for i, h := range cv.heights {
		if top+h >= lo && top <= hi {
			first, last = min(first, i), i
		}
		top += h + pad
		if top > hi {
			break
		}
	}
	return first, last
}
