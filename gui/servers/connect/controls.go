package connect

import (
	"fyne.io/fyne/v2"

	"deckhand/gui/widgets"
)

// The connect and edit form's controls other than its fields (entry.go)
// are widgets' EscSelect, EscCheck and EscRadio: each, focused, hands
// Escape to the window's handler, the form's Cancel.

// formButton is a button of the form: a ring shows its focus, and keys
// other than Space and Enter go to the window (widgets.RingButton).
func formButton(label string, icon fyne.Resource, tapped func()) *widgets.RingButton {
	return widgets.NewRingButtonWithIcon(label, icon, tapped)
}
