package composer

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// ModelPicker is the model picker: a Select that tells the composer when
// the person opens it, so that a list of models that waits on the
// keyring is asked for then (with the keyring's unlock prompt, said why),
// and not at start.
type ModelPicker struct {
	widget.Select
	// opening is told the picker is being opened; false: not now (the
	// models are being asked for, and the picker opens when they come).
	opening func() bool
}

func newModelPicker(changed func(string), opening func() bool) *ModelPicker {
	s := &ModelPicker{opening: opening}
	s.OnChanged = changed
	s.ExtendBaseWidget(s)
	return s
}

func (s *ModelPicker) Tapped(e *fyne.PointEvent) {
	if s.Disabled() || s.opening() {
		s.Select.Tapped(e)
	}
}

func (s *ModelPicker) TypedKey(e *fyne.KeyEvent) {
	switch e.Name {
	case fyne.KeySpace, fyne.KeyUp, fyne.KeyDown:
		if !s.opening() {
			return
		}
	}
	s.Select.TypedKey(e)
}

// ScreenItem: the picker is a select on the screen dump.
func (s *ModelPicker) ScreenItem() (kind, text string, leaf bool) {
	return "select", s.Selected, true
}
