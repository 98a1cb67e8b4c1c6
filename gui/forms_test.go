package gui

import (
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"

	"deckhand/config"
	"deckhand/gui/guitest"
)

// trayApp is the test app with a system tray, which the test driver lacks.
type trayApp struct {
	fyne.App
	menu *fyne.Menu
}

func (a *trayApp) SetSystemTrayMenu(m *fyne.Menu)    { a.menu = m }
func (a *trayApp) SetSystemTrayIcon(fyne.Resource)   {}
func (a *trayApp) SetSystemTrayWindow(w fyne.Window) {}

var _ desktop.App = (*trayApp)(nil)

func TestTrayMenu(t *testing.T) {
	a := &trayApp{App: guitest.NewApp(t)}
	u := New(Deps{App: a, Config: &config.Config{}, Tray: true})
	u.installTray()
	if a.menu == nil {
		t.Fatal("no tray menu")
	}
	var labels []string
	for _, it := range a.menu.Items {
		labels = append(labels, it.Label)
	}
	if want := []string{"Show Deckhand", "Quick prompt…", "", "Quit"}; !slices.Equal(labels, want) {
		t.Errorf("tray menu = %q, want %q", labels, want)
	}
	a.menu.Items[1].Action()
	if u.quick == nil || !u.quick.Visible() {
		t.Errorf("Quick prompt… did not open the quick prompt")
	}
	// With a tray, closing the window hides it; Show Deckhand brings it back.
	u.closeMain()
	if !u.hidden {
		t.Errorf("closing the window with a tray did not hide it")
	}
	a.menu.Items[0].Action()
	if u.hidden {
		t.Errorf("Show Deckhand did not show the window")
	}
}
