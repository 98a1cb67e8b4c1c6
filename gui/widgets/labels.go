package widgets

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Caption makes a small label in the subdued colour, and what to place in a
// layout for it.
func Caption(text string) (*widget.Label, fyne.CanvasObject) {
	d := NewDimLabel(text)
	d.SizeName = theme.SizeNameCaptionText
	return &d.Label, d
}

// WrappedHints moves each item's hint from Fyne's own (one line of text
// that never wraps, so that a long one makes the form, and the window, as
// wide as it: 829 pixels for Settings) to a caption under its widget that
// wraps to the form's width.
func WrappedHints(items ...*widget.FormItem) []*widget.FormItem {
	for _, it := range items {
		if it.HintText != "" {
			it.Widget, _ = WithHint(it.Widget, it.HintText)
			it.HintText = ""
		}
	}
	return items
}

// WithHint is o with a wrapped caption under it, and that caption.
func WithHint(o fyne.CanvasObject, hint string) (*fyne.Container, *widget.Label) {
	l, obj := Caption(hint)
	l.Wrapping = fyne.TextWrapWord
	return container.NewVBox(o, obj), l
}

// ConfirmDanger asks before something that cannot be undone: verb (Delete,
// Remove) on a red, filled button, the default, which Enter does (as in
// the other dialogs: it did nothing, and the dialog did not say so),
// Cancel beside it, Escape for Cancel.
//
// The message is a label wrapped at the dialog's width, and the dialog as
// high as it needs. (Fyne's NewConfirm measured its height with the
// message wrapped a few words a line, before giving it its width: a large
// empty area under the text, and its "?" icon faint behind the corner.)
func ConfirmDanger(title, msg, verb string, done func(ok bool), win fyne.Window) *dialog.ConfirmDialog {
	text := widget.NewLabel(msg)
	text.Wrapping = fyne.TextWrapWord
	d := dialog.NewCustomConfirm(title, verb, "Cancel", text, done, win)
	d.SetConfirmImportance(widget.DangerImportance)
	// Enter does the filled button, as in the other dialogs; Hide
	// answers Cancel.
	WithDialogKeys(d, win, d.Confirm, d.Hide)
	FitWidth(d, win, 440)
	return d
}

// FitWidth gives a shown dialog holding wrapped text width (or the
// window's less a margin, if narrower), and the height its content needs
// at that width.
func FitWidth(d dialog.Dialog, win fyne.Window, width float32) {
	w := min(width, win.Canvas().Size().Width-2*theme.Padding())
	d.Resize(fyne.NewSize(w, d.MinSize().Height)) // wraps the text at w
	d.Resize(fyne.NewSize(w, d.MinSize().Height))
}

// Subtle is a label of normal size in the subdued colour.
func Subtle(text string) (*widget.Label, fyne.CanvasObject) {
	d := NewDimLabel(text)
	return &d.Label, d
}

// DimLabel is a label whose text takes the placeholder colour: captions
// that recede but stay readable (a LowImportance label takes the disabled
// colour, too faint on the dark theme). It recolours the label's own text
// after each refresh. A theme override would do it too, but Fyne caches
// the fonts of each override apart and never lets them go: every caption
// so loaded the fonts again (about 5 MB each), and the window's memory
// grew with every row, panel and session switch.
type DimLabel struct {
	widget.Label
}

func NewDimLabel(text string) *DimLabel {
	d := &DimLabel{}
	d.Text = text
	d.ExtendBaseWidget(d)
	return d
}

func (d *DimLabel) CreateRenderer() fyne.WidgetRenderer {
	r := d.Label.CreateRenderer()
	dr := &dimRenderer{WidgetRenderer: r}
	dr.dim()
	return dr
}

type dimRenderer struct {
	fyne.WidgetRenderer
}

func (r *dimRenderer) Refresh() {
	r.WidgetRenderer.Refresh()
	r.dim()
}

// dim gives the label's text the placeholder colour; true if it changed.
func (r *dimRenderer) dim() bool {
	for _, o := range r.WidgetRenderer.Objects() {
		rt, ok := o.(*widget.RichText)
		if !ok || len(rt.Segments) == 0 {
			continue
		}
		if seg, ok := rt.Segments[0].(*widget.TextSegment); ok && seg.Style.ColorName == theme.ColorNameForeground {
			seg.Style.ColorName = theme.ColorNamePlaceHolder
			rt.Refresh()
			return true
		}
	}
	return false
}
