package chat

import (
	"fmt"
	"image/color"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"deckhand/gui/widgets"
	"deckhand/gui/widgets/richtext"
	"deckhand/transcript"
)

// Find in a chat: Ctrl+F opens a bar over the transcript; what is typed is
// looked for (ignoring case) in the chat's text and code blocks, every
// match on screen is marked and the current one more strongly; Enter goes
// to the next, Shift+Enter to the previous, and the bar says "N of M";
// Escape closes it. Matches are counted in each block's text and marked
// where the block drew them (a match split between two styles, as a word
// half in bold, is counted but not marked).

// Finder is the chat's find bar and its state.
type Finder struct {
	cv    *View
	Bar   *fyne.Container
	entry *widgets.FindEntry
	Count *widget.Label
	query []rune    // folded; nil when the bar is closed or empty
	Hits  []findHit // every match, in order
	cur   int       // the current match, an index in hits
	// Relayout, if set, lays out at once what holds the bar, after it is
	// shown or hidden (the window's chat area): the transcript takes or
	// gives back the bar's room now, not at some later frame. Scrolled
	// to before that, a match ended under the bar, and a bar closed could
	// leave its band over the transcript's top.
	Relayout func()
	// elsewhere is the run of another version of a message that holds the
	// words found nowhere in the versions shown (Elsewhere): Enter shows it.
	elsewhere string
}

// findHit is a match: the row, and which of the row's matches it is.
type findHit struct{ row, nth int }

func newFinder(cv *View) *Finder {
	f := &Finder{cv: cv}
	f.entry = widgets.NewFindEntry(f.search, func() { f.step(1) }, func() { f.step(-1) }, f.Close)
	f.entry.Shortcut = func(k fyne.KeyName) func() { return cv.host.Shortcut(k) }
	f.entry.SetPlaceHolder("Find in this chat")
	f.Count = widget.NewLabel("")
	prev := widgets.NewTipButton("", theme.MoveUpIcon(), "Previous match (Shift+Enter)", cv.Tips, func() { f.step(-1) })
	next := widgets.NewTipButton("", theme.MoveDownIcon(), "Next match (Enter)", cv.Tips, func() { f.step(1) })
	closeB := widgets.NewTipButton("", theme.CancelIcon(), "Close (Escape)", cv.Tips, f.Close)
	for _, b := range []*widgets.TipButton{prev, next, closeB} {
		b.Importance = widget.LowImportance
	}
	// On the window's background: the transcript's rows showed through
	// the bar around its field.
	// Padded at its sides only: the field's own padding is room enough
	// above and below, which the transcript of a short window needs.
	pad := theme.Padding()
	f.Bar = container.NewStack(widgets.NewBackdrop(), container.New(widgets.Inset{Left: pad, Right: pad}, container.NewBorder(nil, nil, widget.NewIcon(theme.SearchIcon()),
		container.NewHBox(widgets.FixedWidth(f.Count, "In another version"), prev, next, closeB), f.entry)))
	f.Bar.Hide()
	return f
}

