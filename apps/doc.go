// Package apps is Deckhand's host side of MCP Apps (SEP-1865, the ext-apps
// protocol): a tool whose definition names a ui:// resource of type
// text/html;profile=mcp-app has a view, an HTML page Deckhand shows in a
// web view of its own (the deckhand-view helper) and talks to in JSON-RPC.
//
// It owns reading a tool's view from its definition and resource (View),
// the Content-Security-Policy a view is served with (Policy), the pin of a
// view per definition (Views), the protocol with one running view
// (Session: initialization, the tool's input and result, size changes,
// ui/message, ui/open-link, tools/call, with caps on what a view may send)
// and the helper process (Start). What a view asks of Deckhand goes
// through Host, whose calls pass the same gate as the model's.
//
// Pure Go: no WebKit here. A Session runs in one goroutine of its own
// (Run); Deliver may be called from any goroutine. Views is safe for
// concurrent use.
package apps
