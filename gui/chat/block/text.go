package block

import (
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

// Text is a text block: Markdown, or the person's words as typed. The
// person's messages sit on a tinted background, the model's on none.
type Text struct {
	obj   fyne.CanvasObject
	Bg    *canvas.Rectangle
	RT    *richtext.MDText
	sel   *richtext.SelText
	src   string
	user  bool
	plain bool // shown as written (Row.Plain)
	cont  bool // goes on with the paragraph of the row before (Row.Cont)
	// lead: it goes on on the last line of the row before, after a blank
	// this wide; under: the row after goes on on its last line (Flow);
	// segs are its segments without the blank.
	lead  float32
	under bool
	segs  []widget.RichTextSegment
	row   Row
}

// NewText makes the text block of row r.
func NewText(r Row) *Text {
	t := &Text{Bg: canvas.NewRectangle(color.Transparent), RT: richtext.NewMDText(), row: r}
	t.Bg.CornerRadius = theme.InputRadiusSize()
	t.RT.Wrapping = fyne.TextWrapWord
	t.RT.Wheel = r.Scrolled // over a wide table: the transcript moves
	t.sel = richtext.NewSelText(r.Selection(), t.RT, r.ID)
	t.sel.Source = func() string {
		if t.plain {
			return t.src // as typed
		}
		return "" // Markdown: its source is not what shows
	}
	t.obj = Indented(container.New(goOn{t}, t.Bg, t.sel))
	return t
}

// goOn lays a text block out, its background and its text; a block that
// goes on with the paragraph of the row before (a paragraph longer than
// transcript.MaxBlock, cut in rows) is drawn on from the row before's
// last line, at the distance of a paragraph's lines (pull): a gap and a
// blank line showed there, mid-sentence; one that goes on on that line
// (a lead, flow.go) is drawn a line higher still, over it. Its
// background reaches up to the row before's, over the list's gap between
// them and its rounded corners.
type goOn struct{ t *Text }

// Pull is how far a block that goes on is drawn above its row: the
// rows' gap, the list's padding and the rich texts' inner paddings below
// the one and above the other (a rich text's wrapped lines have no
// spacing between them).
func Pull() float32 {
	return theme.Padding() + 2*theme.InnerPadding()
}

// up is how far the text is drawn above the block. One that goes on on
// the row before's last line begins half way down that line (see down),
// and is drawn over it.
func (t *Text) up() float32 {
	switch {
	case t.lead > 0:
		return theme.InnerPadding() + LinePitch()/2
	case t.cont:
		return Pull()
	}
	return 0
}

// down is how far the text reaches below the block: when the row after
// goes on on its last line, the block ends half way down that line (the
// rest of it, the text's padding below it and the list's gap are the
// next row's). The list shows a row from the first pixel of it in view:
// the line, half drawn by each row, shows with one row alone only when
// more than half of it is out of view, at the top or the bottom. (Ending
// below the line, the row before could be shown with the line in full
// view at the bottom while the row after was not: the line held the
// words of the row before alone, as though cut.)
func (t *Text) down() float32 {
	if t.under {
		return theme.InnerPadding() + theme.Padding() + LinePitch()/2
	}
	return 0
}

func (l goOn) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	var bgUp, bgDown float32
	up, down := l.t.up(), l.t.down()
	switch {
	case l.t.lead > 0:
		// Below the line it shares with the row before, which the row
		// before's background reaches over: drawn over the row before,
		// it hid the lower half of its words there.
		bgUp = -LinePitch() / 2
	case l.t.cont:
		bgUp = theme.Padding() + l.t.Bg.CornerRadius
	}
	if l.t.under {
		bgDown = theme.Padding() + LinePitch()/2 + l.t.Bg.CornerRadius
	}
	bg, text := objs[0], objs[1]
	bg.Move(fyne.NewPos(0, -bgUp))
	bg.Resize(fyne.NewSize(size.Width, size.Height+bgUp+bgDown))
	text.Move(fyne.NewPos(0, -up))
	text.Resize(fyne.NewSize(size.Width, size.Height+up+down))
}

func (l goOn) MinSize(objs []fyne.CanvasObject) fyne.Size {
	s := objs[1].MinSize()
	s.Height = max(s.Height-l.t.up()-l.t.down(), 0)
	return s
}

// Selectable is the block's text, selectable with the chat's selection.
func (t *Text) Selectable() *richtext.SelText { return t.sel }

// View is the block, indented under its message's header.
func (t *Text) View() fyne.CanvasObject { return t.obj }

// Set shows row r, flowing with its neighbours as its Row's Flow says.
func (t *Text) Set(r transcript.Row) {
	t.cont = r.Cont
	f := t.row.Flow()
	lead := f.Lead
	if under := f.Under; under != t.under {
		t.under = under
		widgets.Relayout(t.obj)
	}
	if user := r.Role == "user"; user != t.user || t.src == "" {
		t.user = user
		t.Bg.FillColor = color.Transparent
		if user {
			t.Bg.FillColor = theme.Color(theme.ColorNameInputBackground)
		}
		t.Bg.Refresh()
	}
	if r.Text != t.src || r.Plain != t.plain || lead != t.lead {
		if r.Text != t.src || r.Plain != t.plain || t.segs == nil {
			t.segs = Segments(r.Plain, r.Text)
		}
		t.src, t.plain, t.lead = r.Text, r.Plain, lead
		t.RT.Segments = richtext.WithLead(t.segs, lead)
		t.sel.Gap = 0
		if lead > 0 {
			t.sel.Gap = spaceWidth()
		}
		if !r.Plain {
			richtext.FitTables(t.RT)
		}
		t.RT.Refresh()
	}
}

// Segments are the segments of a text row's text: the person's words
// as typed, line breaks kept (plain: not Markdown, whose single newlines
// join lines); else Markdown, its line breaks kept as an answer's are in
// chat apps.
func Segments(plain bool, text string) []widget.RichTextSegment {
	if plain {
		return plainSegments(text)
	}
	return richtext.MarkdownSegments(text)
}

// plainSegments shows text as it is: a paragraph a line (an empty line
// keeps its height).
func plainSegments(text string) []widget.RichTextSegment {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	segs := make([]widget.RichTextSegment, 0, len(lines))
	for _, l := range lines {
		if l == "" {
			l = " "
		}
		segs = append(segs, &widget.TextSegment{Text: l, Style: widget.RichTextStyleParagraph})
	}
	return segs
}
