package apps

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// ProtocolVersion is the ext-apps protocol version Deckhand speaks.
const ProtocolVersion = "2026-01-26"

// Host is what a view may ask of Deckhand. Each method may block (a
// person is asked) and returns when ctx is done.
type Host interface {
	// CallTool calls a tool of the view's server by its server's name for
	// it. It passes the same gate as the model's calls (policy, pins,
	// grants, approval); a refusal is a result with IsError, an error is
	// a failure to get any result.
	CallTool(ctx context.Context, name string, args json.RawMessage) (*sdk.CallToolResult, error)
	// Propose shows the person text the view proposes for the chat and
	// reports whether it was sent.
	Propose(ctx context.Context, text string) (bool, error)
	// OpenLink asks the person whether to open an http(s) URL and reports
	// whether it was opened.
	OpenLink(ctx context.Context, url string) (bool, error)
}

// Conn carries frames between Deckhand and one view: the helper's stdio
// (Start), or a scripted view in tests. Read is called from one goroutine
// at a time, Write too (Session serializes its writes).
type Conn interface {
	Read() (Frame, error) // io.EOF once the view is gone
	Write(Frame) error
}

// HostContext is what a view is told of where it is shown.
type HostContext struct {
	Theme  string // "light" or "dark"; "" for light
	Locale string // BCP 47, e.g. "en-US"; "" for en-US
	TZ     string // IANA time zone; "" for UTC
	Width  int    // the view's width in pixels; 0 for 640
	Height int    // its largest height; 0 for 480
}

// Limits cap what one view may do; a view over any of them is stopped.
// The zero value of each field takes the default given.
type Limits struct {
	MessagesPerSecond  int // messages of any kind in one second; 0: 100
	CallsPerMinute     int // tools/call in one minute; 0: 30
	CallsInFlight      int // tools/call not answered yet; 0: 4
	ProposalsPerMinute int // ui/message in one minute; 0: 5
	LinksPerMinute     int // ui/open-link in one minute; 0: 5
	Blocked            int // loads, navigations, windows and permissions refused; 0: 20
	BadMessages        int // messages that are not JSON-RPC; 0: 10
}

func (l Limits) withDefaults() Limits {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&l.MessagesPerSecond, 100)
	def(&l.CallsPerMinute, 30)
	def(&l.CallsInFlight, 4)
	def(&l.ProposalsPerMinute, 5)
	def(&l.LinksPerMinute, 5)
	def(&l.Blocked, 20)
	def(&l.BadMessages, 10)
	return l
}

// Config is one view's session.
type Config struct {
	Server, Tool string    // the tool whose view this is (its alias and name)
	Definition   *sdk.Tool // the tool's definition, told to the view
	View         View
	Input        json.RawMessage // the call's arguments; nil when the view is opened before any call
	Context      HostContext
	Limits       Limits
	HostVersion  string           // Deckhand's version; "" for dev
	Now          func() time.Time // nil: time.Now
	Logger       *slog.Logger     // nil: discard
}

// StoppedError says why Deckhand stopped a view (it misbehaved).
type StoppedError struct{ Reason string }

func (e *StoppedError) Error() string { return "view stopped: " + e.Reason }

// Session is the host side of the protocol with one view.
type Session struct {
	cfg  Config
	host Host
	conn Conn
	log  *slog.Logger

	wmu sync.Mutex // serializes writes to conn

	mu          sync.Mutex
	initialized bool
	result      *sdk.CallToolResult // to deliver once initialized
	cancelled   string              // the call was cancelled, and why: to deliver once initialized
	toldTheme   string              // the theme the view was last told; "" before its initialization
	delivered   bool                // result or cancelled delivered
	inFlight    int
	windows     map[string]*window
	blocked     int
	bad         int
	lastHeight  int
	stop        chan string   // the first reason a view is stopped
	ready       chan struct{} // closed when the view says it is initialized
}

// Initialized is closed once the view has said it is initialized (and
// has been given the tool's input and any result).
func (s *Session) Initialized() <-chan struct{} { return s.ready }

