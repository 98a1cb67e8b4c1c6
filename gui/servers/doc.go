// Package servers is the servers panel, drawn in the main window in the
// chat's place: each MCP server's state, transport, protocol and tools;
// connect, disconnect, reconnect, sign in and out (panel.go, signin.go);
// the form that adds or edits a server, tried before it is saved, whose
// fields and controls take Escape and Ctrl+W as Cancel (connect.go,
// entry.go, controls.go, trial.go; the controls are widgets' Esc*); a server's tools, enabled or disabled, with
// their pages (tools.go), each run by hand from its page (run.go); and a
// server's resources, attached to the next message (resources.go).
//
// It imports the servers actors' package (deckhand/actors/servers) under
// its own name: inside this package, servers.X is always the actors'.
//
// The window (package gui) is the Host: it hands in the servers' states
// and the catalog once per frame (Panel.Refresh reads them from the
// Host), and passes the panel's Ask messages on to the bridge. The panel
// never sees the bridge.
//
// Concurrency: everything here belongs to the UI goroutine. Trying a
// server, writing the config file and asking the actors run off it; their
// answers come back through Host.Post.
package servers
