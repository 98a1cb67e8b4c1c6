package widgets

import (
	"testing"

	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
)

// A ring button with an icon, drawn first while hidden and shown later,
// draws its icon: Fyne's button makes the icon only once shown, and the
// ring's renderer kept the parts the button had when it was made, so the
// icon was laid out (the label pushed right) but never drawn. The connect
// form's Remove, shown once the keyring says a secret is saved, read
// "     Remove" against the pane's right edge, as if cut.
func TestRingButtonIconShownLater(t *testing.T) {
	test.NewTempApp(t)
	b := NewRingButtonWithIcon("Remove", theme.DeleteIcon(), nil)
	b.Hide()
	w := test.NewWindow(container.NewHBox(b))
	t.Cleanup(w.Close)
	test.WidgetRenderer(b) // drawn while hidden
	b.Show()
	icons := 0
	for _, o := range test.WidgetRenderer(b).Objects() {
		if img, ok := o.(*canvas.Image); ok && img.Visible() && img.Resource != nil {
			icons++
		}
	}
	if icons != 1 {
		t.Errorf("shown, the button draws %d icons, want 1", icons)
	}
}
