package richtext

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"deckhand/gui/widgets"
)

// CodeBox is a fenced code block as a person reads it, in the chat and in
// the quick prompt alike: on the code background (the input's colour,
// rounded), its language and a Copy button on a line above, and the code
// below them, monospace and coloured by its language's tokens
// (Highlight). What Copy does is its user's (Copy.OnTapped).
//
// A box may go on from the one above it (SetCont: a chat cuts a long
// block in rows): it then has no header, its code is drawn up over the
// gap between them, and its background reaches up to the box above's, so
// that the two read as one box.
type CodeBox struct {
	Code *MDText           // the code, highlighted
	Copy *widget.Button    // copies the code; what it copies is the user's
	Bg   *canvas.Rectangle // the code background
	Top  *fyne.Container   // the language and Copy

	lang *widget.Label
	obj  *fyne.Container
	text string
	hl   string // the language text was highlighted as
	cont bool
	up   float32 // how far the code is drawn up when cont
}

// NewCodeBox makes an empty box drawing code as body: code itself (nil),
// or a widget over it (a SelText, to select it).
func NewCodeBox(code *MDText, body fyne.CanvasObject) *CodeBox {
	if body == nil {
		body = code
	}
	b := &CodeBox{Code: code}
	var lang fyne.CanvasObject
	b.lang, lang = widgets.Caption("")
	// Lines break between words; a word longer than the line is cut.
	code.Wrapping = fyne.TextWrapWord
	b.Copy = widget.NewButtonWithIcon("Copy", theme.ContentCopyIcon(), nil)
	b.Copy.Importance = widget.LowImportance
	b.Bg = canvas.NewRectangle(theme.Color(theme.ColorNameInputBackground))
	b.Bg.CornerRadius = theme.InputRadiusSize()
	b.Top = container.NewHBox(lang, layout.NewSpacer(), b.Copy)
	b.obj = container.New(codeLayout{b}, b.Bg, b.Top, body)
	return b
}

// Object is what the box draws.
func (b *CodeBox) Object() fyne.CanvasObject { return b.obj }

// Text is the code the box shows, as set.
func (b *CodeBox) Text() string { return b.text }

// Set shows code in language lang ("" for none: the header says "code").
func (b *CodeBox) Set(code, lang string) {
	shown := lang
	if shown == "" {
		shown = "code"
	}
	widgets.SetText(b.lang, shown)
	if code == b.text && lang == b.hl && b.Code.Segments != nil {
		return
	}
	b.text, b.hl = code, lang
	b.Code.Segments = Highlight(code, lang)
	b.Code.Refresh()
}

// Restyle takes the theme's code background again (the theme changed).
func (b *CodeBox) Restyle() {
	if c := theme.Color(theme.ColorNameInputBackground); c != b.Bg.FillColor {
		b.Bg.FillColor = c
		b.Bg.Refresh()
	}
}

// SetCont makes the box go on from the one above (cont), its code drawn
// up by up, or stand alone.
func (b *CodeBox) SetCont(cont bool, up float32) {
	if cont == b.cont && up == b.up {
		return
	}
	b.cont, b.up = cont, up
	widgets.SetVisible(b.Top, !cont)
	widgets.Relayout(b.obj)
}

// codeLayout lays a code box out: its background, its header line
// (language and Copy) and its code below it. A box that goes on from the
// one above has no header, its code is drawn up, and its background
// reaches up over a list's gap (theme.Padding) and the rounded corners.
type codeLayout struct{ b *CodeBox }

func (l codeLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	bg, top, code := objs[0], objs[1], objs[2]
	var up, bgUp, topH float32
	if l.b.cont {
		up, bgUp = l.b.up, theme.Padding()+l.b.Bg.CornerRadius
	} else {
		topH = top.MinSize().Height
	}
	bg.Move(fyne.NewPos(0, -bgUp))
	bg.Resize(fyne.NewSize(size.Width, size.Height+bgUp))
	top.Move(fyne.NewPos(0, 0))
	top.Resize(fyne.NewSize(size.Width, topH))
	code.Move(fyne.NewPos(0, topH-up))
	code.Resize(fyne.NewSize(size.Width, size.Height-topH+up))
}

func (l codeLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	top, code := objs[1].MinSize(), objs[2].MinSize()
	if l.b.cont {
		return fyne.NewSize(code.Width, max(code.Height-l.b.up, 0))
	}
	return fyne.NewSize(max(top.Width, code.Width), top.Height+code.Height)
}
