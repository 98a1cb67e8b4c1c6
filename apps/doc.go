// Package apps is Deckhand's host side of MCP Apps (SEP-1865, the ext-apps
// protocol): a tool whose definition names a ui:// resource of type
// text/html;profile=mcp-app has a view, an HTML page Deckhand shows in a
// web view of its own (the deckhand-view helper) and talks to in JSON-RPC.
//
// It owns reading a tool's view from its definition and resource (View),
// the Content-Security-Policy a view is served with (Policy), the pin of a
// view per definition (Views), the protocol with one running view
// (Session: initialization, the tool's input and result or its
// cancellation, theme changes, size changes, ui/message, ui/open-link,
// tools/call, with caps on what a view may send), the views open by the
// card they were opened from (Opened), and the helper process: in
// Deckhand's own sandbox (StartConfined, confine.go: the system's
// libraries and fonts, the display, a private home, and the egress proxy
// narrowed to the origins the resource declares), else plain with
// WebKit's bubblewrap (Start). What a view asks of Deckhand goes through
// Host, whose calls pass the same gate as the model's.
//
// Pure Go: no WebKit here. A Session runs in one goroutine of its own
// (Run); SetResult, Cancel and SetTheme may be called from any goroutine.
// Views and Opened are safe for concurrent use.
package apps