// Open shows the bar with the keyboard in it, looking for query when one
// is given, as typed, else for what it held.
func (f *Finder) Open(query string) {
	w := f.cv.host.Window()
	if !f.Bar.Visible() {
		f.Bar.Show()
		f.relayout()
	}
	if query != "" {
		f.look(query)
	} else {
		f.search(f.entry.Text)
	}
	w.Canvas().Focus(f.entry)
	f.entry.TypedShortcut(&fyne.ShortcutSelectAll{}) // to type over
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
		cv.Find.words(query)
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
		cv.Find.words(q)
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

// words looks for the first of query's words that the chat shows, alone;
// if none is shown, for query as typed again.
func (f *Finder) words(query string) {
	for _, word := range strings.Fields(query) {
		if f.look(word); len(f.Hits) > 0 {
			return
		}
	}
	f.look(query)
}

// look puts text in the box and looks for it. Setting the text the box
// already holds (the same search result opened again) changes nothing,
// and OnChanged would not look: the bar showed the words with no count
// and no marks.
func (f *Finder) look(text string) {
	if f.entry.Text == text {
		f.search(text)
		return
	}
	f.entry.SetText(text) // OnChanged looks for it
}

// refresh counts the matches again after the rows changed (an answer
// streams, another chat shows), keeping the current one if it is still
// there, without moving the view.
func (f *Finder) refresh() {
	if f.query == nil {
		return
	}
	f.recount()
	switch {
	case len(f.Hits) == 0:
		widgets.SetText(f.Count, "No matches")
	default:
		f.cur = min(f.cur, len(f.Hits)-1)
		widgets.SetText(f.Count, fmt.Sprintf("%d of %d", f.cur+1, len(f.Hits)))
	}
	f.markCards()
}

// Close hides the bar and its marks, and gives the message box the keys.
func (f *Finder) Close() {
	if f.Bar.Visible() {
		f.Hide()
		f.cv.host.FocusInput()
	}
}

// Hide hides the bar and its marks.
func (f *Finder) Hide() {
	if !f.Bar.Visible() {
		return
	}
	f.Bar.Hide()
	f.relayout()
	f.query, f.Hits = nil, nil
	widgets.SetText(f.Count, "")
	f.cv.Sel.Redraw()
	f.markCards()
}

func (f *Finder) relayout() {
	if f.Relayout != nil {
		f.Relayout()
	}
}

// search looks for text in the chat, and goes to the first match at or
// after the one that was current.
func (f *Finder) search(text string) {
	f.query = richtext.FoldRunes(strings.TrimSpace(text))
	if len(f.query) == 0 {
		f.query = nil
	}
	f.recount()
	f.cur = 0
	f.elsewhere = ""
	f.show()
	if f.query != nil && len(f.Hits) == 0 && f.cv.conv != "" {
		// The log holds every version of each message: ask it.
		f.cv.host.Tell(&FindElsewhere{Conv: f.cv.conv, Query: strings.TrimSpace(text), Shown: f.cv.shownRuns()})
	}
}

// Elsewhere is the bridge's answer to FindElsewhere: run, a version of a
// message other than the one shown, holds query. If the bar still looks
// for query and finds it nowhere on show, it says so, and Enter shows
// that version at the words. It said "No matches", and the sidebar's
// search found them.
func (f *Finder) Elsewhere(conv, query, run string) {
	if run == "" || conv != f.cv.conv || f.query == nil || len(f.Hits) > 0 || strings.TrimSpace(f.entry.Text) != query {
		return
	}
	f.elsewhere = run
	widgets.SetText(f.Count, "In another version")
}

// recount finds every match in the chat's rows again. A paragraph cut in
// rows (transcript.Row.Cont) is read as one text, its rows joined as
// they were in the message: a match that straddles two rows is the
// match of the row it begins in.
func (f *Finder) recount() {
	f.Hits = f.Hits[:0]
	if f.query == nil {
		return
	}
	rows := f.cv.Rows
	for i := 0; i < len(rows); i++ {
		r := rows[i]
		switch r.Kind {
		case transcript.Text, transcript.Code:
			text, at := []rune(r.Text), []int{0}
			j := i + 1
			for ; goesOn(rows, j); j++ {
				text = append(text, []rune(rows[j].Join)...)
				at = append(at, len(text))
				text = append(text, []rune(rows[j].Text)...)
			}
			k, nth := 0, 0
			for _, m := range richtext.FindRunes(richtext.FoldRunes(string(text)), f.query) {
				for k+1 < len(at) && m >= at[k+1] {
					k, nth = k+1, 0
				}
				f.Hits = append(f.Hits, findHit{i + k, nth})
				nth++
			}
			i = j - 1
		case transcript.Tool:
			n := 0
			for _, part := range cardTexts(r) {
				n += len(richtext.FindRunes(richtext.FoldRunes(part), f.query))
			}
			for nth := range n {
				f.Hits = append(f.Hits, findHit{i, nth})
			}
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
func (f *Finder) cardMark(row int) color.Color {
	if f.query == nil || row < 0 {
		return nil
	}
	var mark color.Color
	for i, h := range f.Hits {
		if h.row == row {
			if i == f.cur {
				return FindCurrent
			}
			mark = findMark
		}
	}
	return mark
}

// markCards draws the find's marks on the cards in view.
func (f *Finder) markCards() {
	for _, v := range f.cv.Views {
		if t := v.Tool(); t != nil && v.ID >= 0 && v.Row.Kind == transcript.Tool {
			t.Set(v.Row)
		}
	}
}

// step goes to the next match (by 1) or the previous (by -1), round.
func (f *Finder) step(by int) {
	if len(f.Hits) == 0 {
		if run := f.elsewhere; run != "" {
			// The words as typed, in the version holding them so.
			f.elsewhere = ""
			f.cv.chooseFor(strings.TrimSpace(f.entry.Text), run, false)
		}
		return
	}
	f.cur = (f.cur + by + len(f.Hits)) % len(f.Hits)
	f.show()
}

// show says "N of M", scrolls the current match into view and marks the
// matches on screen.
func (f *Finder) show() {
	switch {
	case f.query == nil:
		widgets.SetText(f.Count, "")
	case len(f.Hits) == 0:
		widgets.SetText(f.Count, "No matches")
	default:
		f.cur = min(f.cur, len(f.Hits)-1)
		widgets.SetText(f.Count, fmt.Sprintf("%d of %d", f.cur+1, len(f.Hits)))
		f.cv.Follow = false
		f.cv.aimed++
		f.cv.List.ScrollTo(f.Hits[f.cur].row)
		f.intoView()
	}
	f.cv.Sel.Redraw()
	f.markCards()
}

// intoView scrolls the current match itself into sight, with a line of
// room around it: its row's place in the list plus the match's line in
// the row's text, laid out off screen when the row is not in view.
// ScrollTo brings a row into the list, but of a row taller than the
// transcript (a long paragraph in a short window) it showed the end,
// and the match at its start was above the view.
func (f *Finder) intoView() {
	cv := f.cv
	l := cv.List
	view := l.Size().Height
	hit := f.current()
	if view <= 0 || hit.row < 0 || hit.row >= len(cv.Rows) {
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
func (cv *View) matchSpot(hit findHit) (y, h float32, ok bool) {
	k := cv.Rows[hit.row].Kind
	if k != transcript.Text && k != transcript.Code {
		return 0, 0, false // a card: its row
	}
	pad := theme.Padding()
	for i := range hit.row {
		y += cv.Heights[i] + pad
	}
	v := cv.viewOf(hit.row)
	if f := cv.flowOf(hit.row); v == nil || v.Row != cv.Rows[hit.row] || v.flow != f {
		cv.measureRow(cv.Rows[hit.row], f)
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
	for _, m := range cv.Find.matches(s, hit.row) {
		if m.Lead {
			continue
		}
		if n == hit.nth && len(m.Parts) > 0 {
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

// matches are the find's matches in s, the block of row, with those that
// straddle its row and the one before or after (a paragraph cut in rows).
func (f *Finder) matches(s *richtext.SelText, row int) []richtext.Match {
	var before, after []rune
	rows := f.cv.Rows
	if row >= 0 && row < len(rows) {
		n := len(f.query) - 1
		if r := rows[row]; goesOn(rows, row) {
			t := []rune(shownText(rows[row-1]))
			before = append(t[max(len(t)-n, 0):], []rune(r.Join)...)
		}
		if goesOn(rows, row+1) {
			next := rows[row+1]
			t := []rune(shownText(next))
			after = append([]rune(next.Join), t[:min(n, len(t))]...)
		}
	}
	return s.Rich.Find(s.Rich.Runs(), f.query, before, after)
}

// goesOn: row i goes on with the paragraph or code block of the row
// before, cut from it at transcript.MaxBlock.
func goesOn(rows []transcript.Row, i int) bool {
	return i > 0 && i < len(rows) && rows[i].Cont && rows[i-1].Kind == rows[i].Kind &&
		(rows[i].Kind == transcript.Text || rows[i].Kind == transcript.Code)
}

// shownText is the text a text or code row shows, without its layout.
func shownText(r transcript.Row) string {
	if r.Plain || r.Kind == transcript.Code {
		return r.Text
	}
	return richtext.SegmentsText(richtext.MarkdownSegments(r.Text))
}

// current is the current match's row and number in it (-1: none).
func (f *Finder) current() findHit {
	if f.query == nil || len(f.Hits) == 0 {
		return findHit{-1, -1}
	}
	return f.Hits[f.cur]
}

// Colours of the marks: every match, and the current one.
var (
	findMark    = color.NRGBA{R: 0xff, G: 0xc1, B: 0x07, A: 0x60}
	FindCurrent = color.NRGBA{R: 0xff, G: 0x8f, B: 0x00, A: 0xc0}
)

// drawFound marks the matches s drew, the current one more strongly: the
// matches of its row in order, and a match that began in the row before
// (the last of that row's).
func drawFound(s *richtext.SelText, f *Finder) {
	s.Found, s.FoundCur = 0, false
	if f == nil || f.query == nil || len(f.Hits) == 0 {
		return
	}
	row := s.Row()
	cur := f.current()
	n := 0
	for _, m := range f.matches(s, row) {
		isCur := cur.row == row && cur.nth == n
		if m.Lead {
			isCur = cur.row == row-1 && cur.nth == f.lastOf(row-1)
		} else {
			n++
		}
		fill := findMark
		if isCur {
			fill, s.FoundCur = FindCurrent, true
		}
		s.Found++
		for k, p := range m.Parts {
			x0, x1 := p.Run.Width(p.From), p.Run.Width(p.To)
			if m.Lead && k == 0 && p.From == 0 {
				x0 -= s.Gap // the space joining it to the row before, on one line
			}
			rect := canvas.NewRectangle(fill)
			rect.Move(p.Run.Pos.AddXY(x0, 0))
			rect.Resize(fyne.NewSize(x1-x0, p.Run.Size.Height))
			s.Mark(p.Run, rect)
		}
	}
}

// lastOf is the number of row's last match (-1: none).
func (f *Finder) lastOf(row int) int {
	last := -1
	for _, h := range f.Hits {
		if h.row == row {
			last = h.nth
		}
	}
	return last
}
