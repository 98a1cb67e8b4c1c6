package gui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"deckhand/config"
)

// caption makes a small label in the subdued colour, and what to place in a
// layout for it.
func caption(text string) (*widget.Label, fyne.CanvasObject) {
	d := newDimLabel(text)
	d.SizeName = theme.SizeNameCaptionText
	return &d.Label, d
}

// wrappedHints moves each item's hint from Fyne's own (one line of text
// that never wraps, so that a long one makes the form, and the window, as
// wide as it: 829 pixels for Settings) to a caption under its widget that
// wraps to the form's width.
func wrappedHints(items ...*widget.FormItem) []*widget.FormItem {
	for _, it := range items {
		if it.HintText != "" {
			it.Widget, _ = withHint(it.Widget, it.HintText)
			it.HintText = ""
		}
	}
	return items
}

// withHint is o with a wrapped caption under it, and that caption.
func withHint(o fyne.CanvasObject, hint string) (*fyne.Container, *widget.Label) {
	l, obj := caption(hint)
	l.Wrapping = fyne.TextWrapWord
	return container.NewVBox(o, obj), l
}

// confirmDanger asks before something that cannot be undone: verb (Delete,
// Remove) on a red button, Cancel beside it, and no default for Enter.
func confirmDanger(title, msg, verb string, done func(ok bool), win fyne.Window) *dialog.ConfirmDialog {
	d := dialog.NewConfirm(title, msg, done, win)
	d.SetConfirmText(verb)
	d.SetDismissText("Cancel")
	d.SetConfirmImportance(widget.DangerImportance)
	d.Show()
	return d
}

// subtle is a label of normal size in the subdued colour.
func subtle(text string) (*widget.Label, fyne.CanvasObject) {
	d := newDimLabel(text)
	return &d.Label, d
}

// dimLabel is a label whose text takes the placeholder colour: captions
// that recede but stay readable (a LowImportance label takes the disabled
// colour, too faint on the dark theme). It recolours the label's own text
// after each refresh. A theme override would do it too, but Fyne caches
// the fonts of each override apart and never lets them go: every caption
// so loaded the fonts again (about 5 MB each), and the window's memory
// grew with every row, panel and session switch.
type dimLabel struct {
	widget.Label
}

func newDimLabel(text string) *dimLabel {
	d := &dimLabel{}
	d.Text = text
	d.ExtendBaseWidget(d)
	return d
}

func (d *dimLabel) CreateRenderer() fyne.WidgetRenderer {
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

// look is the app's theme: Fyne's, with the light or dark variant the
// person chose (or the desktop's) and their text size. It is set on the
// app by applyLook, when the window is made and when the settings change:
// never at package init.
type look struct {
	base    fyne.Theme
	variant *fyne.ThemeVariant // nil: the desktop's
	scale   float32
}

func newLook(ui config.UI) *look {
	l := &look{base: theme.DefaultTheme(), scale: float32(ui.Scale())}
	switch ui.ThemeOrDefault() {
	case config.ThemeLight:
		v := theme.VariantLight
		l.variant = &v
	case config.ThemeDark:
		v := theme.VariantDark
		l.variant = &v
	}
	return l
}

func (l *look) Color(n fyne.ThemeColorName, v fyne.ThemeVariant) color.Color {
	if l.variant != nil {
		v = *l.variant
	}
	return l.base.Color(n, v)
}

func (l *look) Font(s fyne.TextStyle) fyne.Resource     { return l.base.Font(s) }
func (l *look) Icon(n fyne.ThemeIconName) fyne.Resource { return l.base.Icon(n) }

func (l *look) Size(n fyne.ThemeSizeName) float32 {
	s := l.base.Size(n)
	switch n {
	case theme.SizeNameText, theme.SizeNameCaptionText, theme.SizeNameHeadingText, theme.SizeNameSubHeadingText:
		return s * l.scale
	}
	return s
}

// applyLook gives the app the theme and text size of ui, redrawing every
// window. Call it on the UI goroutine.
func applyLook(a fyne.App, ui config.UI) {
	if a == nil {
		return
	}
	if cur, ok := a.Settings().Theme().(*look); ok {
		next := newLook(ui)
		if (cur.variant == nil) == (next.variant == nil) && (cur.variant == nil || *cur.variant == *next.variant) && cur.scale == next.scale {
			return // nothing changed: no redraw
		}
	}
	a.Settings().SetTheme(newLook(ui))
}
