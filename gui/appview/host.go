package appview

import (
	"context"
	"encoding/json"
	"net/url"

	"fyne.io/fyne/v2"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/actors/conversation"
	"deckhand/tools"
	"deckhand/transcript"
)

// Host is the window the views are opened from (package gui's UI, through
// the chat view). Post, Tell and ReadResource are called off the UI
// goroutine, from a view's own.
type Host interface {
	// App is the Fyne app (its theme).
	App() fyne.App
	// Window is the main window, for the questions a view makes Deckhand
	// ask.
	Window() fyne.Window
	// ShowMain brings the main window in front (from behind a view's
	// window, or from the tray), where a view's question is asked.
	ShowMain()
	// Post runs f on the UI goroutine.
	Post(f func())
	// Tell sends the bridge a message (the types below).
	Tell(msg any)
	// OpenURL opens a link in the browser.
	OpenURL(link *url.URL) error
	// Catalog is the tools as the window last heard of them, or nil.
	Catalog() *tools.Catalog
	// ReadResource reads a server's resource (a view's page); it blocks.
	ReadResource(ctx context.Context, server, uri string) ([]*sdk.ResourceContents, error)
}

// Messages to the bridge, through Host.Tell.
type (
	// ViewCall is a tool call a tool's view asks for in conversation
	// Conv, through its gate; the result goes to Reply.
	ViewCall struct {
		Conv, View, Tool string
		Args             json.RawMessage
		Reply            chan<- conversation.ViewCallResult
	}
	// Propose sends Text to conversation Conv as the person's message (a
	// view proposed it, and the person said yes).
	Propose struct{ Conv, Text string }
	// Notice shows Text as a notice of the window.
	Notice struct{ Text string }
	// ReadCard asks for the tool card of call Call of run Run of
	// conversation Conv as it stands (the bridge's transcript, which
	// changes with the events Views.Hear is given, in the same order);
	// Reply gets it, or Found false. Reply has room for the answer.
	ReadCard struct {
		Conv, Run, Call string
		Reply           chan<- CardRead
	}
)

// CardRead answers a ReadCard.
type CardRead struct {
	Row   transcript.Row
	Found bool
}
