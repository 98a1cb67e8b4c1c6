package apps

import "encoding/json"

// Frame is one line of JSON between Deckhand and its view helper
// (deckhand-view), on the helper's stdin (Deckhand's frames) and stdout
// (the helper's). Exactly one field is set.
type Frame struct {
	// Deckhand → helper.
	Open    *OpenView       `json:"open,omitempty"`    // first frame: what to show
	Deliver json.RawMessage `json:"deliver,omitempty"` // a JSON-RPC message for the view
	Resize  *Size           `json:"resize,omitempty"`  // the window's new size
	// Raise brings the window in front: the person answered, in
	// Deckhand's window, a question the view asked (Window.Raise).
	Raise bool `json:"raise,omitempty"`

	// Helper → Deckhand.
	Message string `json:"message,omitempty"` // a JSON-RPC message the view posted, as its text
	Event   string `json:"event,omitempty"`   // EventLoaded, EventBlocked…, EventCrashed, EventDropped
	Detail  string `json:"detail,omitempty"`  // the event's subject (a URI, a reason)
}

// OpenView is what the helper shows: one view, in a window of its own.
type OpenView struct {
	Title   string `json:"title"` // server.tool
	HTML    string `json:"html"`  // the resource's text
	CSP     string `json:"csp"`   // the Content-Security-Policy header it is served with
	Width   int    `json:"width"`
	Height  int    `json:"height"`
	Sandbox bool   `json:"sandbox"` // WebKit's own bubblewrap sandbox for its web process
	// Confined: the helper runs in Deckhand's sandbox, its network only
	// the egress proxy the sandbox names in its environment (http_proxy).
	Confined bool `json:"confined,omitempty"`
}

// Size is a window's size in pixels.
type Size struct {
	Width  int `json:"width"`
	Height int `json:"height"`
}

// Events the helper reports.
const (
	EventLoaded            = "loaded"
	EventBlockedNavigation = "blocked-navigation"
	EventBlockedWindow     = "blocked-window"
	EventBlockedLoad       = "blocked-load"
	EventBlockedPermission = "blocked-permission"
	EventBadMessage        = "bad-message"
	EventOversize          = "oversize" // a message over MaxMessageBytes, dropped by the helper
	EventDropped           = "dropped"  // messages the helper dropped because Deckhand was not reading
	EventCrashed           = "crashed"
)

// MaxMessageBytes caps one message from a view; the helper drops a larger
// one (saying so) rather than pass it on, and Deckhand stops the view.
const MaxMessageBytes = 1 << 20
