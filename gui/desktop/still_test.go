//go:build !blink && !darwin

package desktop

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
)

// trayApp is an app with a system tray that records what it is given.
type trayApp struct {
	fyne.App
	menu *fyne.Menu
	icon fyne.Resource
	win  fyne.Window
}

func (a *trayApp) SetSystemTrayMenu(m *fyne.Menu)    { a.menu = m }
func (a *trayApp) SetSystemTrayIcon(r fyne.Resource) { a.icon = r }
func (a *trayApp) SetSystemTrayWindow(w fyne.Window) { a.win = w }

// The still wrapper turns animations off and keeps the tray: an app with a
// system tray is still a desktop.App once wrapped, and what the tray is
// given reaches it (without this Deckhand had no tray icon, and closing
// its window hid it for good); an app without one does not pretend to have
// one.
func TestStillKeepsTheTray(t *testing.T) {
	inner := &trayApp{App: test.NewTempApp(t)}
	a := still(inner)
	if a.Settings().ShowAnimations() {
		t.Error("animations are on")
	}
	d, ok := a.(desktop.App)
	if !ok {
		t.Fatal("the wrapped app lost its system tray")
	}
	m := fyne.NewMenu("Deckhand")
	d.SetSystemTrayMenu(m)
	d.SetSystemTrayIcon(fyne.NewStaticResource("i.png", nil))
	if inner.menu != m || inner.icon == nil {
		t.Error("the tray's menu or icon did not reach the app")
	}
	if _, ok := still(test.NewTempApp(t)).(desktop.App); ok {
		t.Error("an app without a tray claims one once wrapped")
	}
}
