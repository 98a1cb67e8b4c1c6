package apps

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// scriptedView is a view that sends what its script says and records what
// Deckhand delivers to it.
type scriptedView struct {
	in   chan Frame // what the view sends, in order; closed: the view is gone
	mu   sync.Mutex
	out  []Frame
	seen chan Frame
}

func newScriptedView() *scriptedView {
	return &scriptedView{in: make(chan Frame, 4096), seen: make(chan Frame, 4096)}
}

func (v *scriptedView) Read() (Frame, error) {
	f, ok := <-v.in
	if !ok {
		return Frame{}, io.EOF
	}
	return f, nil
}

func (v *scriptedView) Write(f Frame) error {
	v.mu.Lock()
	v.out = append(v.out, f)
	v.mu.Unlock()
	v.seen <- f
	return nil
}

func (v *scriptedView) send(msg string) { v.in <- Frame{Message: msg} }

// next waits for the next message Deckhand delivers, decoded.
func (v *scriptedView) next(t *testing.T) map[string]any {
	t.Helper()
	for {
		select {
		case f := <-v.seen:
			if f.Deliver == nil {
				continue
			}
			var m map[string]any
			if err := json.Unmarshal(f.Deliver, &m); err != nil {
				t.Fatalf("Deckhand delivered %s: %v", f.Deliver, err)
			}
			return m
		case <-time.After(10 * time.Second):
			t.Fatal("nothing delivered to the view within 10s")
		}
	}
}

// fakeHost records what the view asks and answers from its fields.
type fakeHost struct {
	mu       sync.Mutex
	calls    []string
	proposed []string
	links    []string
	block    chan struct{} // if set, CallTool waits on it
	send     bool
}

func (h *fakeHost) CallTool(ctx context.Context, name string, args json.RawMessage) (*sdk.CallToolResult, error) {
	h.mu.Lock()
	h.calls = append(h.calls, name+" "+string(args))
	block := h.block
	h.mu.Unlock()
	if block != nil {
		select {
		case <-block:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if name == "broken" {
		return nil, errors.New("the server is gone")
	}
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "ran " + name}}}, nil
}

func (h *fakeHost) Propose(ctx context.Context, text string) (bool, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.proposed = append(h.proposed, text)
	return h.send, nil
}

func (h *fakeHost) OpenLink(ctx context.Context, url string) (bool, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.links = append(h.links, url)
	return true, nil
}

func startSession(t *testing.T, cfg Config, host Host) (*scriptedView, *Session, chan error) {
	t.Helper()
	v := newScriptedView()
	if cfg.Server == "" {
		cfg.Server, cfg.Tool = "app", "show"
	}
	s := NewSession(cfg, host, v)
	done := make(chan error, 1)
	go func() { done <- s.Run(t.Context()) }()
	return v, s, done
}

func ended(t *testing.T, done chan error) error {
	t.Helper()
	select {
	case err := <-done:
		return err
	case <-time.After(10 * time.Second):
		t.Fatal("the session did not end within 10s")
		return nil
	}
}

