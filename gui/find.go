package gui

import (
	"fmt"
	"image/color"
	"strings"
	"unicode"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"deckhand/gui/widgets"
	"deckhand/transcript"
)

// Find in a chat: Ctrl+F opens a bar over the transcript; what is typed is
// looked for (ignoring case) in the chat's text and code blocks, every
// match on screen is marked and the current one more strongly; Enter goes
// to the next, Shift+Enter to the previous, and the bar says "N of M";
// Escape closes it. Matches are counted in each block's text and marked
// where the block drew them (a match split between two styles, as a word
// half in bold, is counted but not marked).

// finder is the chat's find bar and its state.
type finder struct {
	cv    *chatView
	bar   *fyne.Container
	entry *findEntry
	count *widget.Label
	query []rune    // folded; nil when the bar is closed or empty
	hits  []findHit // every match, in order
	cur   int       // the current match, an index in hits
}

// findHit is a match: the row, and which of the row's matches it is.
type findHit struct{ row, nth int }

func newFinder(cv *chatView) *finder {
	f := &finder{cv: cv}
	f.entry = newFindEntry(f)
	f.entry.SetPlaceHolder("Find in this chat")
	f.count = widget.NewLabel("")
	prev := widget.NewButtonWithIcon("", theme.MoveUpIcon(), func() { f.step(-1) })
	next := widget.NewButtonWithIcon("", theme.MoveDownIcon(), func() { f.step(1) })
	closeB := widget.NewButtonWithIcon("", theme.CancelIcon(), f.close)
	for _, b := range []*widget.Button{prev, next, closeB} {
		b.Importance = widget.LowImportance
	}
	// On the window's background: the transcript's rows showed through
	// the bar around its field.
	f.bar = container.NewStack(newBackdrop(), container.NewPadded(container.NewBorder(nil, nil, widget.NewIcon(theme.SearchIcon()),
		container.NewHBox(widgets.FixedWidth(f.count, "888 of 888"), prev, next, closeB), f.entry)))
	f.bar.Hide()
	return f
}

// open shows the bar with the keyboard in it, looking for query when one
// is given (a search's words), else for what it held.
func (f *finder) open(query string) {
	w := f.cv.ui.win
	widgets.SetVisible(f.bar, true)
	if query != "" {
		f.look(query)
	} else {
		f.search(f.entry.Text)
	}
	if query != "" && len(f.hits) == 0 {
		// A search's words need not stand together: look for the first
		// found alone.
		for _, word := range strings.Fields(query) {
			if f.look(word); len(f.hits) > 0 {
				break
			}
		}
	}
	w.Canvas().Focus(f.entry)
	f.entry.TypedShortcut(&fyne.ShortcutSelectAll{}) // to type over
}

// findAt opens the find bar at a search's words, found by the search in
// run. When the chat does not show them, they are in another version of a
// message (the search reads every version in the log): that version is
// chosen, and the words are looked for again once it shows (UI.apply).
func (u *UI) findAt(query, run string) {
	u.chat.find.open(query)
	if len(u.chat.find.hits) == 0 && run != "" {
		u.findAfter = query
		u.tell(&uiRunAction{action: runChoose, run: run})
	}
}

// look puts text in the box and looks for it. Setting the text the box
// already holds (the same search result opened again) changes nothing,
// and OnChanged would not look: the bar showed the words with no count
// and no marks.
func (f *finder) look(text string) {
	if f.entry.Text == text {
		f.search(text)
		return
	}
	f.entry.SetText(text) // OnChanged looks for it
}

// refresh counts the matches again after the rows changed (an answer
// streams, another chat shows), keeping the current one if it is still
// there, without moving the view.
func (f *finder) refresh() {
	if f.query == nil {
		return
	}
	f.recount()
	switch {
	case len(f.hits) == 0:
		widgets.SetText(f.count, "No matches")
	default:
		f.cur = min(f.cur, len(f.hits)-1)
		widgets.SetText(f.count, fmt.Sprintf("%d of %d", f.cur+1, len(f.hits)))
	}
	f.markCards()
}