// NewSession makes the session of one view; Run starts it.
func NewSession(cfg Config, host Host, conn Conn) *Session {
	cfg.Limits = cfg.Limits.withDefaults()
	if cfg.Context.Theme != "dark" {
		cfg.Context.Theme = "light"
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Session{cfg: cfg, host: host, conn: conn, log: log.With("view", cfg.Server+"."+cfg.Tool),
		windows: map[string]*window{}, stop: make(chan string, 1), ready: make(chan struct{})}
}

// window counts events in fixed windows of a given length.
type window struct {
	start time.Time
	n     int
}

// over counts one event of kind and reports whether it goes over max in
// its window.
func (s *Session) over(kind string, max int, per time.Duration) bool {
	now := s.cfg.Now()
	w := s.windows[kind]
	if w == nil || now.Sub(w.start) >= per {
		w = &window{start: now}
		s.windows[kind] = w
	}
	w.n++
	return w.n > max
}

// flooded counts one event of kind and, where that goes over max in its
// window of per, stops the view, why being the reason (a format for max).
func (s *Session) flooded(kind string, max int, per time.Duration, why string) bool {
	s.mu.Lock()
	flood := s.over(kind, max, per)
	s.mu.Unlock()
	if flood {
		s.stopWith(why, max)
	}
	return flood
}

// replyLater answers request id, in a goroutine, with what the host did
// through do: {"isError": true} where it did not (the person declined),
// the host's error as one, and nothing once ctx is done (the view is
// closing).
func (s *Session) replyLater(ctx context.Context, id json.RawMessage, do func() (bool, error)) {
	go func() {
		done, err := do()
		if ctx.Err() != nil {
			return
		}
		if err != nil {
			s.fail(id, codeInternal, err.Error())
			return
		}
		s.reply(id, map[string]bool{"isError": !done})
	}()
}

func (s *Session) stopWith(format string, args ...any) {
	select {
	case s.stop <- fmt.Sprintf(format, args...):
	default:
	}
}

// SetResult gives the view the tool's result: at once when the view is
// initialized, else as soon as it is. A call ends once: the first of its
// result and its cancellation is the one told, later ones are dropped
// (the window may hear of the end twice as a view opens; a view never
// hears it twice).
func (s *Session) SetResult(r *sdk.CallToolResult) {
	s.end(func() { s.result = r })
}

// Cancel tells the view its tool's call was cancelled, and why (the
// person stopped the run): ui/notifications/tool-cancelled, at once when
// the view is initialized, else as soon as it is. A call already given
// its result (or cancelled) is not cancelled again (SetResult).
func (s *Session) Cancel(reason string) {
	if reason == "" {
		reason = "cancelled"
	}
	s.end(func() { s.cancelled = reason })
}

// Raise asks the helper to bring the view's window in front: the person
// answered, in Deckhand's window (which came in front to ask), a question
// the view asked, and goes on in the view.
func (s *Session) Raise() { s.write(Frame{Raise: true}) }

// end records the call's end with set, under s.mu, unless it has one
// already (the first of result and cancellation wins), and tells the view
// at once if it is initialized (else its initialization does).
func (s *Session) end(set func()) {
	s.mu.Lock()
	if s.result != nil || s.cancelled != "" {
		s.mu.Unlock()
		return
	}
	set()
	ready := s.initialized
	s.mu.Unlock()
	if ready {
		s.deliverResult()
	}
}

// SetTheme tells the view the host's theme changed ("light" or "dark"):
// ui/notifications/host-context-changed once it is initialized (before,
// its initialization carries the new theme).
func (s *Session) SetTheme(theme string) {
	if theme != "dark" {
		theme = "light"
	}
	s.mu.Lock()
	s.cfg.Context.Theme = theme
	s.mu.Unlock()
	s.tellTheme()
}

// tellTheme tells an initialized view the theme when it is not the one it
// was last told (by its initialization or a change).
func (s *Session) tellTheme() {
	s.mu.Lock()
	theme := s.cfg.Context.Theme
	tell := s.initialized && s.toldTheme != "" && s.toldTheme != theme
	if tell {
		s.toldTheme = theme
	}
	s.mu.Unlock()
	if tell {
		s.notify("ui/notifications/host-context-changed", map[string]string{"theme": theme})
	}
}

// deliverResult sends the call's end, its result or its cancellation,
// once.
func (s *Session) deliverResult() {
	s.mu.Lock()
	r, cancelled := s.result, s.cancelled
	if (r == nil && cancelled == "") || s.delivered {
		s.mu.Unlock()
		return
	}
	s.delivered = true
	s.mu.Unlock()
	if r == nil {
		s.notify("ui/notifications/tool-cancelled", map[string]string{"reason": cancelled})
		return
	}
	s.notify("ui/notifications/tool-result", r)
}

// Run serves the view until it is gone (nil), ctx is done (ctx.Err()),
// or it misbehaves (*StoppedError). The caller ends the view's process
// after Run returns.
func (s *Session) Run(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // ends what the view's requests wait for
	frames := make(chan Frame)
	readErr := make(chan error, 1)
	go func() {
		for {
			f, err := s.conn.Read()
			if err != nil {
				readErr <- err
				return
			}
			select {
			case frames <- f:
			case <-ctx.Done():
				return
			}
		}
	}()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case reason := <-s.stop:
			s.log.Warn("view stopped", "reason", reason)
			return &StoppedError{Reason: reason}
		case err := <-readErr:
			select {
			case reason := <-s.stop:
				return &StoppedError{Reason: reason}
			default:
			}
			if errors.Is(err, io.EOF) {
				return nil
			}
			return fmt.Errorf("reading from the view: %w", err)
		case f := <-frames:
			s.frame(ctx, f)
		}
	}
}

