package block

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"deckhand/gui/chat/find"
	"deckhand/gui/widgets/richtext"
	"deckhand/transcript"
)

// A paragraph longer than transcript.MaxBlock is cut in rows, so that the
// list can recycle them and a streamed delta re-wraps one row, not the
// whole paragraph. Each row's rich text wraps its own text: the line
// holding the last words before a cut ended half-empty and the next row
// began a line of its own, a line break the model did not write.
//
// So a row that goes on from the row before begins with a blank as wide
// as that row's last line and the space between them (richtext.WithLead),
// and is drawn one line higher, over that line (Text's goOn): its words
// go on on the line. Fyne wraps greedily, and a line wrapped from the
// place where the whole paragraph's line begins breaks where the whole
// paragraph's would: every line of the rows is the line one rich text of
// the paragraph draws, at any width. The blank's width depends on the
// width, and on the row before's own blank: the rows of a paragraph are
// laid out off screen one after the other at the list's width (once per
// width and per row: a streamed delta changes the last row, whose blank
// does not change), and the widths are kept until the width or the rows
// change (Leads).

// Flow is how a text row flows with its neighbours': the blank it begins
// with (Lead, Leads.Of), and whether the row after goes on on its last
// line (Under).
type Flow struct {
	Lead  float32
	Under bool
}

// Leads are the ends of the last lines of the rows a paragraph flows on
// from, as last laid out, by the row that goes on.
type Leads struct{ memo map[int]leadMemo }

// Clear forgets them: the rows or the text size changed.
func (l *Leads) Clear() { clear(l.memo) }

// leadMemo is the end of row i-1's last line, as last laid out.
type leadMemo struct {
	width    float32        // the list's width it was laid out at
	prev     transcript.Row // row i-1
	prevLead float32        // row i-1's own blank
	end      float32        // where its last line ends
	line     float32        // the width of a line of text
	// Row i's first word, read from head, the start of its text (which
	// grows while it streams).
	head   string
	wordW  float32
	wordOK bool
}

// Measure lays row out off screen at the list's width after a blank of
// lead, and gives its text block (nil if it shows none).
type Measure func(row transcript.Row, lead float32) *richtext.SelText

// Of is the width of the blank row i of rows begins with, at width w:
// the end of the last line of the row before, when row i goes on with
// its paragraph on that line (0: it begins a line).
func (l *Leads) Of(rows []transcript.Row, i int, w float32, measure Measure) float32 {
	if !find.GoesOn(rows, i) || rows[i].Kind != transcript.Text || rows[i].Join == "" || strings.Contains(rows[i].Join, "\n") {
		return 0
	}
	prevLead := l.Of(rows, i-1, w, measure)
	m, ok := l.memo[i]
	if !ok || m.width != w || m.prev != rows[i-1] || m.prevLead != prevLead {
		m, ok = lastLine(measure(rows[i-1], prevLead), rows[i-1], w)
		if !ok {
			return 0
		}
		m.prevLead = prevLead
	}
	if head := rows[i].Text[:min(len(rows[i].Text), headLen)]; head != m.head {
		m.head = head
		word, style, ok := firstWord(rows[i].Plain, head)
		m.wordW, m.wordOK = fyne.MeasureText(word, theme.TextSize(), style).Width, ok
	}
	if l.memo == nil {
		l.memo = map[int]leadMemo{}
	}
	l.memo[i] = m
	lead := m.end + spaceWidth() // the space between the rows' words
	// Its first word must fit after it on the line, else it begins the
	// next line, as in the whole paragraph (Fyne breaks at the space).
	if !m.wordOK || lead+m.wordW > m.line {
		return 0
	}
	return lead
}

// headLen is how much of a row's text is read for its first word.
const headLen = 256

// lastLine reads where the last line of s, row's text block laid out off
// screen at width w, ends and how wide a line is.
func lastLine(s *richtext.SelText, row transcript.Row, w float32) (leadMemo, bool) {
	if s == nil {
		return leadMemo{}, false
	}
	segs := s.Rich.Segments
	if len(segs) == 0 {
		return leadMemo{}, false
	}
	if t, ok := segs[len(segs)-1].(*widget.TextSegment); !ok || !richtext.Flows(t) {
		return leadMemo{}, false // it ends in a list, a quote, a table: no paragraph's line
	}
	runs := s.Rich.Runs()
	if len(runs) == 0 {
		return leadMemo{}, false
	}
	last := runs[len(runs)-1]
	x0 := theme.InnerPadding() // where Fyne's rich text begins a paragraph's lines
	return leadMemo{
		width: w,
		prev:  row,
		end:   last.Pos.X - x0 + last.Width(len(last.Text)),
		line:  s.Rich.Size().Width - 2*x0,
	}, true
}

// firstWord is the first word a row whose text begins with head shows,
// and its style; ok is false when the row does not begin with a
// paragraph's text (a list, a heading).
func firstWord(plain bool, head string) (string, fyne.TextStyle, bool) {
	if len(head) == headLen {
		// A word cut by the head's end would read shorter.
		if i := strings.LastIndexByte(head, ' '); i > 0 {
			head = head[:i]
		}
	}
	segs := Segments(plain, head)
	if len(segs) == 0 {
		return "", fyne.TextStyle{}, false
	}
	t, ok := segs[0].(*widget.TextSegment)
	if !ok || !richtext.Flows(t) {
		return "", fyne.TextStyle{}, false
	}
	word, _, _ := strings.Cut(t.Text, " ")
	return word, t.Style.TextStyle, true
}

// spaceWidth is the width of a space between words.
func spaceWidth() float32 {
	return fyne.MeasureText(" ", theme.TextSize(), fyne.TextStyle{}).Width
}

// LinePitch is the distance between a paragraph's wrapped lines.
func LinePitch() float32 {
	return fyne.MeasureText("M", theme.TextSize(), fyne.TextStyle{}).Height
}