// The protocol with a well-behaved view: initialize is answered with the
// host's context; once initialized, the tool's input and result arrive, in
// that order; a second result is not told; size changes resize the
// window within bounds; tools/call, ui/message and ui/open-link go to the
// host and their answers back to the view; unknown methods are refused.
func TestSessionProtocol(t *testing.T) {
	host := &fakeHost{send: true}
	def := &sdk.Tool{Name: "show", InputSchema: map[string]any{"type": "object"}}
	v, s, done := startSession(t, Config{Definition: def, Input: json.RawMessage(`{"city":"Oslo"}`),
		Context: HostContext{Theme: "dark", Locale: "nb-NO", Width: 500, Height: 400},
		View:    View{CSP: CSP{ConnectDomains: []string{"https://api.example.com"}}}}, host)
	s.SetResult(&sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "first"}}})

	v.send(`{"jsonrpc":"2.0","id":1,"method":"ui/initialize","params":{"protocolVersion":"2026-01-26","appInfo":{"name":"x","version":"1"},"appCapabilities":{}}}`)
	init := v.next(t)
	res, _ := init["result"].(map[string]any)
	ctx, _ := res["hostContext"].(map[string]any)
	if init["id"] != 1.0 || res["protocolVersion"] != ProtocolVersion || ctx["theme"] != "dark" || ctx["locale"] != "nb-NO" {
		t.Errorf("initialize answered %v", init)
	}
	if diff := cmp.Diff(map[string]any{"width": 500.0, "maxHeight": 400.0}, ctx["containerDimensions"]); diff != "" {
		t.Errorf("containerDimensions (-want +got):\n%s", diff)
	}
	if tool, _ := ctx["toolInfo"].(map[string]any)["tool"].(map[string]any); tool["name"] != "show" {
		t.Errorf("toolInfo = %v, want the definition", ctx["toolInfo"])
	}
	v.send(`{"jsonrpc":"2.0","method":"ui/notifications/initialized"}`)
	if m := v.next(t); m["method"] != "ui/notifications/tool-input" || fmt.Sprint(m["params"]) != "map[arguments:map[city:Oslo]]" {
		t.Errorf("first after initialized: %v, want the tool's input", m)
	}
	if m := v.next(t); m["method"] != "ui/notifications/tool-result" || !strings.Contains(fmt.Sprint(m["params"]), "first") {
		t.Errorf("second after initialized: %v, want the result", m)
	}
	// A call ends once: the window may hear of its end twice (as a view
	// opens, from the event and from the card), the view hears it once.
	s.SetResult(&sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "second"}}})
	s.Cancel("too late")
	v.send(`{"jsonrpc":"2.0","id":7,"method":"ping"}`)
	if m := v.next(t); m["id"] != 7.0 {
		t.Errorf("after a second result and a cancel: %v, want only the ping's answer (a result is told once)", m)
	}

	v.send(`{"jsonrpc":"2.0","method":"ui/notifications/size-changed","params":{"width":300,"height":9000}}`)
	for f := range v.seen {
		if f.Resize != nil {
			if *f.Resize != (Size{Width: 500, Height: 400}) {
				t.Errorf("resized to %+v, want 500×400 (the height capped)", *f.Resize)
			}
			break
		}
	}
	// Raise reaches the helper as a frame of its own.
	s.Raise()
	select {
	case f := <-v.seen:
		if !f.Raise {
			t.Errorf("after Raise the helper got %+v, want the raise frame", f)
		}
	case <-time.After(10 * time.Second):
		t.Error("Raise sent the helper nothing")
	}

	tests := []struct {
		name, send, want string
	}{
		{"tools/call", `{"jsonrpc":"2.0","id":"c1","method":"tools/call","params":{"name":"lookup","arguments":{"q":1}}}`, `ran lookup`},
		{"tools/call failing", `{"jsonrpc":"2.0","id":"c2","method":"tools/call","params":{"name":"broken"}}`, `the server is gone`},
		{"tools/call without a name", `{"jsonrpc":"2.0","id":"c3","method":"tools/call","params":{}}`, `-32602`},
		{"ui/message", `{"jsonrpc":"2.0","id":"m1","method":"ui/message","params":{"role":"user","content":[{"type":"text","text":"book it"}]}}`, `isError:false`},
		{"ui/message without text", `{"jsonrpc":"2.0","id":"m2","method":"ui/message","params":{"role":"user","content":[{"type":"image","data":"x"}]}}`, `text content only`},
		{"ui/open-link", `{"jsonrpc":"2.0","id":"l1","method":"ui/open-link","params":{"url":"https://example.com/a"}}`, `isError:false`},
		{"ui/open-link to a file", `{"jsonrpc":"2.0","id":"l2","method":"ui/open-link","params":{"url":"file:///etc/passwd"}}`, `only http and https`},
		{"ui/open-link to javascript", `{"jsonrpc":"2.0","id":"l3","method":"ui/open-link","params":{"url":"javascript:alert(1)"}}`, `only http and https`},
		{"unknown method", `{"jsonrpc":"2.0","id":9,"method":"sampling/createMessage","params":{}}`, `-32601`},
		{"ping", `{"jsonrpc":"2.0","id":10,"method":"ping"}`, `result:map[]`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v.send(tc.send)
			if m := v.next(t); !strings.Contains(fmt.Sprint(m), tc.want) {
				t.Errorf("answer = %v, want it to hold %q", m, tc.want)
			}
		})
	}
	host.mu.Lock()
	if diff := cmp.Diff([]string{`lookup {"q":1}`, `broken {}`}, host.calls); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"book it"}, host.proposed); diff != "" {
		t.Errorf("proposed (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"https://example.com/a"}, host.links); diff != "" {
		t.Errorf("links (-want +got):\n%s", diff)
	}
	host.mu.Unlock()
	close(v.in)
	if err := ended(t, done); err != nil {
		t.Errorf("Run = %v after the view went, want nil", err)
	}
}

