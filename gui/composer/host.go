package composer

import (
	"context"

	"fyne.io/fyne/v2"

	"deckhand/actors/servers"
	"deckhand/config"
)

// Host is the window the composer belongs to (package gui's UI). Its
// methods are called on the UI goroutine, but for the servers' ones,
// which block and are called off it.
type Host interface {
	// Config is the config as last read.
	Config() *config.Config
	// LookupEnv reads Deckhand's environment (the model's API key).
	LookupEnv(name string) (string, bool)
	// Window is the main window.
	Window() fyne.Window
	// Post runs f on the UI goroutine.
	Post(f func())
	// Tell sends the bridge a message (SetModel).
	Tell(msg any)
	// ShowError tells the person of a problem.
	ShowError(msg string)
	// KeepFocus notes where the keyboard is before a dialog takes it; the
	// function returned puts it back.
	KeepFocus() func()
	// Relayout lays the chat's area out again: what shows above the box
	// changed its height.
	Relayout()

	// ServerStatuses are the servers' states.
	ServerStatuses(ctx context.Context) ([]servers.ServerStatus, error)
	// Resources lists a server's resources (a chip shows a resource's
	// name, not its address).
	Resources(ctx context.Context, alias string) (*servers.ResourceListing, error)
	// ReadResource reads a server's resource.
	ReadResource(ctx context.Context, alias, uri string) (*servers.ResourceRead, error)
	// Subscribe makes the bridge hear of a resource's changes (off: no
	// longer); the window hands them on (ResourceUpdated).
	Subscribe(ctx context.Context, alias, uri string, off bool) error
	// Prompts lists a server's prompts.
	Prompts(ctx context.Context, alias string) (*servers.PromptListing, error)
	// GetPrompt asks a server for a prompt's messages.
	GetPrompt(ctx context.Context, alias, name string, args map[string]string) (*servers.PromptResult, error)
}

// SetModel chooses conversation Conv's model ("": the configured one), a
// message to the bridge.
type SetModel struct{ Conv, Name string }
