//go:build !blink && !darwin

package desktop

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
)

// still turns Fyne's animations off at run time, so that a plain `go
// build` (or `go install`) is as cheap at rest as one with Fyne's
// no_animations tag: the text cursor's blink redraws the window at the
// frame rate while a box has the focus (5.5% of a core idle, against 1.2%
// without). Fyne reads ShowAnimations from the current app's settings
// each time it would start one (the cursor, a button's ripple, the tabs),
// and otherwise only from a field of its global settings file, which is
// the person's, for every Fyne program: so the app is wrapped, and made
// the current one. Build with -tags blink for the blinking cursor.
//
// Not on macOS: there Fyne's theme watcher takes the settings for its own
// concrete type.
//
// The wrapper keeps what the app can do beyond fyne.App: an app with a
// system tray (desktop.App) is still one, or the window would have no tray
// icon and closing it would hide Deckhand for good.
func still(a fyne.App) fyne.App {
	s := &stillApp{App: a, settings: &stillSettings{a.Settings()}} // one settings object for the app's life
	var wrapped fyne.App = s
	if d, ok := a.(desktop.App); ok {
		wrapped = &stillTrayApp{stillApp: s, tray: d}
	}
	fyne.SetCurrentApp(wrapped)
	return wrapped
}

// stillTrayApp is a stillApp of an app with a system tray.
type stillTrayApp struct {
	*stillApp
	tray desktop.App
}

func (a *stillTrayApp) SetSystemTrayMenu(m *fyne.Menu)    { a.tray.SetSystemTrayMenu(m) }
func (a *stillTrayApp) SetSystemTrayIcon(r fyne.Resource) { a.tray.SetSystemTrayIcon(r) }
func (a *stillTrayApp) SetSystemTrayWindow(w fyne.Window) { a.tray.SetSystemTrayWindow(w) }

type stillApp struct {
	fyne.App
	settings *stillSettings
}

func (a *stillApp) Settings() fyne.Settings { return a.settings }

type stillSettings struct{ fyne.Settings }

func (*stillSettings) ShowAnimations() bool { return false }
