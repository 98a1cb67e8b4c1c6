package richtext

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// A block that goes on on the last line of the block before (package
// chat's rows of a paragraph cut in rows, flow.go there) begins with a
// blank as wide as that line's words: Fyne wraps its text in what is
// left of the line, as one rich text of the whole paragraph would. The
// selection marks the space between the two (SelText.Gap).

// Flows: t is a text segment of a paragraph, at the text's size, which
// a block before can flow into.
func Flows(t *widget.TextSegment) bool {
	s := t.Style
	return (s.SizeName == theme.SizeNameText || s.SizeName == "") && s.QuotingDepth == 0
}

// WithLead is segs after a blank of width lead, if segs begin with a
// paragraph's text (else as they are).
func WithLead(segs []widget.RichTextSegment, lead float32) []widget.RichTextSegment {
	if lead <= 0 || len(segs) == 0 {
		return segs
	}
	if t, ok := segs[0].(*widget.TextSegment); !ok || !Flows(t) {
		return segs
	}
	return append([]widget.RichTextSegment{&leadSegment{width: lead}}, segs...)
}

// leadSegment is a blank on a rich text's first line, before its text:
// Fyne wraps the text after it in what is left of the line.
type leadSegment struct{ width float32 }

var _ widget.RichTextSegment = (*leadSegment)(nil)

func (l *leadSegment) Inline() bool    { return true }
func (l *leadSegment) Textual() string { return "" }
func (l *leadSegment) Visual() fyne.CanvasObject {
	r := canvas.NewRectangle(color.Transparent)
	r.SetMinSize(fyne.NewSize(l.width, 0))
	return r
}
func (l *leadSegment) Update(fyne.CanvasObject)  {}
func (l *leadSegment) Select(_, _ fyne.Position) {}
func (l *leadSegment) SelectedText() string      { return "" }
func (l *leadSegment) Unselect()                 {}