func (s *Session) frame(ctx context.Context, f Frame) {
	if s.flooded("message", s.cfg.Limits.MessagesPerSecond, time.Second, "it sent more than %d messages in a second") {
		return
	}
	switch {
	case f.Event != "":
		s.event(f)
	case f.Message != "":
		s.message(ctx, f.Message)
	}
}

func (s *Session) event(f Frame) {
	switch f.Event {
	case EventLoaded:
		s.log.Info("view loaded")
	case EventOversize:
		s.stopWith("it sent a message of %s bytes (at most %d)", f.Detail, MaxMessageBytes)
	case EventDropped:
		s.stopWith("it sent messages faster than Deckhand reads them (%s dropped)", f.Detail)
	case EventCrashed:
		s.stopWith("its web process ended (%s)", f.Detail)
	case EventBlockedNavigation, EventBlockedWindow, EventBlockedLoad, EventBlockedPermission:
		s.log.Info("view refused", "what", f.Event, "target", f.Detail)
		s.mu.Lock()
		s.blocked++
		n := s.blocked
		s.mu.Unlock()
		if n > s.cfg.Limits.Blocked {
			s.stopWith("it tried %d times to leave its page or reach what it may not (last: %s %s)", n, f.Event, f.Detail)
		}
	case EventBadMessage:
		s.badMessage(f.Detail)
	}
}

func (s *Session) badMessage(why string) {
	s.mu.Lock()
	s.bad++
	n := s.bad
	s.mu.Unlock()
	s.log.Info("view sent a message that is not JSON-RPC", "why", why)
	if n > s.cfg.Limits.BadMessages {
		s.stopWith("it sent %d messages that are not JSON-RPC", n)
	}
}

