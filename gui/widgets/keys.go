package widgets

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
)

// CloseKeys makes Escape and Ctrl+W (Cmd+W) close a secondary window (the
// servers, a server's tools, the settings), as they close dialogs. A field
// being typed in keeps its keys: Escape there leaves the field first.
// Neither closes the window under a dialog, which the keys are for (the
// window went, and the dialog stayed over the chat).
func CloseKeys(w fyne.Window, close, quit func()) {
	c := w.Canvas()
	closeUncovered := func() {
		if c.Overlays().Top() == nil {
			close()
		}
	}
	c.SetOnTypedKey(func(k *fyne.KeyEvent) {
		if k.Name == fyne.KeyEscape {
			closeUncovered()
		}
	})
	c.AddShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyW, Modifier: fyne.KeyModifierShortcutDefault}, func(fyne.Shortcut) { closeUncovered() })
	QuitKey(w, quit)
}

// QuitKey makes Ctrl+Q (Cmd+Q) in w call quit (the window's, which quits
// the app, asking first while a run is going), as in any desktop
// application; under a dialog too.
func QuitKey(w fyne.Window, quit func()) {
	w.Canvas().AddShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyQ, Modifier: fyne.KeyModifierShortcutDefault}, func(fyne.Shortcut) { quit() })
}
