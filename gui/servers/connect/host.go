package connect

import (
	"fyne.io/fyne/v2"

	"deckhand/actors/servers"
	"deckhand/config"
)

// Host is the servers panel the form belongs to (package servers, over
// the window's Host). The form reaches the config, the servers' states
// and the UI goroutine only through it.
type Host interface {
	// App is the Fyne app (its clipboard, the windows' keys).
	App() fyne.App
	// Quit quits Deckhand as Ctrl+Q does: asking first while a run is
	// going.
	Quit()
	// Icon is the app's icon, or nil.
	Icon() fyne.Resource
	// NewPanel opens a panel drawn in the main window in the chat's place.
	NewPanel(title string) fyne.Window
	// Post runs f on the UI goroutine.
	Post(f func())
	// LookupEnv reads the environment the servers are started with.
	LookupEnv(name string) (string, bool)
	// Config is the config as last read.
	Config() *config.Config
	// Statuses are the servers' states as last told (an alias taken).
	Statuses() []servers.ServerStatus
	// Save writes a server that connected to the config (in place of
	// editing, if not ""), reads the config again and has the server
	// (re)started; the error is said in the form.
	Save(editing, alias string, srv config.Server) error
	// Closed says the form f closed (Cancel, Escape, saved).
	Closed(f *Form)
}
