package find

import (
	"fmt"
	"image/color"
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

// Chat is what the bar searches and shows its matches in: package
// chat's View.
type Chat interface {
	// Rows are the transcript's rows on show.
	Rows() []transcript.Row
	// Conv is the conversation shown ("": none).
	Conv() string
	Window() fyne.Window
	// Shortcut is the window's Ctrl (Cmd) shortcut on a key, or nil.
	Shortcut(fyne.KeyName) func()
	// FocusInput gives the message box the keys.
	FocusInput()
	// Redraw draws the marks (Draw) on the blocks on screen, MarkCards
	// on the cards (CardMark).
	Redraw()
	MarkCards()
	// ShowMatch scrolls the match into view.
	ShowMatch(Hit)
	// Choose shows run, the version of a message holding query, and
	// looks for query in it once it shows (Open; words: then Words).
	Choose(query, run string, words bool)
	// FindElsewhere asks which version of a message not on show holds
	// query; the answer comes to Elsewhere.
	FindElsewhere(query string)
}

// Finder is the chat's find bar and its state.
type Finder struct {
	chat  Chat
	Bar   *fyne.Container
	entry *widgets.FindEntry
	Count *widget.Label
	query []rune // folded; nil when the bar is closed or empty
	Hits  []Hit  // every match, in order
	cur   int    // the current match, an index in hits
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

// Hit is a match: the row, and which of the row's matches it is.
type Hit struct{ Row, Nth int }

// New is the find bar of chat, its buttons named on tips.
func New(chat Chat, tips *widgets.Tips) *Finder {
	f := &Finder{chat: chat}
	f.entry = widgets.NewFindEntry(f.search, func() { f.step(1) }, func() { f.step(-1) }, f.Close)
	f.entry.Shortcut = chat.Shortcut
	f.entry.SetPlaceHolder("Find in this chat")
	f.Count = widget.NewLabel("")
	prev := widgets.NewTipButton("", theme.MoveUpIcon(), "Previous match (Shift+Enter)", tips, func() { f.step(-1) })
	next := widgets.NewTipButton("", theme.MoveDownIcon(), "Next match (Enter)", tips, func() { f.step(1) })
	closeB := widgets.NewTipButton("", theme.CancelIcon(), "Close (Escape)", tips, f.Close)
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
	w := f.chat.Window()
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

// Words looks for the first of query's words that the chat shows, alone;
// if none is shown, for query as typed again.
func (f *Finder) Words(query string) {
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

// Refresh counts the matches again after the rows changed (an answer
// streams, another chat shows), keeping the current one if it is still
// there, without moving the view.
func (f *Finder) Refresh() {
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
	f.chat.MarkCards()
}

// Close hides the bar and its marks, and gives the message box the keys.
func (f *Finder) Close() {
	if f.Bar.Visible() {
		f.Hide()
		f.chat.FocusInput()
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
	f.chat.Redraw()
	f.chat.MarkCards()
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
	if f.query != nil && len(f.Hits) == 0 && f.chat.Conv() != "" {
		// The log holds every version of each message: ask it.
		f.chat.FindElsewhere(strings.TrimSpace(text))
	}
}

// Elsewhere is the bridge's answer to FindElsewhere: run, a version of a
// message other than the one shown, holds query. If the bar still looks
// for query and finds it nowhere on show, it says so, and Enter shows
// that version at the words. It said "No matches", and the sidebar's
// search found them.
func (f *Finder) Elsewhere(conv, query, run string) {
	if run == "" || conv != f.chat.Conv() || f.query == nil || len(f.Hits) > 0 || strings.TrimSpace(f.entry.Text) != query {
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
	rows := f.chat.Rows()
	for i := 0; i < len(rows); i++ {
		r := rows[i]
		switch r.Kind {
		case transcript.Text, transcript.Code:
			text, at := []rune(r.Text), []int{0}
			j := i + 1
			for ; GoesOn(rows, j); j++ {
				text = append(text, []rune(rows[j].Join)...)
				at = append(at, len(text))
				text = append(text, []rune(rows[j].Text)...)
			}
			k, nth := 0, 0
			for _, m := range richtext.FindRunes(richtext.FoldRunes(string(text)), f.query) {
				for k+1 < len(at) && m >= at[k+1] {
					k, nth = k+1, 0
				}
				f.Hits = append(f.Hits, Hit{i + k, nth})
				nth++
			}
			i = j - 1
		case transcript.Tool:
			n := 0
			for _, part := range cardTexts(r) {
				n += len(richtext.FindRunes(richtext.FoldRunes(part), f.query))
			}
			for nth := range n {
				f.Hits = append(f.Hits, Hit{i, nth})
			}
		}
	}
}

// cardTexts are what a tool card shows of its call, as found by the find
// bar: its name, its arguments and its result (whole, also when folded).
func cardTexts(r transcript.Row) []string { return []string{r.Tool, r.Args, r.Output} }

// CardMark is the colour of the border of the card of row: the find's
// colours when it holds a match (the current one's when it holds that),
// nil when it holds none. (A card's text is not selectable text, so its
// matches are not marked one by one.)
func (f *Finder) CardMark(row int) color.Color {
	if f.query == nil || row < 0 {
		return nil
	}
	var mark color.Color
	for i, h := range f.Hits {
		if h.Row == row {
			if i == f.cur {
				return Current
			}
			mark = marked
		}
	}
	return mark
}

// step goes to the next match (by 1) or the previous (by -1), round.
func (f *Finder) step(by int) {
	if len(f.Hits) == 0 {
		if run := f.elsewhere; run != "" {
			// The words as typed, in the version holding them so.
			f.elsewhere = ""
			f.chat.Choose(strings.TrimSpace(f.entry.Text), run, false)
		}
		return
	}
	f.cur = (f.cur + by + len(f.Hits)) % len(f.Hits)
	f.show()
}

// show says "N of M", has the chat scroll the current match into view
// and mark the matches on screen.
func (f *Finder) show() {
	switch {
	case f.query == nil:
		widgets.SetText(f.Count, "")
	case len(f.Hits) == 0:
		widgets.SetText(f.Count, "No matches")
	default:
		f.cur = min(f.cur, len(f.Hits)-1)
		widgets.SetText(f.Count, fmt.Sprintf("%d of %d", f.cur+1, len(f.Hits)))
		f.chat.ShowMatch(f.Hits[f.cur])
	}
	f.chat.Redraw()
	f.chat.MarkCards()
}

// Matches are the find's matches in s, the block of row, with those that
// straddle its row and the one before or after (a paragraph cut in rows).
func (f *Finder) Matches(s *richtext.SelText, row int) []richtext.Match {
	var before, after []rune
	rows := f.chat.Rows()
	if row >= 0 && row < len(rows) {
		n := len(f.query) - 1
		if r := rows[row]; GoesOn(rows, row) {
			t := []rune(shownText(rows[row-1]))
			before = append(t[max(len(t)-n, 0):], []rune(r.Join)...)
		}
		if GoesOn(rows, row+1) {
			next := rows[row+1]
			t := []rune(shownText(next))
			after = append([]rune(next.Join), t[:min(n, len(t))]...)
		}
	}
	return s.Rich.Find(s.Rich.Runs(), f.query, before, after)
}

// GoesOn: row i goes on with the paragraph or code block of the row
// before, cut from it at transcript.MaxBlock. The bar reads such rows as
// one text, and package chat draws them as one.
func GoesOn(rows []transcript.Row, i int) bool {
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

// Current is the current match's row and number in it (-1: none).
func (f *Finder) Current() Hit {
	if f.query == nil || len(f.Hits) == 0 {
		return Hit{-1, -1}
	}
	return f.Hits[f.cur]
}

// Colours of the marks: every match, and the current one.
var (
	marked  = color.NRGBA{R: 0xff, G: 0xc1, B: 0x07, A: 0x60}
	Current = color.NRGBA{R: 0xff, G: 0x8f, B: 0x00, A: 0xc0}
)

// Draw marks the matches s drew, the current one more strongly: the
// matches of its row in order, and a match that began in the row before
// (the last of that row's).
func (f *Finder) Draw(s *richtext.SelText) {
	s.Found, s.FoundCur = 0, false
	if f == nil || f.query == nil || len(f.Hits) == 0 {
		return
	}
	row := s.Row()
	cur := f.Current()
	n := 0
	for _, m := range f.Matches(s, row) {
		isCur := cur.Row == row && cur.Nth == n
		if m.Lead {
			isCur = cur.Row == row-1 && cur.Nth == f.lastOf(row-1)
		} else {
			n++
		}
		fill := marked
		if isCur {
			fill, s.FoundCur = Current, true
		}
		s.Found++
		for k, p := range m.Parts {
			if p.Run.InCode() {
				s.MarkCode(p, fill) // its own colour on the mark hard to read
				continue
			}
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
		if h.Row == row {
			last = h.Nth
		}
	}
	return last
}
