//go:build !blink && !darwin

package desktop

import "fyne.io/fyne/v2"

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
func still(a fyne.App) fyne.App {
	s := &stillApp{App: a, settings: &stillSettings{a.Settings()}} // one settings object for the app's life
	fyne.SetCurrentApp(s)
	return s
}

type stillApp struct {
	fyne.App
	settings *stillSettings
}

func (a *stillApp) Settings() fyne.Settings { return a.settings }

type stillSettings struct{ fyne.Settings }

func (*stillSettings) ShowAnimations() bool { return false }