// close hides the bar and its marks, and gives the message box the keys.
func (f *finder) close() {
	if f.bar.Visible() {
		f.hide()
		f.cv.ui.win.Canvas().Focus(f.cv.ui.input)
	}
}

// hide hides the bar and its marks.
func (f *finder) hide() {
	if !f.bar.Visible() {
		return
	}
	f.bar.Hide()
	f.query, f.hits = nil, nil
	widgets.SetText(f.count, "")
	f.cv.sel.Redraw()
	f.markCards()
}

// search looks for text in the chat, and goes to the first match at or
// after the one that was current.
func (f *finder) search(text string) {
	f.query = foldRunes(strings.TrimSpace(text))
	if len(f.query) == 0 {
		f.query = nil
	}
	f.recount()
	f.cur = 0
	f.show()
}

// recount finds every match in the chat's rows again.
func (f *finder) recount() {
	f.hits = f.hits[:0]
	if f.query == nil {
		return
	}
	for i, r := range f.cv.rows {
		n := 0
		switch r.Kind {
		case transcript.Text, transcript.Code:
			n = len(findAll(foldRunes(r.Text), f.query))
		case transcript.Tool:
			for _, part := range cardTexts(r) {
				n += len(findAll(foldRunes(part), f.query))
			}
		}
		for nth := range n {
			f.hits = append(f.hits, findHit{i, nth})
		}
	}
}

// cardTexts are what a tool card shows of its call, as found by the find
// bar: its name, its arguments and its result (whole, also when folded).
func cardTexts(r transcript.Row) []string { return []string{r.Tool, r.Args, r.Output} }

// cardMark is the colour of the border of the card of row: the find's
// colours when it holds a match (the current one's when it holds that),
// nil when it holds none. (A card's text is not selectable text, so its
// matches are not marked one by one.)
func (f *finder) cardMark(row int) color.Color {
	if f.query == nil || row < 0 {
		return nil
	}
	var mark color.Color
	for i, h := range f.hits {
		if h.row == row {
			if i == f.cur {
				return findCurrent
			}
			mark = findMark
		}
	}
	return mark
}

// markCards draws the find's marks on the cards in view.
func (f *finder) markCards() {
	for _, v := range f.cv.views {
		if t := v.tool(); t != nil && v.id >= 0 && v.row.Kind == transcript.Tool {
			t.set(v.row)
		}
	}
}

// step goes to the next match (by 1) or the previous (by -1), round.
func (f *finder) step(by int) {
	if len(f.hits) == 0 {
		return
	}
	f.cur = (f.cur + by + len(f.hits)) % len(f.hits)
	f.show()
}

// show says "N of M", scrolls the current match into view and marks the
// matches on screen.
func (f *finder) show() {
	switch {
	case f.query == nil:
		widgets.SetText(f.count, "")
	case len(f.hits) == 0:
		widgets.SetText(f.count, "No matches")
	default:
		f.cur = min(f.cur, len(f.hits)-1)
		widgets.SetText(f.count, fmt.Sprintf("%d of %d", f.cur+1, len(f.hits)))
		f.cv.follow = false
		f.cv.list.ScrollTo(f.hits[f.cur].row)
	}
	f.cv.sel.Redraw()
	f.markCards()
}

// current is the current match's row and number in it (-1: none).
func (f *finder) current() findHit {
	if f.query == nil || len(f.hits) == 0 {
		return findHit{-1, -1}
	}
	return f.hits[f.cur]
}

// foldRunes is s in lower case, rune by rune (so that a place in it is a
// place in s).
func foldRunes(s string) []rune {
	r := []rune(s)
	for i, c := range r {
		r[i] = unicode.ToLower(c)
	}
	return r
}

// findAll is where q starts in s, not overlapping.
func findAll(s, q []rune) []int {
	var out []int
	if len(q) == 0 {
		return nil
	}
	for i := 0; i+len(q) <= len(s); {
		if runesAt(s, i, q) {
			out = append(out, i)
			i += len(q)
			continue
		}
		i++
	}
	return out
}

func runesAt(s []rune, i int, q []rune) bool {
	for j, c := range q {
		if s[i+j] != c {
			return false
		}
	}
	return true
}

