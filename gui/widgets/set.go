package widgets

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// Setters that refresh a widget only when what it shows changes: a row
// set again with what it showed costs no redraw.

// SetText sets l's text.
func SetText(l *widget.Label, s string) {
	if l.Text != s {
		l.SetText(s)
	}
}

// SetIcon sets i's icon.
func SetIcon(i *widget.Icon, res fyne.Resource) {
	if i.Resource != res {
		i.SetResource(res)
	}
}

// SetVisible shows or hides o.
func SetVisible(o fyne.CanvasObject, visible bool) {
	switch {
	case visible && !o.Visible():
		o.Show()
	case !visible && o.Visible():
		o.Hide()
	}
}

// SetSegment sets a one-segment rich text's text and colour.
func SetSegment(rt *widget.RichText, seg *widget.TextSegment, text string, color fyne.ThemeColorName) {
	if seg.Text != text || seg.Style.ColorName != color {
		seg.Text, seg.Style.ColorName = text, color
		rt.Refresh()
	}
}
