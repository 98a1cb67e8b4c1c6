package widgets

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
)

// CloseKeys makes Escape and Ctrl+W (Cmd+W) close a secondary window (the
// servers, a server's tools, the settings), as they close dialogs. A field
// being typed in keeps its keys: Escape there leaves the field first.
func CloseKeys(w fyne.Window, close func(), app fyne.App) {
	c := w.Canvas()
	c.SetOnTypedKey(func(k *fyne.KeyEvent) {
		if k.Name == fyne.KeyEscape {
			close()
		}
	})
	c.AddShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyW, Modifier: fyne.KeyModifierShortcutDefault}, func(fyne.Shortcut) { close() })
	QuitKey(w, app)
}

// QuitKey makes Ctrl+Q (Cmd+Q) in w quit the app, as in any desktop
// application.
func QuitKey(w fyne.Window, app fyne.App) {
	w.Canvas().AddShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyQ, Modifier: fyne.KeyModifierShortcutDefault}, func(fyne.Shortcut) { app.Quit() })
}
