// Package servers is the servers panel, drawn in the main window in the
// chat's place: each MCP server's state, transport, protocol and tools;
// connect, disconnect, reconnect, sign in and out (panel.go, signin.go);
// the form that adds or edits a server, tried before it is saved (package
// connect; form.go opens it, is its Host and saves what it tried); a
// server's tools, enabled or disabled, with their pages (tools.go), each
// run by hand from its page (run.go); its restarts (restart.go); the
// built-in server's row (local.go); and a server's resources, attached to
// the next message (resources.go). host.go: the Host and the messages to
// the bridge.
//
// It imports the servers actors' package (deckhand/actors/servers) under
// its own name: inside this package, servers.X is always the actors'.
//
// The window (package gui) is the Host: it hands in the servers' states
// and the catalog once per frame (Panel.Refresh reads them from the
// Host), and passes the panel's Ask messages on to the bridge. The panel
// never sees the bridge.
//
// Concurrency: everything here belongs to the UI goroutine. Writing the
// config file and asking the actors run off it (and trying a server, in
// package connect); their answers come back through Host.Post.
package servers
