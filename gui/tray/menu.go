package tray

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
)

// Install puts Deckhand's menu in the system tray: Show Deckhand (show),
// Quick prompt… (quick) and Quit. icon may be nil. An app without a tray
// (Fyne's test driver) gets none.
func Install(app fyne.App, icon fyne.Resource, show, quick func()) {
	da, ok := app.(desktop.App)
	if !ok {
		return
	}
	showItem := fyne.NewMenuItem("Show Deckhand", show)
	quickItem := fyne.NewMenuItem("Quick prompt…", quick)
	quit := fyne.NewMenuItem("Quit", app.Quit)
	quit.IsQuit = true
	da.SetSystemTrayMenu(fyne.NewMenu("Deckhand", showItem, quickItem, fyne.NewMenuItemSeparator(), quit))
	if icon != nil {
		da.SetSystemTrayIcon(icon)
	}
}
