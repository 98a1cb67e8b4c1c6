package widgets

import (
	"reflect"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"
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
// dismiss, from the name's field too, and on a question the dialog asked
// over itself (Overwrite?, Cannot overwrite) Escape is that question's No,
// back to the dialog. Call restore first in the dialog's callback (Fyne
// calls it before OnClosed after Overwrite?) and as its OnClosed; call
// shown right after the dialog's Show. Escape in the name's field, which
// a Save dialog's has at Show, did nothing (Fyne's field keeps the key),
// and once a click in the list had taken the keyboard it went to what was
// behind the dialog: Stop on an answer being written.
func FileDialogKeys(w fyne.Window, dismiss func()) (restore, shown func()) {
	c := w.Canvas()
	var own fyne.CanvasObject // the dialog's overlay, once shown
	escape := func() {
		if top := c.Overlays().Top(); top != nil && top != own {
			top.Hide()
			c.Overlays().Remove(top)
			return
		}
		dismiss()
	}
	restore = DialogKeys(w, nil, escape)
	return restore, func() {
		own = c.Overlays().Top()
		escapeInName(c, own, escape)
	}
}

// escapeInName makes Escape in a file dialog's focused name field (dlg's)
// call onEscape. The field is Fyne's, which keeps the key, so it is swapped
// for an EscEntry that mirrors it both ways: the dialog still reads the
// name from its field, and sets it there when a file is chosen in the
// list. Nothing changes if no entry of dlg has the keyboard (an Open
// dialog's name is a label).
func escapeInName(c fyne.Canvas, dlg fyne.CanvasObject, onEscape func()) {
	name, ok := c.Focused().(*widget.Entry)
	if !ok || dlg == nil {
		return
	}
	mirror := NewEscEntry(onEscape)
	mirror.PlaceHolder = name.PlaceHolder
	if !swapIn(dlg, name, mirror) {
		return
	}
	mirror.SetText(name.Text)
	mirror.CursorColumn = name.CursorColumn
	changed := name.OnChanged
	name.OnChanged = func(s string) {
		if changed != nil {
			changed(s)
		}
		if mirror.Text != s {
			mirror.SetText(s)
		}
	}
	mirror.OnChanged = func(s string) {
		if name.Text != s {
			name.SetText(s)
		}
	}
	mirror.OnSubmitted = func(s string) {
		if name.OnSubmitted != nil {
			name.OnSubmitted(s)
		}
	}
	c.Focus(mirror)
}

// swapIn puts by in old's place under o, through the containers, scrolls,
// splits and pop-ups that hold it, and reports whether it found old. A
// dialog's overlay is of a type Fyne keeps internal: its exported Content
// is read by reflection (if Fyne changes it, nothing is found, and the
// name's field keeps Escape as before).
func swapIn(o, old, by fyne.CanvasObject) bool {
	switch x := o.(type) {
	case *widget.PopUp:
		return swapIn(x.Content, old, by)
	case *container.Scroll:
		if x.Content == old {
			x.Content = by
			x.Refresh()
			return true
		}
		return swapIn(x.Content, old, by)
	case *container.Split:
		return swapIn(x.Leading, old, by) || swapIn(x.Trailing, old, by)
	case *fyne.Container:
		for i, c := range x.Objects {
			if c == old {
				x.Objects[i] = by
				x.Refresh()
				return true
			}
			if swapIn(c, old, by) {
				return true
			}
		}
	default:
		v := reflect.ValueOf(o)
		if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
			return false
		}
		if f := v.Elem().FieldByName("Content"); f.IsValid() && f.CanInterface() {
			if inner, ok := f.Interface().(fyne.CanvasObject); ok && inner != nil {
				return swapIn(inner, old, by)
			}
		}
	}
	return false
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