// A hostile view is stopped, saying why, and the host is asked nothing
// more of it: floods of messages, a message over the cap, tool calls in a
// loop, too many calls at once, navigation attempts, proposals and links
// in a flood, garbage.
func TestSessionStopsHostileViews(t *testing.T) {
	call := func(i int) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"t","arguments":{}}}`, i)
	}
	tests := []struct {
		name   string
		limits Limits
		block  bool
		script func(v *scriptedView)
		reason string // in the StoppedError
		calls  int    // at most this many reach the host
	}{
		{name: "a flood of messages", script: func(v *scriptedView) {
			for range 200 {
				v.send(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}`)
			}
		}, reason: "more than 100 messages in a second"},
		{name: "a huge message", script: func(v *scriptedView) {
			v.send(`{"jsonrpc":"2.0","method":"x","params":"` + strings.Repeat("a", MaxMessageBytes) + `"}`)
		}, reason: "at most 1048576"},
		{name: "a huge message the helper dropped", script: func(v *scriptedView) {
			v.in <- Frame{Event: EventOversize, Detail: "52428800"}
		}, reason: "52428800 bytes"},
		{name: "messages the helper dropped", script: func(v *scriptedView) {
			v.in <- Frame{Event: EventDropped, Detail: "17"}
		}, reason: "17 dropped"},
		{name: "tool calls in a loop", limits: Limits{CallsPerMinute: 5}, script: func(v *scriptedView) {
			for i := range 20 {
				v.send(call(i))
			}
		}, reason: "more than 5 times in a minute", calls: 5},
		{name: "navigation attempts", script: func(v *scriptedView) {
			for range 30 {
				v.in <- Frame{Event: EventBlockedNavigation, Detail: "https://evil.example/"}
			}
		}, reason: "tried 21 times"},
		{name: "a flood of proposals", script: func(v *scriptedView) {
			for i := range 10 {
				v.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ui/message","params":{"role":"user","content":[{"type":"text","text":"buy"}]}}`, i))
			}
		}, reason: "more than 5 messages in a minute"},
		{name: "a flood of links", script: func(v *scriptedView) {
			for i := range 10 {
				v.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ui/open-link","params":{"url":"https://a.example/"}}`, i))
			}
		}, reason: "more than 5 links"},
		{name: "garbage", script: func(v *scriptedView) {
			for range 20 {
				v.send(`{"not":"json-rpc"}`)
			}
		}, reason: "11 messages that are not JSON-RPC"},
		{name: "its web process crashed", script: func(v *scriptedView) {
			v.in <- Frame{Event: EventCrashed, Detail: "exceeded its memory limit"}
		}, reason: "exceeded its memory limit"},
		{name: "it asks to be closed", script: func(v *scriptedView) {
			v.send(`{"jsonrpc":"2.0","method":"ui/notifications/request-teardown"}`)
		}, reason: "asked to be closed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			host := &fakeHost{}
			now := time.Unix(1000, 0) // the clock stands still: every message falls in one window
			v, _, done := startSession(t, Config{Limits: tc.limits, Now: func() time.Time { return now }}, host)
			go func() {
				for range v.seen {
				}
			}()
			tc.script(v)
			err := ended(t, done)
			var stopped *StoppedError
			if !errors.As(err, &stopped) || !strings.Contains(stopped.Reason, tc.reason) {
				t.Fatalf("Run = %v, want a StoppedError saying %q", err, tc.reason)
			}
			host.mu.Lock()
			defer host.mu.Unlock()
			if len(host.calls) > tc.calls {
				t.Errorf("%d calls reached the host, want at most %d", len(host.calls), tc.calls)
			}
		})
	}
}

