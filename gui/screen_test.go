package gui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"deckhand/gui/guitest"
)

// A Screen holds what every window shows, dialogs included.
func TestScreenHoldsDialogs(t *testing.T) {
	a := guitest.NewApp(t)
	w := a.NewWindow("Main")
	w.SetContent(widget.NewButton("Press me", nil))
	w.Resize(fyne.NewSize(400, 300))
	w.Show()
	d := dialog.NewForm("Rename chat", "Rename", "Cancel", []*widget.FormItem{widget.NewFormItem("Title", widget.NewEntry())}, nil, w)
	d.Show()
	s := screen()
	text := s.ScreenText()
	for _, want := range []string{"[button] Press me", "[label] Rename chat", "[button] Rename", "[button] Cancel"} {
		if !strings.Contains(text, want) {
			t.Errorf("the screen lacks %q:\n%s", want, text)
		}
	}
}
