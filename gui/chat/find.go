package chat

import (
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"deckhand/gui/chat/find"
	"deckhand/transcript"
)

// The chat as its find bar sees it (package find).

// findHost is the View as the find bar's Chat.
type findHost struct{ cv *View }

var _ find.Chat = findHost{}

func (h findHost) Rows() []transcript.Row         { return h.cv.Rows }
func (h findHost) Conv() string                   { return h.cv.conv }
func (h findHost) Window() fyne.Window            { return h.cv.host.Window() }
func (h findHost) Shortcut(k fyne.KeyName) func() { return h.cv.host.Shortcut(k) }
func (h findHost) FocusInput()                    { h.cv.host.FocusInput() }
func (h findHost) Redraw()                        { h.cv.Sel.Redraw() }

func (h findHost) Choose(query, run string, words bool) { h.cv.chooseFor(query, run, words) }

func (h findHost) FindElsewhere(query string) {
	h.cv.host.Tell(&FindElsewhere{Conv: h.cv.conv, Query: query, Shown: h.cv.shownRuns()})
}

// MarkCards draws the find's marks on the cards in view.
func (h findHost) MarkCards() {
	for _, v := range h.cv.Views {
		if t := v.Tool(); t != nil && v.ID >= 0 && v.Row.Kind == transcript.Tool {
			t.Set(v.Row)
		}
	}
}

// ShowMatch scrolls to the match's row, then the match itself into
// sight.
func (h findHost) ShowMatch(hit find.Hit) {
	cv := h.cv
	cv.Follow = false
	cv.aimed++
	cv.List.ScrollTo(hit.Row)
	cv.matchIntoView(hit)
	cv.aim, cv.aiming = hit, true
	cv.aimOff = cv.List.GetScrollOffset()
}

// held reports whether the view is where the find put it (ShowMatch):
// at its current match, not scrolled since.
func (cv *View) held() bool {
	return cv.aiming && cv.Find.Current() == cv.aim && cv.List.GetScrollOffset() == cv.aimOff
}

// reaim brings the match the view was put at into view again, after the
// heights around it changed: its place is now better known (rows
// measured) or another (laid out at a new width).
func (cv *View) reaim() {
	cv.matchIntoView(cv.aim)
	cv.aimOff = cv.List.GetScrollOffset()
}

// FindAt opens the find bar at a search's words, found by the search in
// run. When the chat does not show them together, and run is a version of
// a message not on show (the search reads every version in the log), that
// version is chosen and the words are looked for again once it shows
// (Reset). A search's words need not stand together: when no version
// shows them so, the bar looks for the first found alone.
func (cv *View) FindAt(query, run string) {
	cv.Find.Open(query)
	switch {
	case len(cv.Find.Hits) > 0:
	case run != "" && !slices.Contains(cv.shownRuns(), run):
		cv.chooseFor(query, run, true)
	default:
		cv.Find.Words(query)
	}
}

// chooseFor shows run, the version of a message holding query, and looks
// for query in it once it shows; words: then for its words alone if the
// version does not hold them together.
func (cv *View) chooseFor(query, run string, words bool) {
	cv.findAfter, cv.findWords = query, words
	cv.host.Tell(&RunAction{Action: Choose, Run: run})
}

// findShown looks for findAfter in the version chosen for it.
func (cv *View) findShown() {
	q, words := cv.findAfter, cv.findWords
	cv.findAfter, cv.findWords = "", false
	cv.Find.Open(q)
	if words && len(cv.Find.Hits) == 0 {
		cv.Find.Words(q)
	}
}

// shownRuns are the runs of the messages on show: one version of each.
func (cv *View) shownRuns() []string {
	var runs []string
	for _, r := range cv.Rows {
		if r.Kind == transcript.Header && r.Role == "user" && r.Run != "" {
			runs = append(runs, r.Run)
		}
	}
	return runs
}

// matchIntoView scrolls a match itself into sight, with a line of
// room around it: its row's place in the list plus the match's line in
// the row's text, laid out off screen when the row is not in view.
// ScrollTo brings a row into the list, but of a row taller than the
// transcript (a long paragraph in a short window) it showed the end,
// and the match at its start was above the view.
func (cv *View) matchIntoView(hit find.Hit) {
	l := cv.List
	view := l.Size().Height
	if view <= 0 || hit.Row < 0 || hit.Row >= len(cv.Rows) {
		return
	}
	y, h, ok := cv.matchSpot(hit)
	if !ok {
		return
	}
	off := l.GetScrollOffset()
	room := min(h, view/4)
	var to float32
	switch {
	case h+2*room > view || y < off+room:
		to = y - room
	case y+h > off+view-room:
		to = y + h - (view - room)
	default:
		return
	}
	l.ScrollToOffset(max(to, 0))
}

// matchSpot is the top of a match's first line and its height, in the
// list's content.
func (cv *View) matchSpot(hit find.Hit) (y, h float32, ok bool) {
	k := cv.Rows[hit.Row].Kind
	if k != transcript.Text && k != transcript.Code {
		return 0, 0, false // a card: its row
	}
	pad := theme.Padding()
	for i := range hit.Row {
		y += cv.Heights[i] + pad
	}
	v := cv.viewOf(hit.Row)
	if f := cv.flowOf(hit.Row); v == nil || v.Row != cv.Rows[hit.Row] || v.flow != f {
		cv.measureRow(cv.Rows[hit.Row], f)
		v = cv.measure
	}
	s := v.Selectable()
	if s == nil {
		return 0, 0, false
	}
	at, found := offsetIn(v.box, s)
	if !found {
		return 0, 0, false
	}
	n := 0
	for _, m := range cv.Find.Matches(s, hit.Row) {
		if m.Lead {
			continue
		}
		if n == hit.Nth && len(m.Parts) > 0 {
			r := m.Parts[0].Run
			return y + at.Y + r.Pos.Y, r.Size.Height, true
		}
		n++
	}
	return 0, 0, false
}

// offsetIn is where o lies in c, through containers.
func offsetIn(c *fyne.Container, o fyne.CanvasObject) (fyne.Position, bool) {
	for _, child := range c.Objects {
		if child == o {
			return child.Position(), true
		}
		if in, ok := child.(*fyne.Container); ok {
			if p, ok := offsetIn(in, o); ok {
				return child.Position().Add(p), true
			}
		}
	}
	return fyne.Position{}, false
}
