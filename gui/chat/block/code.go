package block

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"

	"deckhand/gui/widgets/richtext"
	"deckhand/transcript"
)

// Code is a code block, drawn as richtext.CodeBox draws one (the quick
// prompt draws its answers' code so too), selectable with the chat's
// selection. A block longer than transcript.MaxBlock is cut in rows at
// line ends: the rows after the first (Row.Cont) are drawn as the same
// box, with no header and no gap, and the first's Copy copies the whole
// block.
type Code struct {
	obj fyne.CanvasObject
	box *richtext.CodeBox
	Sel *richtext.SelText
	Bg  *canvas.Rectangle
	Top *fyne.Container // the language and Copy: the first row's alone
}

// NewCode makes the code block of row r.
func NewCode(r Row) *Code {
	rt := richtext.NewMDText()
	c := &Code{}
	c.Sel = richtext.NewSelText(r.Selection(), rt, r.ID)
	c.box = richtext.NewCodeBox(rt, c.Sel)
	c.Sel.Source = c.box.Text
	c.box.Copy.OnTapped = func() { r.CopyCode(c.box.Text(), c.box.Copy) }
	c.Bg, c.Top = c.box.Bg, c.box.Top
	c.obj = Indented(c.box.Object())
	return c
}

// WholeCode is the code block whose first row is row i of rows, its rows
// joined as they were in the message (text: row i's, if the rows moved
// on).
func WholeCode(rows []transcript.Row, i int, text string) string {
	if i < 0 || i >= len(rows) || rows[i].Kind != transcript.Code || rows[i].Text != text {
		return text
	}
	var b strings.Builder
	b.WriteString(text)
	for j := i + 1; j < len(rows) && rows[j].Kind == transcript.Code && rows[j].Cont; j++ {
		b.WriteString(rows[j].Join)
		b.WriteString(rows[j].Text)
	}
	return b.String()
}

// Selectable is the block's code, selectable with the chat's selection.
func (c *Code) Selectable() *richtext.SelText { return c.Sel }

// View is the block, indented under its message's header.
func (c *Code) View() fyne.CanvasObject { return c.obj }

// Set shows row r; a row after a cut goes on from the row before's last
// line at the code's line pitch (Pull), over the list's gap.
func (c *Code) Set(r transcript.Row) {
	c.box.SetCont(r.Cont, Pull())
	c.box.Set(r.Text, r.Lang)
}