// Calls at once beyond the cap are refused (not queued), and the view goes
// on; calls answered make room again.
func TestSessionCallsInFlight(t *testing.T) {
	host := &fakeHost{block: make(chan struct{})}
	v, _, done := startSession(t, Config{Limits: Limits{CallsInFlight: 2}}, host)
	for i := range 3 {
		v.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"t"}}`, i))
	}
	if m := v.next(t); m["id"] != 2.0 || !strings.Contains(fmt.Sprint(m["error"]), "at most 2 tool calls at once") {
		t.Errorf("the third call got %v, want a refusal", m)
	}
	close(host.block)
	for range 2 {
		if m := v.next(t); !strings.Contains(fmt.Sprint(m), "ran t") {
			t.Errorf("got %v, want a result", m)
		}
	}
	close(v.in)
	if err := ended(t, done); err != nil {
		t.Errorf("Run = %v", err)
	}
}

// A call cancelled (the person stopped the run) is told to its view as
// ui/notifications/tool-cancelled, after the tool's input, once the view
// is initialized (never before), and never after its result; a theme
// switched is told as ui/notifications/host-context-changed once it is
// initialized, and before that its initialization carries it.
func TestSessionCancelAndTheme(t *testing.T) {
	initialize := func(v *scriptedView) map[string]any {
		v.send(`{"jsonrpc":"2.0","id":1,"method":"ui/initialize","params":{"protocolVersion":"2026-01-26"}}`)
		return v.next(t)
	}
	t.Run("cancelled before initialized", func(t *testing.T) {
		v, s, _ := startSession(t, Config{Input: json.RawMessage(`{"q":1}`)}, &fakeHost{})
		s.Cancel("the person stopped the run")
		s.SetTheme("dark")
		init := initialize(v)
		if theme := init["result"].(map[string]any)["hostContext"].(map[string]any)["theme"]; theme != "dark" {
			t.Errorf("initialized with theme %v, want the theme switched to before, dark", theme)
		}
		v.send(`{"jsonrpc":"2.0","method":"ui/notifications/initialized"}`)
		if m := v.next(t); m["method"] != "ui/notifications/tool-input" {
			t.Errorf("first after initialized: %v, want the tool's input", m)
		}
		if m := v.next(t); m["method"] != "ui/notifications/tool-cancelled" || fmt.Sprint(m["params"]) != "map[reason:the person stopped the run]" {
			t.Errorf("second after initialized: %v, want tool-cancelled with the reason", m)
		}
	})
	t.Run("cancelled and switched after", func(t *testing.T) {
		v, s, _ := startSession(t, Config{Context: HostContext{Theme: "light"}}, &fakeHost{})
		initialize(v)
		v.send(`{"jsonrpc":"2.0","method":"ui/notifications/initialized"}`)
		s.SetTheme("light") // no change: nothing told
		s.SetTheme("dark")
		if m := v.next(t); m["method"] != "ui/notifications/host-context-changed" || fmt.Sprint(m["params"]) != "map[theme:dark]" {
			t.Errorf("after the switch: %v, want host-context-changed with the dark theme", m)
		}
		s.Cancel("stopped")
		if m := v.next(t); m["method"] != "ui/notifications/tool-cancelled" {
			t.Errorf("after Cancel: %v, want tool-cancelled", m)
		}
	})
	t.Run("not cancelled after its result", func(t *testing.T) {
		v, s, _ := startSession(t, Config{}, &fakeHost{})
		initialize(v)
		v.send(`{"jsonrpc":"2.0","method":"ui/notifications/initialized"}`)
		s.SetResult(&sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "done"}}})
		if m := v.next(t); m["method"] != "ui/notifications/tool-result" {
			t.Errorf("after SetResult: %v, want tool-result", m)
		}
		s.Cancel("too late")
		v.send(`{"jsonrpc":"2.0","id":2,"method":"ping"}`)
		if m := v.next(t); m["id"] != 2.0 {
			t.Errorf("after a cancel that came too late: %v, want only the ping's answer", m)
		}
	})
}
