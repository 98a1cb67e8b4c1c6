package sidebar

import (
	"slices"

	"fyne.io/fyne/v2"
)

// Fyne's list calls CreateItem at every full refresh to measure a template
// row it then drops, and a full refresh is every Set (three: UnselectAll,
// Select and Refresh each redraw the list), one or more a message. The
// sidebar kept each row CreateItem made, for the screen dump and the
// tests: three rows a frame, with their labels and rich text, for the life
// of the window (601 rows after 200 Sets of one session). It keeps only
// the rows the list shows, and measures one template again and again.

// rowsRenderer is the list's renderer, told of its full refreshes.
type rowsRenderer struct {
	fyne.WidgetRenderer
	side *Sidebar
}

func (r *rowsRenderer) Refresh() {
	s := r.side
	s.epoch++
	s.template = true
	r.WidgetRenderer.Refresh()
	s.template = false
	var shown []*Row
	for _, row := range s.rows {
		if row.seen == s.epoch {
			shown = append(shown, row)
		}
	}
	if len(shown) == 0 && len(s.Items) > 0 {
		return // the list laid out nothing (no size yet): it keeps what it had
	}
	s.rows = shown
}

// createRow is the list's CreateItem: the template it measures at a full
// refresh, or a new row.
func (s *Sidebar) createRow() fyne.CanvasObject {
	if s.template {
		s.template = false
		if s.tmpl == nil {
			s.tmpl = newRow(s)
		}
		return s.tmpl
	}
	return newRow(s)
}

// updateRow is the list's UpdateItem: row shows item i, and joins the rows
// the sidebar knows; another row that showed item i before is one the list
// let go of.
func (s *Sidebar) updateRow(i int, row *Row) {
	row.seen, row.index = s.epoch, i
	s.rows = slices.DeleteFunc(s.rows, func(r *Row) bool { return r != row && r.index == i })
	if !slices.Contains(s.rows, row) {
		s.rows = append(s.rows, row)
	}
	if i < len(s.Items) {
		row.set(s.Items[i])
	}
}
