package chat

import (
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
)

// The chat view keeps the row views the list shows, to redraw a row that
// changes in place and to learn its height from its view. It must not keep
// the ones the list has let go of: Fyne's list keeps the views scrolled out
// of sight in a sync.Pool, which the next collection empties, and empties
// it itself at each full refresh (every SetItemHeight), making new views
// as rows come into sight. Kept here, every view ever made stayed, with
// its widgets, rich text and highlighted code, and Fyne's caches kept
// their renderers alive whenever the chat view touched them (SetRunning
// on every run): two views per row of a conversation written in, for the
// life of the window.

// showing notes that the list shows row id with v: v joins the views, and
// another view that showed the row before is stale (the list let it go).
func (cv *View) showing(id int, v *RowView) {
	cv.Views = slices.DeleteFunc(cv.Views, func(o *RowView) bool { return o != v && o.ID == id })
	if !slices.Contains(cv.Views, v) {
		cv.Views = append(cv.Views, v)
		if len(cv.Views) > keepViews {
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
func (cv *View) forget() {
	first, last := cv.nearRows()
	cv.Views = slices.DeleteFunc(cv.Views, func(v *RowView) bool { return v.ID < first || v.ID > last })
}

// nearRows are the rows within a screen of those in view.
func (cv *View) nearRows() (first, last int) {
	offset, height := cv.List.GetScrollOffset(), cv.List.Size().Height
	lo, hi := offset-height, offset+2*height
	pad := theme.Padding()
	first, last = len(cv.Rows), -1
	top := float32(0)
	for i, h := range cv.Heights {
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

// Fyne's list makes a new view for each row that comes into sight when its
// pool is empty, and it empties the pool at each full refresh, which every
// SetItemHeight is: a message sent (a row added, the list scrolled)
// made new views, with their widgets, icons and renderers, and let the old
// ones go. After a full refresh the list shows only the views it updated,
// so the chat view takes the others back and hands them out again.
//
// It hands out row views, never the items the list holds: the list's
// items are slots (a stack of one row view, or none), made new each time
// the list asks. Fyne's pool is a sync.Pool, and its drain at a full
// refresh misses an item put while the UI goroutine ran on another P (a
// P's private item is out of reach of the others): that item comes out of
// the pool later, and had it been the row view itself, taken back and
// handed out meanwhile, one view stood in two places of the list, showing
// one row twice and the other not at all. A view taken back leaves its
// slot, so a slot that comes back from Fyne's pool is empty, and is given
// a view of its own when the list shows a row in it.

// slot is a list item: the row view it shows, if it has one.
type slot = fyne.Container

// viewIn is the row view of the list's item o, a free one (or a new one)
// put in it if it has none.
func (cv *View) viewIn(o fyne.CanvasObject) *RowView {
	s := o.(*slot)
	if len(s.Objects) > 0 {
		return s.Objects[0].(*RowView)
	}
	v := cv.freeView()
	v.slot = s
	s.Add(v) // laid out at the slot's size
	return v
}

// release takes v back from the list: out of its slot, into the free
// views if there is room.
func (cv *View) release(v *RowView) {
	if v.slot != nil {
		v.slot.RemoveAll()
		v.slot = nil
	}
	if len(cv.free) < keepFree {
		cv.free = append(cv.free, v)
	}
}

// recycle is the chat view's own pool of row views.
type recycle struct {
	epoch     uint64     // counts the list's full refreshes
	template  bool       // the next CreateItem is the refresh's template
	free      []*RowView // views the list holds no more
	freeTheme fyne.Theme // the theme they were drawn in
	freeDark  fyne.ThemeVariant
	tmpl      *slot // the template the list measures at each refresh
}

// keepFree bounds the free views: a screenful.
const keepFree = 12

// listRenderer is the list's renderer, told of its full refreshes.
type listRenderer struct {
	fyne.WidgetRenderer
	cv *View
}

func (r *listRenderer) Refresh() {
	cv := r.cv
	cv.epoch++
	cv.template = true
	r.WidgetRenderer.Refresh()
	cv.template = false
	shown := false
	for _, v := range cv.Views {
		shown = shown || v.seen == cv.epoch
	}
	if !shown && len(cv.Rows) > 0 {
		return // the list laid out nothing (no size yet): it keeps what it had
	}
	var kept []*RowView
	for _, v := range cv.Views {
		if v.seen == cv.epoch {
			kept = append(kept, v)
		} else {
			cv.release(v)
		}
	}
	cv.Views = kept
	s := fyne.CurrentApp().Settings()
	cv.freeTheme, cv.freeDark = s.Theme(), s.ThemeVariant()
}

// createItem is the list's CreateItem: an empty slot, or for the
// template the list measures at each refresh, the same slot holding an
// empty view.
func (cv *View) createItem() fyne.CanvasObject {
	if cv.template {
		// Measured and dropped: an empty view, the same each time.
		cv.template = false
		if cv.tmpl == nil {
			v := newRowView(cv)
			cv.tmpl = container.NewStack(v)
		}
		return cv.tmpl
	}
	return container.NewStack()
}

// freeView is a view the list let go of, or a new one.
func (cv *View) freeView() *RowView {
	if n := len(cv.free); n > 0 {
		s := fyne.CurrentApp().Settings()
		if s.Theme() == cv.freeTheme && s.ThemeVariant() == cv.freeDark {
			v := cv.free[n-1]
			cv.free[n-1] = nil
			cv.free = cv.free[:n-1]
			return v
		}
		cv.free = nil // drawn in another theme
	}
	return newRowView(cv)
}
