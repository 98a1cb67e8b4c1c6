package dialogs

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"

	"deckhand/gui/dialogs/form"
	"deckhand/transport/mcp"
)

// Form is a question's form (package form) for other screens: a tool's
// Run on the servers panel builds its input form with it, so that a
// field reads, checks and names a wrong value as a question's does.
type Form struct{ ef *form.Form }

// NewForm builds f's fields; submit runs on Enter in a field, escape on
// Escape.
func NewForm(f *mcp.Form, submit, escape func()) *Form {
	return &Form{ef: form.New(f, submit, escape)}
}

// Object is the form, to put in a dialog.
func (f *Form) Object() fyne.CanvasObject { return f.ef.Object() }

// ScrollIn says which scroll the form is in: a field's focus brings it
// into view there, and the wheel over the form moves it.
func (f *Form) ScrollIn(s *container.Scroll) { f.ef.ScrollIn(s) }

// First is the first field that takes the focus, or nil.
func (f *Form) First() fyne.Focusable { return f.ef.First() }

// Fields are the form's fields, in the order shown.
func (f *Form) Fields() []*form.Field { return f.ef.Fields }

// Collect reads the answers checked against the form, or says what is
// wrong and which field to focus.
func (f *Form) Collect() (map[string]any, fyne.Focusable, error) { return f.ef.Collect() }
