package settings

import (
	"fyne.io/fyne/v2"

	"deckhand/config"
	"deckhand/store"
)

// Host is the window the settings belong to (package gui's UI). The
// settings reach the bridge and the UI goroutine only through it.
type Host interface {
	// Config is the config as last read.
	Config() *config.Config
	// WriteConfig applies edits to the config file, reloads it and gives
	// every conversation the new config.
	WriteConfig(edits []config.Edit, tables map[string]map[string]any) error
	// ReuseConfig gives the conversations the same config again, for the
	// model client to read the key anew.
	ReuseConfig()
	// ApplyLook applies a theme and text size to the app.
	ApplyLook(ui config.UI)
	// App is the Fyne app.
	App() fyne.App
	// Quit quits Deckhand as Ctrl+Q does: asking first while a run is
	// going.
	Quit()
	// NewPanel opens a panel drawn in the main window in the chat's place.
	NewPanel(title string) fyne.Window
	// Icon is the app's icon, or nil.
	Icon() fyne.Resource
	// LookupEnv reads Deckhand's environment.
	LookupEnv(name string) (string, bool)
	// Post runs f on the UI goroutine.
	Post(f func())
	// ListGrants asks the bridge for the "always allow" grants; reply runs
	// on the UI goroutine.
	ListGrants(reply func([]store.Grant, error))
	// RevokeGrant revokes one; reply runs on the UI goroutine.
	RevokeGrant(tool string, reply func(error))
	// AddSecret makes the log and the conversations remove value (a key
	// typed into the settings) before the config that uses it arrives.
	AddSecret(value string)
}