// Colours of the marks: every match, and the current one.
var (
	findMark    = color.NRGBA{R: 0xff, G: 0xc1, B: 0x07, A: 0x60}
	findCurrent = color.NRGBA{R: 0xff, G: 0x8f, B: 0x00, A: 0xc0}
)

// drawFound marks the matches s drew, the current one (nth of its row)
// more strongly.
func drawFound(s *widgets.SelText, f *finder) {
	s.Found, s.FoundCur = 0, false
	if f == nil || f.query == nil || len(f.hits) == 0 {
		return
	}
	row := s.Row()
	cur := f.current()
	n := 0
	for _, r := range s.Rich.Runs() {
		for _, at := range findAll(foldRunes(string(r.Text)), f.query) {
			fill := findMark
			if cur.row == row && cur.nth == n {
				fill, s.FoundCur = findCurrent, true
			}
			n++
			s.Found++
			x0, x1 := r.Width(at), r.Width(at+len(f.query))
			rect := canvas.NewRectangle(fill)
			rect.Move(r.Pos.AddXY(x0, 0))
			rect.Resize(fyne.NewSize(x1-x0, r.Size.Height))
			s.Mark(r, rect)
		}
	}
}

// findEntry is the find bar's box: Enter is the next match, Shift+Enter
// the previous, Escape closes the bar.
type findEntry struct {
	widget.Entry
	f     *finder
	shift bool
}

var _ desktop.Keyable = (*findEntry)(nil)

func newFindEntry(f *finder) *findEntry {
	e := &findEntry{f: f}
	e.OnChanged = f.search
	e.ExtendBaseWidget(e)
	return e
}

func (e *findEntry) KeyDown(k *fyne.KeyEvent) {
	if k.Name == desktop.KeyShiftLeft || k.Name == desktop.KeyShiftRight {
		e.shift = true
	}
	e.Entry.KeyDown(k)
}

func (e *findEntry) KeyUp(k *fyne.KeyEvent) {
	if k.Name == desktop.KeyShiftLeft || k.Name == desktop.KeyShiftRight {
		e.shift = false
	}
	e.Entry.KeyUp(k)
}

func (e *findEntry) FocusLost() {
	e.shift = false
	e.Entry.FocusLost()
}

func (e *findEntry) TypedKey(k *fyne.KeyEvent) {
	switch k.Name {
	case fyne.KeyReturn, fyne.KeyEnter:
		if e.shift {
			e.f.step(-1)
		} else {
			e.f.step(1)
		}
		return
	case fyne.KeyEscape:
		e.f.close()
		return
	}
	e.Entry.TypedKey(k)
}

// TypedShortcut: Ctrl+F again selects what the box holds; the window's
// other shortcuts work in it as in the message box.
func (e *findEntry) TypedShortcut(s fyne.Shortcut) {
	if cs, ok := s.(*desktop.CustomShortcut); ok && cs.Modifier == fyne.KeyModifierShortcutDefault {
		if f := e.f.cv.ui.input.shortcuts[cs.KeyName]; f != nil {
			f()
			return
		}
	}
	e.Entry.TypedShortcut(s)
}

// backdrop fills its place with the theme's background colour, the
// theme's of the moment: a plain rectangle keeps the colour it was made
// with.
type backdrop struct {
	widget.BaseWidget
	rect *canvas.Rectangle
}

func newBackdrop() *backdrop {
	b := &backdrop{rect: canvas.NewRectangle(theme.Color(theme.ColorNameBackground))}
	b.ExtendBaseWidget(b)
	return b
}

func (b *backdrop) CreateRenderer() fyne.WidgetRenderer { return &backdropRenderer{b: b} }

type backdropRenderer struct{ b *backdrop }

func (r *backdropRenderer) Layout(s fyne.Size)           { r.b.rect.Resize(s) }
func (r *backdropRenderer) MinSize() fyne.Size           { return fyne.Size{} }
func (r *backdropRenderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.b.rect} }
func (r *backdropRenderer) Destroy()                     {}
func (r *backdropRenderer) Refresh() {
	r.b.rect.FillColor = theme.Color(theme.ColorNameBackground)
	r.b.rect.Refresh()
}