// rpc is one JSON-RPC 2.0 message, either way.
type rpc struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  any             `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

const (
	codeInvalidParams  = -32602
	codeMethodNotFound = -32601
	codeInternal       = -32603
)

func (s *Session) message(ctx context.Context, text string) {
	if len(text) > MaxMessageBytes {
		s.stopWith("it sent a message of %d bytes (at most %d)", len(text), MaxMessageBytes)
		return
	}
	var m struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  string          `json:"method"`
		Params  json.RawMessage `json:"params"`
	}
	if err := json.Unmarshal([]byte(text), &m); err != nil || m.JSONRPC != "2.0" {
		s.badMessage("not a JSON-RPC 2.0 object")
		return
	}
	if m.Method == "" {
		return // a response to a request of Deckhand's: none waits for one
	}
	if len(m.ID) > 0 && !validID(m.ID) {
		s.badMessage("its id is neither a string nor a number")
		return
	}
	if len(m.ID) == 0 {
		s.notification(m.Method, m.Params)
		return
	}
	s.request(ctx, m.ID, m.Method, m.Params)
}

func validID(id json.RawMessage) bool {
	if len(id) > 200 {
		return false
	}
	var v any
	if json.Unmarshal(id, &v) != nil {
		return false
	}
	switch v.(type) {
	case string, float64:
		return true
	}
	return false
}

func (s *Session) notification(method string, params json.RawMessage) {
	switch method {
	case "ui/notifications/initialized":
		s.mu.Lock()
		first := !s.initialized
		s.initialized = true
		s.mu.Unlock()
		if first {
			if s.cfg.Input != nil {
				s.notify("ui/notifications/tool-input", map[string]json.RawMessage{"arguments": s.cfg.Input})
			}
			s.deliverResult()
			s.tellTheme() // switched between its initialization and now
			close(s.ready)
		}
	case "ui/notifications/size-changed":
		var p struct{ Width, Height float64 }
		if json.Unmarshal(params, &p) != nil {
			return
		}
		s.resize(int(p.Height))
	case "notifications/message":
		var p struct {
			Level string `json:"level"`
			Data  any    `json:"data"`
		}
		json.Unmarshal(params, &p)
		d := fmt.Sprint(p.Data)
		if len(d) > 500 {
			d = d[:500] + "…"
		}
		s.log.Debug("view log", "level", p.Level, "data", d)
	case "ui/notifications/request-teardown":
		s.stopWith("it asked to be closed")
	}
}

// resize fits the window to the height the view reports, within bounds.
func (s *Session) resize(h int) {
	maxH := s.cfg.Context.Height
	if maxH <= 0 {
		maxH = 480
	}
	h = min(max(h, 80), maxH)
	s.mu.Lock()
	same := h == s.lastHeight
	s.lastHeight = h
	s.mu.Unlock()
	if same {
		return
	}
	w := s.cfg.Context.Width
	if w <= 0 {
		w = 640
	}
	s.write(Frame{Resize: &Size{Width: w, Height: h}})
}

func (s *Session) request(ctx context.Context, id json.RawMessage, method string, params json.RawMessage) {
	switch method {
	case "ui/initialize":
		s.reply(id, s.initializeResult(params))
	case "ping":
		s.reply(id, struct{}{})
	case "ui/request-display-mode":
		s.reply(id, map[string]string{"mode": "inline"})
	case "tools/call":
		s.callTool(ctx, id, params)
	case "ui/message":
		s.propose(ctx, id, params)
	case "ui/open-link":
		s.openLink(ctx, id, params)
	default:
		s.fail(id, codeMethodNotFound, "Deckhand does not offer "+clip(method, 100)+" to views")
	}
}

func (s *Session) initializeResult(params json.RawMessage) any {
	var p struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	json.Unmarshal(params, &p)
	s.mu.Lock()
	c := s.cfg.Context // its theme changes (SetTheme)
	theme, locale, tz := c.Theme, c.Locale, c.TZ
	if theme != "dark" {
		theme = "light"
	}
	s.toldTheme = theme
	s.mu.Unlock()
	if locale == "" {
		locale = "en-US"
	}
	if tz == "" {
		tz = "UTC"
	}
	w, h := c.Width, c.Height
	if w <= 0 {
		w = 640
	}
	if h <= 0 {
		h = 480
	}
	version := s.cfg.HostVersion
	if version == "" {
		version = "dev"
	}
	toolInfo := map[string]any{}
	if s.cfg.Definition != nil {
		toolInfo["tool"] = s.cfg.Definition
	}
	return map[string]any{
		"protocolVersion": ProtocolVersion,
		"hostInfo":        map[string]string{"name": "Deckhand", "version": version},
		"hostCapabilities": map[string]any{
			"openLinks":   struct{}{},
			"serverTools": struct{}{},
			"logging":     struct{}{},
			"message":     map[string]any{"text": struct{}{}},
			"sandbox":     map[string]any{"csp": s.cfg.View.CSP},
		},
		"hostContext": map[string]any{
			"toolInfo":              toolInfo,
			"theme":                 theme,
			"displayMode":           "inline",
			"availableDisplayModes": []string{"inline"},
			"containerDimensions":   map[string]int{"width": w, "maxHeight": h},
			"locale":                locale,
			"timeZone":              tz,
			"platform":              "desktop",
			"userAgent":             "Deckhand/" + version,
		},
	}
}

func (s *Session) callTool(ctx context.Context, id json.RawMessage, params json.RawMessage) {
	var p struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if err := json.Unmarshal(params, &p); err != nil || p.Name == "" || len(p.Name) > 200 {
		s.fail(id, codeInvalidParams, "tools/call needs a tool's name and its arguments")
		return
	}
	if len(p.Arguments) == 0 || string(p.Arguments) == "null" {
		p.Arguments = json.RawMessage("{}")
	}
	s.mu.Lock()
	loop := s.over("call", s.cfg.Limits.CallsPerMinute, time.Minute)
	busy := s.inFlight >= s.cfg.Limits.CallsInFlight
	if !loop && !busy {
		s.inFlight++
	}
	s.mu.Unlock()
	if loop {
		s.stopWith("it called tools more than %d times in a minute", s.cfg.Limits.CallsPerMinute)
		return
	}
	if busy {
		s.fail(id, codeInternal, fmt.Sprintf("at most %d tool calls at once", s.cfg.Limits.CallsInFlight))
		return
	}
	s.log.Info("view calls a tool", "tool", s.cfg.Server+"."+p.Name)
	go func() {
		defer func() {
			s.mu.Lock()
			s.inFlight--
			s.mu.Unlock()
		}()
		res, err := s.host.CallTool(ctx, p.Name, p.Arguments)
		if ctx.Err() != nil {
			return
		}
		if err != nil {
			s.log.Info("a view's tool call failed", "tool", s.cfg.Server+"."+p.Name, "err", err)
			s.fail(id, codeInternal, err.Error())
			return
		}
		s.reply(id, res)
	}()
}

func (s *Session) propose(ctx context.Context, id json.RawMessage, params json.RawMessage) {
	var p struct {
		Role    string `json:"role"`
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		s.fail(id, codeInvalidParams, "ui/message needs a role and content")
		return
	}
	var parts []string
	for _, c := range p.Content {
		if c.Type == "text" && strings.TrimSpace(c.Text) != "" {
			parts = append(parts, c.Text)
		}
	}
	if len(parts) == 0 {
		s.fail(id, codeInvalidParams, "ui/message: Deckhand takes text content only, and there was none")
		return
	}
	if s.flooded("propose", s.cfg.Limits.ProposalsPerMinute, time.Minute, "it proposed more than %d messages in a minute") {
		return
	}
	s.replyLater(ctx, id, func() (bool, error) { return s.host.Propose(ctx, strings.Join(parts, "\n\n")) })
}

func (s *Session) openLink(ctx context.Context, id json.RawMessage, params json.RawMessage) {
	var p struct {
		URL string `json:"url"`
	}
	if err := json.Unmarshal(params, &p); err != nil || p.URL == "" {
		s.fail(id, codeInvalidParams, "ui/open-link needs a url")
		return
	}
	u, err := url.Parse(p.URL)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || len(p.URL) > 2048 {
		s.fail(id, codeInvalidParams, "ui/open-link: only http and https links are opened")
		return
	}
	if s.flooded("link", s.cfg.Limits.LinksPerMinute, time.Minute, "it asked to open more than %d links in a minute") {
		return
	}
	s.replyLater(ctx, id, func() (bool, error) { return s.host.OpenLink(ctx, u.String()) })
}

func (s *Session) reply(id json.RawMessage, result any) {
	s.send(rpc{JSONRPC: "2.0", ID: id, Result: result})
}

func (s *Session) fail(id json.RawMessage, code int, msg string) {
	s.send(rpc{JSONRPC: "2.0", ID: id, Error: &rpcError{Code: code, Message: msg}})
}

func (s *Session) notify(method string, params any) {
	raw, err := json.Marshal(params)
	if err != nil {
		s.log.Error("encoding a notification for a view", "method", method, "err", err)
		return
	}
	s.send(rpc{JSONRPC: "2.0", Method: method, Params: raw})
}

func (s *Session) send(m rpc) {
	raw, err := json.Marshal(m)
	if err != nil {
		s.log.Error("encoding a message for a view", "err", err)
		return
	}
	s.write(Frame{Deliver: raw})
}

func (s *Session) write(f Frame) {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	if err := s.conn.Write(f); err != nil {
		s.log.Debug("writing to the view", "err", err)
	}
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
