package servers

import (
	"context"
	"log/slog"
	"net/url"

	"fyne.io/fyne/v2"

	"deckhand/actors"
	"deckhand/actors/conversation"
	"deckhand/actors/servers"
	"deckhand/config"
	"deckhand/tools"
)

// Host is the window the servers panel belongs to (package gui's UI). The
// panel reaches the bridge and the UI goroutine only through it.
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
	// Tell sends the bridge a message (an Ask).
	Tell(msg any)
	// Logger takes what goes wrong off screen.
	Logger() *slog.Logger
	// System is the actors' system, nil when there is none.
	System() System
	// Config is the config as last read; SetConfig makes a config read
	// again the window's and every conversation's.
	Config() *config.Config
	SetConfig(cfg *config.Config)
	// Statuses are the servers' states as the bridge last told, by alias;
	// Catalog the tools' catalog (nil before the first).
	Statuses() []servers.ServerStatus
	Catalog() *tools.Catalog
	// LookupEnv reads the environment the servers are started with.
	LookupEnv(name string) (string, bool)
	// RunByHand starts a chat of its own for a call the person runs, and
	// shows it.
	RunByHand(run *conversation.ToolRun)
	// OpenURL opens a link in the browser, or a file: URL's folder in the
	// file manager.
	OpenURL(link *url.URL) error
	// AttachResource attaches a server's resource to the next message.
	AttachResource(alias, uri string)
}

// System is what the panel asks of the actors (actors.System).
type System interface {
	ServerListing(ctx context.Context, alias string) (*servers.ServerListing, error)
	SetDisabledTools(alias string, names []string)
	HasQuarantined(alias string) bool
	PinStates(list []tools.Tool) []actors.PinState
	Gone(alias string) []actors.GonePin
	ReviewTool(ctx context.Context, tool string) error
	Resources(ctx context.Context, alias string) (*servers.ResourceListing, error)
}

var _ System = (*actors.System)(nil)

// Ask is a message from the panel to the bridge, through Host.Tell.
type Ask interface{ ask() }

// The panel's messages to the bridge.
type (
	// Reconnect drops a server's connection and connects again, or
	// connects a server disconnected.
	Reconnect struct{ Alias string }
	// Disconnect stops a server for this session (the config keeps it).
	Disconnect struct{ Alias string }
	// Changed says the config file changed a server: Old (if not "") was
	// removed or replaced, and Server (if not nil) is to run under Alias.
	// The window has taken the config read again (Host.SetConfig) before
	// it is sent.
	Changed struct {
		Old, Alias string
		Server     *config.Server
	}
	// SignIn asks a server to sign in (the browser opens at its page).
	SignIn struct{ Alias string }
	// SignOut forgets a server's sign-in and disconnects it.
	SignOut struct{ Alias string }
)

func (*Reconnect) ask()  {}
func (*Disconnect) ask() {}
func (*Changed) ask()    {}
func (*SignIn) ask()     {}
func (*SignOut) ask()    {}
