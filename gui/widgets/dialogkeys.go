package widgets

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
)

// DialogKeys gives a dialog open on w the window's keys: Enter (or
// Return) does its default, Escape its way out. Fyne's dialogs take no
// keys of their own, and a field that had the keyboard kept every key
// while the dialog covered it. The keyboard leaves that field while the
// dialog shows; the function returned gives back the window's own key
// handler and that field's focus (unless what the dialog did put the
// focus elsewhere: Keep the key in a file puts it in the key's field).
func DialogKeys(w fyne.Window, onEnter, onEscape func()) (restore func()) {
	c := w.Canvas()
	prev, keys := c.Focused(), c.OnTypedKey()
	c.Unfocus()
	done := false
	c.SetOnTypedKey(func(k *fyne.KeyEvent) {
		if done {
			return
		}
		switch k.Name {
		case fyne.KeyReturn, fyne.KeyEnter:
			if onEnter != nil {
				onEnter()
			}
		case fyne.KeyEscape:
			if onEscape != nil {
				onEscape()
			}
		}
	})
	return func() {
		if done {
			return
		}
		done = true
		c.SetOnTypedKey(keys)
		if c.Focused() != nil {
			return
		}
		if o, ok := prev.(fyne.CanvasObject); ok && o.Visible() {
			c.Focus(prev)
		}
	}
}

// WithDialogKeys shows d on w with DialogKeys, given back when d closes
// however it closes.
func WithDialogKeys(d dialog.Dialog, w fyne.Window, onEnter, onEscape func()) {
	restore := DialogKeys(w, onEnter, onEscape)
	d.SetOnClosed(restore)
	d.Show()
}

// FileDialogKeys is DialogKeys for a Fyne file dialog on w: Escape calls
// dismiss once a click in the list took the keyboard from the name's field
// (Fyne's field keeps Escape and does nothing with it, and it went to
// what was behind the dialog: Stop on an answer being written), and on a
// question the dialog asked over itself (Overwrite?, Cannot overwrite)
// Escape is that question's No, back to the dialog. Call restore first in
// the dialog's callback (Fyne calls it before OnClosed after Overwrite?)
// and as its OnClosed; call shown right after the dialog's Show.
func FileDialogKeys(w fyne.Window, dismiss func()) (restore, shown func()) {
	c := w.Canvas()
	var own fyne.CanvasObject // the dialog's overlay, once shown
	restore = DialogKeys(w, nil, func() {
		if top := c.Overlays().Top(); top != nil && top != own {
			top.Hide()
			c.Overlays().Remove(top)
			return
		}
		dismiss()
	})
	return restore, func() { own = c.Overlays().Top() }
}

// ShowError shows err on w as Fyne's error dialog does, with the window's
// keys: Enter and Escape close it. (Fyne's took neither, and Escape went
// to what was behind it: Settings closed under the keyring's error.)
func ShowError(err error, w fyne.Window) {
	d := dialog.NewError(err, w)
	WithDialogKeys(d, w, d.Hide, d.Hide)
}

// ShowInformation shows msg on w as Fyne's information dialog does, with
// the window's keys: Enter and Escape close it.
func ShowInformation(title, msg string, w fyne.Window) {
	d := dialog.NewInformation(title, msg, w)
	WithDialogKeys(d, w, d.Hide, d.Hide)
}

// ShowConfirm shows d (dialog.NewConfirm's, its words set) on w with the
// window's keys: Enter answers with its confirm button, the default Fyne
// fills, and Escape with its dismiss button.
func ShowConfirm(d *dialog.ConfirmDialog, w fyne.Window) {
	WithDialogKeys(d, w, d.Confirm, d.Hide)
}
