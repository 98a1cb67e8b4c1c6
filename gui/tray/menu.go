package tray

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/systray"
)

// Install puts Deckhand's menu in the system tray: Show Deckhand (show),
// Quick prompt… (quick) and Quit (quit, which asks first while a run is
// going). icon may be nil. An app without a tray
// (Fyne's test driver) gets none.
//
// opened is called, on a goroutine of its own, each time the tray host
// says it opened the menu: the pointer went to the tray, and Fyne, which
// sends no event when the pointer leaves a window that keeps the focus
// (the tray's menu takes none), cannot tell the window. Hosts built on
// libdbusmenu-qt (KDE Plasma) say so with dbusmenu's "opened" event, which
// Fyne's tray (fyne.io/systray) passes on in TrayOpenedCh, as it does
// macOS's menu opening; a host that sends none (gtk-sni-tray and others on
// libdbusmenu-gtk, which only ask AboutToShowGroup) leaves opened uncalled.
func Install(app fyne.App, icon fyne.Resource, show, quick, quit, opened func()) {
	da, ok := app.(desktop.App)
	if !ok {
		return
	}
	showItem := fyne.NewMenuItem("Show Deckhand", show)
	quickItem := fyne.NewMenuItem("Quick prompt…", quick)
	quitItem := fyne.NewMenuItem("Quit", quit)
	quitItem.IsQuit = true
	da.SetSystemTrayMenu(fyne.NewMenu("Deckhand", showItem, quickItem, fyne.NewMenuItemSeparator(), quitItem))
	if icon != nil {
		da.SetSystemTrayIcon(icon)
	}
	// The tray sends without waiting (an opening with nobody receiving is
	// dropped): this goroutine is always receiving, for as long as the
	// process runs, as the tray does.
	go func() {
		for range systray.TrayOpenedCh {
			opened()
		}
	}()
}
