// Package desktop is the window's Fyne app on a real display: the one part
// of the window that needs cgo and a GL driver (fyne.io/fyne/v2/app), kept
// out of package gui so that gui's tests run headless on Fyne's test
// driver. With package gui it is the only code that imports Fyne; it also
// has the desktop's primary selection (Primary), through Fyne's GLFW.
//
// Quit and Do may be called from any goroutine; Run blocks on the calling
// goroutine (the process's main one) until the app quits.
package desktop

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"
)

// App is a Fyne app with its icon.
type App struct {
	app  fyne.App
	icon fyne.Resource
}

// New makes the app with the given unique id and icon (a PNG).
func New(id string, iconPNG []byte) *App {
	a := still(app.NewWithID(id))
	icon := fyne.NewStaticResource("deckhand.png", iconPNG)
	a.SetIcon(icon)
	return &App{app: a, icon: icon}
}

// Fyne is the app, for package gui.
func (a *App) Fyne() fyne.App { return a.app }

// Icon is the app's icon, for package gui's windows.
func (a *App) Icon() fyne.Resource { return a.icon }

// Run runs the app until it quits.
func (a *App) Run() { a.app.Run() }

// Quit ends the app (from any goroutine).
func (a *App) Quit() { fyne.Do(a.app.Quit) }

// Do runs f on the UI goroutine.
func (a *App) Do(f func()) { fyne.Do(f) }
