package gui

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"github.com/asynkron/protoactor-go/actor"

	"deckhand/actors/conversation"
	"deckhand/approval"
	"deckhand/config"
	"deckhand/gui/guitest"
	"deckhand/gui/sidebar"
	"deckhand/gui/widgets"
	"deckhand/store"
	"deckhand/testutil"
	"deckhand/transcript"
	"deckhand/transport/llm"
)

// button finds a visible button by its label in w (dialogs included).
func (h *harness) button(w fyne.Window, label string) *widget.Button {
	h.t.Helper()
	var found *widget.Button
	objs := append([]fyne.CanvasObject{w.Canvas().Content()}, w.Canvas().Overlays().List()...)
	for _, o := range objs {
		guitest.Walk(o, func(o fyne.CanvasObject) {
			if r, ok := o.(*widgets.RingButton); ok {
				o = &r.Button // a dialog's button (ringbutton.go)
			}
			if b, ok := o.(*widget.Button); ok && b.Text == label && found == nil {
				found = b
			}
		})
	}
	return found
}

func (h *harness) tap(w fyne.Window, label string) {
	h.t.Helper()
	b := h.button(w, label)
	if b == nil {
		h.t.Fatalf("no button %q; the window shows:\n%s", label, strings.Join(h.texts(w), "\n"))
	}
	test.Tap(b)
}

func TestChatStreamsReply(t *testing.T) {
	h := newHarness(t, harnessOptions{responses: []testutil.ModelResponse{{
		Body: testutil.TextChunks("Hello", ", ", "wor", "ld", "!"),
		Pace: 40 * time.Millisecond,
	}}})
	h.say("hi there")
	if h.ui.input.Text != "" {
		t.Errorf("the message box still holds %q after Enter", h.ui.input.Text)
	}
	partial := map[string]bool{}
	h.until("the whole answer", func() bool {
		for _, r := range h.visibleRows() {
			if r.Row.Kind == transcript.Text && r.Row.Role == "assistant" {
				if r.Row.Streaming {
					partial[r.Text().RT.String()] = true
				}
				return !r.Row.Streaming && r.Text().RT.String() == "Hello, world!"
			}
		}
		return false
	})
	if len(partial) < 2 {
		t.Errorf("saw %d partial answers (%v); want the answer to grow as it streams", len(partial), partial)
	}
	if !h.shows(h.ui.win, "hi there") || !h.shows(h.ui.win, "You") || !h.shows(h.ui.win, "Deckhand") {
		t.Errorf("the transcript lacks the question or the headers:\n%s", strings.Join(h.texts(h.ui.win), "\n"))
	}
	h.until("the status line's tokens", func() bool { return strings.Contains(h.ui.status.Text, "10 tokens in, 5 out") })
	if !strings.Contains(h.ui.status.Text, "scripted") || !strings.Contains(h.ui.status.Text, "1 server ready") {
		t.Errorf("status = %q, want the model and the servers", h.ui.status.Text)
	}
}

func TestShiftEnterStartsANewLine(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	e := h.ui.input
	h.ui.win.Canvas().Focus(e)
	test.Type(e, "one")
	e.KeyDown(&fyne.KeyEvent{Name: desktop.KeyShiftLeft})
	e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	e.KeyUp(&fyne.KeyEvent{Name: desktop.KeyShiftLeft})
	test.Type(e, "two")
	if e.Text != "one\ntwo" {
		t.Errorf("after Shift+Enter the box holds %q, want %q", e.Text, "one\ntwo")
	}
	if n := len(h.model.Requests()); n != 0 {
		t.Errorf("Shift+Enter sent %d requests", n)
	}
	e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if e.Text != "" {
		t.Errorf("Enter left %q in the box", e.Text)
	}
}

func TestToolCardShowsProgressThenResult(t *testing.T) {
	h := newHarness(t, harnessOptions{
		cfg: func(c *config.Config) { c.MCP.AutoApprove = map[string]bool{"t.*": true} },
		fallback: toolThenText(testutil.ToolCallSpec{ID: "c1", Name: "t__slow", Arguments: `{"ms": 900, "steps": 3}`},
			"It slept."),
	})
	h.say("take your time")
	var sawSpinner, sawProgress bool
	h.until("the card's result", func() bool {
		c := h.card("t.slow")
		if c == nil {
			return false
		}
		tv := c.Tool()
		if c.Row.State == transcript.Running && tv.Spinner.Visible() {
			sawSpinner = true
		}
		if tv.Progress.Visible() && tv.Progress.Value > 0 && tv.Progress.Max == 3 {
			sawProgress = true
		}
		return c.Row.State == transcript.Succeeded && tv.Out.Visible() && tv.Out.String() == "slept 900ms"
	})
	if !sawSpinner || !sawProgress {
		t.Errorf("while running: spinner seen %v, progress seen %v; want both", sawSpinner, sawProgress)
	}
	c := h.card("t.slow")
	if !strings.Contains(c.Tool().Args.String(), `"ms": 900`) || !strings.HasPrefix(c.Tool().State.Text, "done in") {
		t.Errorf("finished card: args %q, state %q", c.Tool().Args.String(), c.Tool().State.Text)
	}
	if c.Tool().Spinner.Visible() || c.Tool().Progress.Visible() {
		t.Errorf("a finished card still shows its spinner or progress bar")
	}
	h.until("the answer after the tool", func() bool { return h.shows(h.ui.win, "It slept.") })
}

func TestLongToolOutputCollapses(t *testing.T) {
	long := strings.Repeat("a line of output\n", 40)
	h := newHarness(t, harnessOptions{
		cfg:      func(c *config.Config) { c.MCP.AutoApprove = map[string]bool{"t.*": true} },
		fallback: toolThenText(testutil.ToolCallSpec{ID: "c1", Name: "t__echo", Arguments: `{"text": ` + jsonQuote(long) + `}`}, "Done."),
	})
	h.say("echo a lot")
	h.until("the collapsed card", func() bool {
		c := h.card("t.echo")
		return c != nil && c.Row.State == transcript.Succeeded && c.Tool().Expand.Visible()
	})
	c := h.card("t.echo")
	if got := strings.Count(c.Tool().Out.String(), "a line of output"); got != transcript.CollapseAfter {
		t.Errorf("collapsed card shows %d lines, want %d", got, transcript.CollapseAfter)
	}
	test.Tap(c.Tool().Expand)
	h.until("the expanded card", func() bool {
		c := h.card("t.echo")
		return c != nil && strings.Count(c.Tool().Out.String(), "a line of output") == 40
	})
	if c := h.card("t.echo"); c.Tool().Expand.Text != "Show less" {
		t.Errorf("expanded card's button says %q", c.Tool().Expand.Text)
	}
}

func jsonQuote(s string) string {
	return `"` + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), "\n", `\n`) + `"`
}

// approvalHarness calls t.echo (read-only by its own, untrusted, word) on
// every message and answers "Echoed." once it has the result.
func approvalHarness(t *testing.T, mod func(*config.Config)) *harness {
	return newHarness(t, harnessOptions{
		log:      true,
		cfg:      mod,
		fallback: toolThenText(testutil.ToolCallSpec{ID: "c1", Name: "t__echo", Arguments: `{"text": "hi"}`}, "Echoed."),
	})
}

// runToEnd sends text and answers each approval dialog with ans (or, when
// ans is nil, expects none); it returns how many dialogs opened.
func (h *harness) runToEnd(text string, ans *approval.Answer) int {
	h.t.Helper()
	start := len(h.ui.chat.Rows)
	h.say(text)
	dialogs := 0
	h.until("the run's end", func() bool {
		if a := h.ui.dialogs.Approvals; a.Shown() != nil {
			dialogs++
			if ans == nil {
				h.t.Fatalf("a dialog opened for %s; want none", a.Shown().Request.Display)
			}
			test.Tap(a.Buttons[*ans])
		}
		if h.ui.running || len(h.ui.chat.Rows) <= start {
			return false
		}
		last := h.ui.chat.Rows[len(h.ui.chat.Rows)-1]
		return last.Kind == transcript.Text && last.Text == "Echoed."
	})
	return dialogs
}

func TestApprovalDialogAnswers(t *testing.T) {
	tests := []struct {
		name   string
		answer approval.Answer
		state  transcript.ToolState
		// Asked again: in the same conversation, and in a new one.
		againSame, againNew bool
	}{
		{"deny", approval.Deny, transcript.Denied, true, true},
		{"allow once", approval.AllowOnce, transcript.Succeeded, true, true},
		{"allow for this session", approval.AllowSession, transcript.Succeeded, false, true},
		{"always allow", approval.AllowAlways, transcript.Succeeded, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := approvalHarness(t, nil)
			h.say("echo hi")
			h.until("the approval dialog", func() bool { return h.ui.dialogs.Approvals.Shown() != nil })
			for _, want := range []string{"Allow this tool call?", "t.echo", "untrusted server", "read-only", "hint from an untrusted server", `"text": "hi"`} {
				if !h.shows(h.ui.win, want) {
					t.Errorf("the dialog does not show %q:\n%s", want, strings.Join(h.texts(h.ui.win), "\n"))
				}
			}
			for _, label := range []string{"Deny", "Allow once", "Allow for this session", "Always allow"} {
				if h.button(h.ui.win, label) == nil {
					t.Errorf("the dialog has no %q button", label)
				}
			}
			test.Tap(h.ui.dialogs.Approvals.Buttons[tt.answer])
			if h.ui.dialogs.Approvals.Shown() != nil {
				t.Errorf("the dialog stayed open after %s", tt.name)
			}
			h.until("the card's end", func() bool {
				c := h.card("t.echo")
				return c != nil && c.Row.State == tt.state
			})
			h.until("the answer", func() bool { return h.shows(h.ui.win, "Echoed.") })
			got := h.lastToolResult()
			if tt.answer == approval.Deny && !strings.Contains(strings.ToLower(got), "denied") || tt.answer != approval.Deny && !strings.Contains(got, "Echo: hi") {
				t.Errorf("after %s the model got %s", tt.name, got)
			}

			// The gate remembers the answer as it should.
			ans := tt.answer
			var maybe *approval.Answer
			if tt.againSame {
				maybe = &ans
			}
			if n := h.runToEnd("echo hi again", maybe); (n > 0) != tt.againSame {
				t.Errorf("same conversation: %d dialogs, want asked again %v", n, tt.againSame)
			}
			test.Tap(h.button(h.ui.win, "New chat"))
			h.until("a new chat", func() bool { return len(h.ui.chat.Rows) == 0 })
			maybe = nil
			if tt.againNew {
				maybe = &ans
			}
			if n := h.runToEnd("echo hi anew", maybe); (n > 0) != tt.againNew {
				t.Errorf("new conversation: %d dialogs, want asked again %v", n, tt.againNew)
			}
		})
	}
}

func TestApprovalTimeoutClosesDialogAsDeny(t *testing.T) {
	h := approvalHarness(t, func(c *config.Config) { c.MCP.ApprovalTimeout = 300 * time.Millisecond })
	h.say("echo hi")
	h.until("the approval dialog", func() bool { return h.ui.dialogs.Approvals.Shown() != nil })
	h.until("the dialog to close by itself", func() bool { return h.ui.dialogs.Approvals.Shown() == nil })
	h.until("the denied card", func() bool {
		c := h.card("t.echo")
		return c != nil && c.Row.State == transcript.Denied
	})
	h.until("the answer", func() bool { return h.shows(h.ui.win, "Echoed.") })
	if got := h.lastToolResult(); !strings.Contains(strings.ToLower(got), "denied") {
		t.Errorf("after a timeout the model got %s", got)
	}
	if len(h.ui.win.Canvas().Overlays().List()) != 0 {
		t.Errorf("an overlay is still open after the timeout")
	}
}

func TestApprovalsQueueAndNotify(t *testing.T) {
	h := newHarness(t, harnessOptions{fallback: func(req map[string]any) testutil.ModelResponse {
		msgs := req["messages"].([]any)
		if last := msgs[len(msgs)-1].(map[string]any); last["role"] == "tool" {
			return testutil.ModelResponse{Body: testutil.TextChunks("Both ran.")}
		}
		return testutil.ModelResponse{Body: testutil.ToolCallChunks(
			testutil.ToolCallSpec{ID: "a1", Name: "t__add", Arguments: `{"a": 1, "b": 2}`},
			testutil.ToolCallSpec{ID: "a2", Name: "t__add", Arguments: `{"a": 3, "b": 4}`},
		)}
	}})
	h.ui.foreground = false // another window is in front
	h.say("add twice")
	h.until("the first dialog and its notification", func() bool {
		_, all := h.notes.shown()
		return h.ui.dialogs.Approvals.Shown() != nil && len(all) >= 1
	})
	seen := map[string]bool{}
	h.until("both calls answered and run", func() bool {
		if a := h.ui.dialogs.Approvals; a.Shown() != nil && !seen[a.Shown().ID] {
			seen[a.Shown().ID] = true
			test.Tap(a.Buttons[approval.AllowOnce])
		}
		return h.shows(h.ui.win, "Both ran.")
	})
	if len(seen) != 2 {
		t.Errorf("%d dialogs opened for two calls", len(seen))
	}
	// Answered in the window: both withdrawn.
	h.until("the notifications withdrawn", func() bool { live, _ := h.notes.shown(); return len(live) == 0 })
	_, all := h.notes.shown()
	if len(all) != 2 {
		t.Errorf("%d notifications for two calls", len(all))
	}
	for _, n := range all {
		if n.Title != "Deckhand: Allow t.add?" || !strings.Contains(n.Body, `Tool "add" on the untrusted server "t":`) || !strings.Contains(n.Body, `"a": `) {
			t.Errorf("notification %q: %q", n.Title, n.Body)
		}
		var keys []string
		for _, a := range n.Actions {
			keys = append(keys, a.Key+"="+a.Label)
		}
		if got := strings.Join(keys, ","); got != "default=Open Deckhand,deny=Deny,allow=Allow once" {
			t.Errorf("actions %s", got)
		}
	}
	for _, r := range h.ui.chat.Rows {
		if r.Kind == transcript.Tool && r.State != transcript.Succeeded {
			t.Errorf("card %s ended %v", r.Call, r.State)
		}
	}
}

func TestStopButtonCancelsTheRun(t *testing.T) {
	pieces := make([]string, 200)
	for i := range pieces {
		pieces[i] = "word "
	}
	h := newHarness(t, harnessOptions{responses: []testutil.ModelResponse{{Body: testutil.TextChunks(pieces...), Pace: 50 * time.Millisecond}}})
	h.say("talk for a while")
	h.until("the run to start streaming", func() bool { return h.ui.stop.Visible() && h.shows(h.ui.win, "word") })
	test.Tap(h.ui.stop)
	h.until("the run to stop", func() bool { return !h.ui.running && h.ui.send.Visible() && h.shows(h.ui.win, "Stopped.") })
}

func TestServersPanel(t *testing.T) {
	up := testutil.ServeHTTP(t, testutil.NewServer("h"))
	h := newHarness(t, harnessOptions{cfg: func(c *config.Config) {
		c.MCP.Servers = map[string]config.Server{
			"h":    {URL: up.StreamableURL},
			"down": {URL: "http://127.0.0.1:1/mcp", ConnectTimeout: time.Second},
		}
	}})
	h.ui.showServers()
	sw := h.ui.serversW
	state := func(alias string) string {
		if r := sw.Rows[alias]; r != nil {
			return r.State.Text
		}
		return ""
	}
	h.until("h ready and down failed", func() bool {
		return state("h") == "ready" && strings.HasPrefix(state("down"), "failed")
	})
	if r := sw.Rows["down"]; !r.Reason.Visible() || !strings.Contains(r.Reason.Text, "127.0.0.1:1") {
		t.Errorf("the failed server's reason = %q (visible %v)", r.Reason.Text, r.Reason.Visible())
	}
	for _, want := range []string{"streamable", "protocol 20", "6 tools", "h 1.0.0"} {
		if !h.shows(sw.Win, want) {
			t.Errorf("the panel does not show %q:\n%s", want, strings.Join(h.texts(sw.Win), "\n"))
		}
	}
	h.until("the status line's count", func() bool { return strings.Contains(h.ui.status.Text, "2 servers ready  ·  down: down") })

	test.Tap(sw.Rows["h"].Disconnect)
	h.until("h disconnected", func() bool { return state("h") == "stopped" && sw.Rows["h"].Reason.Text == "disconnected" })
	if !sw.Rows["h"].Connect.Visible() || sw.Rows["h"].Disconnect.Visible() {
		t.Errorf("a disconnected server should offer Connect, not Disconnect")
	}
	// No empty line between its name and its reason (its details, which
	// a stopped server has none of).
	texts := h.texts(sw.Win)
	if i := slices.Index(texts, "disconnected"); i > 0 && texts[i-1] == "" || slices.Contains(texts, "") {
		t.Errorf("the disconnected row draws an empty line:\n%q", texts)
	}
	test.Tap(sw.Rows["h"].Connect)
	h.until("h ready again", func() bool { return state("h") == "ready" })

	h.until("h's tools in the catalog", func() bool { return h.ui.catalog != nil && len(h.ui.catalog.Server("h")) == 6 })
	test.Tap(sw.Rows["h"].Tools)
	// The tools take the servers panel's place, in the main window.
	var tw fyne.Window = sw.Win
	if tw.Title() != "Deckhand: tools of h" || h.ui.panel != sw.Win {
		t.Fatalf("Tools opened no panel: %q", tw.Title())
	}
	for _, want := range []string{"echo", "weather", "h.add", "Input schema", `"a"`} {
		if !h.shows(tw, want) {
			t.Errorf("the tools window does not show %q:\n%s", want, strings.Join(h.texts(tw), "\n"))
		}
	}
}

func TestConnectServerSavesAndStarts(t *testing.T) {
	up := testutil.ServeHTTP(t, testutil.NewServer("n"))
	t.Setenv("NOTES_TOKEN", "a-token")
	h := newHarness(t, harnessOptions{})
	h.ui.showServers()
	sw := h.ui.serversW
	srv, alias, err := config.ServerFromForm("URL", up.StreamableURL, "notes", "NOTES_TOKEN", "auto")
	if err != nil {
		t.Fatal(err)
	}
	sw.Connect(alias, srv)
	h.until("the new server ready", func() bool { return sw.Rows["notes"] != nil && sw.Rows["notes"].State.Text == "ready" })
	if !strings.HasPrefix(h.ui.status.Text, "scripted") {
		t.Errorf("saving the server lost the model: %q", h.ui.status.Text)
	}
	data, err := os.ReadFile(h.cfg.Path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "[mcp.servers.notes]") || !strings.Contains(string(data), up.StreamableURL) || !strings.Contains(string(data), `auth_env = "NOTES_TOKEN"`) {
		t.Errorf("the config file is\n%s", data)
	}
}

func TestSettingsWriteTheConfig(t *testing.T) {
	t.Setenv("MODEL_KEY", "sk-test-key")
	h := newHarness(t, harnessOptions{log: true, responses: []testutil.ModelResponse{{Body: testutil.TextChunks("From the bigger model.", " My key is sk-test-key.")}}})
	os.WriteFile(h.cfg.Path, []byte("# my settings\n[model]\nbase_url = \""+h.model.URL+"\"\nname = \"scripted\"\n"), 0o600)
	h.ui.showSettings()
	w := h.ui.settingsW
	entries, _ := h.settingsEntries()
	if len(entries) < 6 {
		t.Fatalf("the settings have %d entries, want 6", len(entries))
	}
	// In the form's order: URL, model, key variable, budget, timeout, rules.
	entries[1].SetText("bigger-model")
	entries[2].SetText("MODEL_KEY")
	entries[3].SetText("a lot")
	h.tap(w, "Save")
	if !h.shows(w, `budget: "a lot" is not a number of tokens`) {
		t.Errorf("a bad budget gave no error:\n%s", strings.Join(h.texts(w), "\n"))
	}
	entries[3].SetText("64000")
	entries[4].SetText("45s")
	entries[5].SetText("t.echo\nt.* = false\n")
	for _, o := range w.Canvas().Overlays().List() {
		o.Hide()
		w.Canvas().Overlays().Remove(o)
	}
	h.tap(w, "Save")
	data, _ := os.ReadFile(h.cfg.Path)
	for _, want := range []string{"# my settings", `name = "bigger-model"`, `api_key_env = "MODEL_KEY"`, "max_context_tokens = 64000", `approval_timeout = "45s"`, `"t.echo" = true`, `"t.*" = false`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("the config lacks %q:\n%s", want, data)
		}
	}
	h.until("the status line's new model", func() bool { return strings.HasPrefix(h.ui.status.Text, "bigger-model") })
	if h.ui.cfg.MCP.ApprovalTimeout != 45*time.Second || !h.ui.cfg.MCP.AutoApprove["t.echo"] {
		t.Errorf("the window's config was not reloaded: %+v", h.ui.cfg.MCP)
	}
	// The open conversation asks the new model from its next message on.
	h.say("who are you?")
	h.until("the answer", func() bool { return h.shows(h.ui.win, "From the bigger model.") })
	if req := string(h.model.Requests()[0]); !strings.Contains(req, `"model":"bigger-model"`) {
		t.Errorf("the request after the change: %s", req)
	}
	if got := h.model.Headers()[0].Get("Authorization"); got != "Bearer sk-test-key" {
		t.Errorf("the request after the change has Authorization %q, want the new key", got)
	}
	// The new key is a secret like those known at start: the log redacts it.
	if err := h.sys.SyncLog(t.Context()); err != nil {
		t.Fatal(err)
	}
	events, err := h.db.Events(t.Context(), store.Filter{SessionID: h.ui.conv})
	if err != nil {
		t.Fatal(err)
	}
	redacted := false
	for _, e := range events {
		if strings.Contains(string(e.Data), "sk-test-key") {
			t.Errorf("the log holds the new API key: %s %s", e.Kind, e.Data)
		}
		redacted = redacted || strings.Contains(string(e.Data), "[redacted]")
	}
	if !redacted {
		t.Errorf("no event was redacted; the answer held the key")
	}
}

func TestFirstRunOffersLocalModels(t *testing.T) {
	h := newHarness(t, harnessOptions{
		noModel:   true,
		responses: []testutil.ModelResponse{{Body: testutil.TextChunks("Ready.")}},
		probe: func(h *harness) []llm.Endpoint {
			return []llm.Endpoint{{Name: "Ollama", BaseURL: h.model.URL, Models: []string{"llama3.2", "qwen3"}},
				{Name: "LM Studio", BaseURL: "http://a-rather-long-host-name.example.internal:1234/v1", Models: []string{"a-model-with-a-long-name-too"}}}
		},
	})
	h.until("the endpoint found", func() bool { return h.shows(h.ui.win, "Ollama at "+h.model.URL) })
	// However long the address, the panel fits a small screen's window.
	if w := h.ui.setup.Found.MinSize().Width; w > 400 {
		t.Errorf("the servers found need %.0f pixels across", w)
	}
	if !h.shows(h.ui.win, "Choose a language model") || !h.shows(h.ui.win, "API key") {
		t.Errorf("the first-run panel does not explain what to do:\n%s", strings.Join(h.texts(h.ui.win), "\n"))
	}
	h.tap(h.ui.win, "Use this")
	data, _ := os.ReadFile(h.cfg.Path)
	if !strings.Contains(string(data), `base_url = "`+h.model.URL+`"`) || !strings.Contains(string(data), `name = "llama3.2"`) {
		t.Errorf("the config is\n%s", data)
	}
	if h.shows(h.ui.win, "Choose a language model") {
		t.Errorf("the panel stayed after a model was chosen")
	}
	// The first message is next: the box has the keyboard.
	if got := h.ui.win.Canvas().Focused(); got != h.ui.input {
		t.Errorf("after Use this the focus is on %T, not the message box", got)
	}
	h.say("are you there?")
	h.until("the answer", func() bool { return h.shows(h.ui.win, "Ready.") })
}

// Sending before a model is chosen opens the settings with a word why, at
// the model, and keeps the message in the box.
func TestSendWithoutAModel(t *testing.T) {
	h := newHarness(t, harnessOptions{noModel: true})
	h.ui.input.SetText("hi there")
	h.ui.sendInput()
	h.until("the settings, saying why", func() bool {
		return h.ui.settingsF != nil && strings.Contains(h.ui.settingsF.Checked.Text, "Choose a service and a model first") && h.ui.settingsF.Checked.Visible()
	})
	if got := h.ui.win.Canvas().Focused(); got != h.ui.settingsF.Model {
		t.Errorf("the focus is on %T, not the model", got)
	}
	if h.ui.input.Text != "hi there" {
		t.Errorf("the message box holds %q", h.ui.input.Text)
	}
}

func TestSessionsSidebar(t *testing.T) {
	dbPath := filepath.Join(t.TempDir(), "deckhand.db")
	h := newHarness(t, harnessOptions{dbPath: dbPath, responses: []testutil.ModelResponse{
		{Body: testutil.TextChunks("The first answer.")},
		{Body: testutil.TextChunks("The second answer.")},
	}})
	h.say("the first question")
	h.until("the first answer", func() bool { return h.shows(h.ui.win, "The first answer.") })
	h.tap(h.ui.win, "New chat")
	h.until("an empty chat", func() bool { return len(h.ui.chat.Rows) == 0 })
	h.say("the second question")
	h.until("the second answer", func() bool { return h.shows(h.ui.win, "The second answer.") })
	h.until("both sessions in the sidebar, with their tokens", func() bool {
		return len(h.ui.side.Items) == 2 && h.ui.side.Items[1].Title == "the first question" &&
			strings.Contains(h.ui.side.Items[1].Subtitle(time.Now()), "tokens")
	})
	h.ui.side.List.Select(1)
	h.until("the first session again", func() bool { return h.shows(h.ui.win, "The first answer.") && !h.shows(h.ui.win, "The second answer.") })
	if h.ui.title.Text != "the first question" {
		t.Errorf("title = %q", h.ui.title.Text)
	}

	// Another window on the same log (Deckhand restarted) lists both and
	// reopens the first from its events, then carries on with it.
	h.ui.Stop()
	h.sys.SyncLog(t.Context())
	h2 := newHarness(t, harnessOptions{dbPath: dbPath, responses: []testutil.ModelResponse{{Body: testutil.TextChunks("Still here.")}}})
	h2.until("the logged sessions", func() bool { return len(h2.ui.side.Items) == 2 })
	idx := -1
	for i, s := range h2.ui.side.Items {
		if s.Title == "the first question" {
			idx = i
		}
	}
	if idx < 0 {
		t.Fatalf("the sidebar lacks the first session: %+v", h2.ui.side.Items)
	}
	h2.ui.side.List.Select(idx)
	h2.until("the first session from the log", func() bool {
		return h2.shows(h2.ui.win, "the first question") && h2.shows(h2.ui.win, "The first answer.")
	})
	h2.say("and now?")
	h2.until("the follow-up's answer", func() bool { return h2.shows(h2.ui.win, "Still here.") })
	reqs := h2.model.Requests()
	if last := string(reqs[len(reqs)-1]); !strings.Contains(last, "the first question") || !strings.Contains(last, "The first answer.") {
		t.Errorf("the resumed conversation's request lacks its history: %s", last)
	}
}

func TestQuickPrompt(t *testing.T) {
	h := newHarness(t, harnessOptions{responses: []testutil.ModelResponse{{
		Body: testutil.TextChunks("Quick ", "and ", "to the point."), Pace: 30 * time.Millisecond,
	}}})
	h.ui.showQuick()
	q := h.ui.quick
	h.quickSay("a quick one")
	h.until("the quick answer", func() bool { return q.Answer.String() == "Quick and to the point." && q.Status.Text == "Done." })
	if h.shows(h.ui.win, "Quick and to the point.") {
		t.Errorf("the quick prompt's answer went to the main window's conversation")
	}
	h.tap(q.Window(), "Open in main window")
	h.until("the quick session in the main window", func() bool {
		return h.shows(h.ui.win, "a quick one") && h.shows(h.ui.win, "Quick and to the point.")
	})
	if q.Visible() {
		t.Errorf("the quick prompt stayed open")
	}
}

func TestQuickPromptApprovalUsesItsWindow(t *testing.T) {
	h := approvalHarness(t, nil)
	h.ui.showQuick()
	q := h.ui.quick
	h.quickSay("echo from the tray")
	h.until("the dialog", func() bool { return h.ui.dialogs.Approvals.Shown() != nil })
	if h.ui.dialogs.Parent() != q.Window() {
		t.Errorf("the approval opened on %q, want the quick prompt", h.ui.dialogs.Parent().Title())
	}
	test.Tap(h.ui.dialogs.Approvals.Buttons[approval.AllowOnce])
	h.until("the quick answer", func() bool { return q.Answer.String() == "Echoed." })
}

// An approval pending when the bridge restarts (a panic) is still
// answered from its dialog: the bridge keeps the request, whose Reply
// takes the answer straight to the waiting run.
func TestApprovalAnsweredAfterABridgeRestart(t *testing.T) {
	h := approvalHarness(t, nil)
	h.say("echo hi")
	h.until("the dialog", func() bool { return h.ui.dialogs.Approvals.Shown() != nil })
	h.ui.tell(bridgeDo(func(*bridge, actor.Context) { panic("a bug in the window") }))
	h.until("the notice of it", func() bool { return h.shows(h.ui.win, "Something went wrong in the window") })
	test.Tap(h.button(h.ui.win, "OK"))
	h.until("the dialog, still", func() bool { return h.ui.dialogs.Approvals.Shown() != nil })
	test.Tap(h.ui.dialogs.Approvals.Buttons[approval.AllowOnce])
	h.until("the call run, and the answer", func() bool { return h.shows(h.ui.win, "Echoed.") })
}

// The approval's answer goes from the dialog (the UI goroutine) straight
// to the run that asked, not through the bridge's mailbox: with the bridge
// held inside a message, the run still gets the answer, calls the tool
// and sends its result to the model. Once free, the bridge takes the
// request off its queue (from the run's ApprovalClosed), once.
func TestApprovalAnswerSkipsTheBridge(t *testing.T) {
	next := toolThenText(testutil.ToolCallSpec{ID: "c1", Name: "t__echo", Arguments: `{"text": "hi"}`}, "Echoed.")
	results := make(chan string, 1)
	h := newHarness(t, harnessOptions{log: true, fallback: func(req map[string]any) testutil.ModelResponse {
		msgs, _ := req["messages"].([]any)
		if last, _ := msgs[len(msgs)-1].(map[string]any); last["role"] == "tool" {
			select {
			case results <- fmt.Sprint(last["content"]):
			default:
			}
		}
		return next(req)
	}})
	h.say("echo hi")
	h.until("the dialog", func() bool { return h.ui.dialogs.Approvals.Shown() != nil })

	held, release := make(chan struct{}), make(chan struct{})
	var freed sync.Once
	free := func() { freed.Do(func() { close(release) }) }
	t.Cleanup(free)
	h.ui.tell(bridgeDo(func(*bridge, actor.Context) {
		close(held)
		<-release
	}))
	testutil.Receive(t, held, 10*time.Second, "bridge held")
	test.Tap(h.ui.dialogs.Approvals.Buttons[approval.AllowOnce])
	if got := testutil.Receive(t, results, 30*time.Second, "tool result at the model while the bridge was held (the answer waits in the bridge's mailbox)"); !strings.Contains(got, "Echo: hi") {
		t.Errorf("the model got %s, want the echo", got)
	}
	free()

	h.until("the answer", func() bool { return h.shows(h.ui.win, "Echoed.") })
	queued := make(chan int, 1)
	h.ui.tell(bridgeDo(func(b *bridge, _ actor.Context) { queued <- len(b.approvals) }))
	if n := testutil.Receive(t, queued, 10*time.Second, "bridge's queue"); n != 0 {
		t.Errorf("the bridge still queues %d approvals after the answer", n)
	}
	if strings.Contains(strings.Join(h.texts(h.ui.win), "\n"), "Approval closed") {
		t.Errorf("the window says the approval closed unanswered:\n%s", strings.Join(h.texts(h.ui.win), "\n"))
	}
}

func TestReopenedSessionShowsToolCards(t *testing.T) {
	dbPath := filepath.Join(t.TempDir(), "deckhand.db")
	rules := func(c *config.Config) { c.MCP.AutoApprove = map[string]bool{"t.echo": true} }
	h := newHarness(t, harnessOptions{dbPath: dbPath, cfg: rules,
		fallback: toolThenText(testutil.ToolCallSpec{ID: "c1", Name: "t__echo", Arguments: `{"text": "hi"}`}, "Echoed.")})
	h.say("echo hi")
	h.until("the answer", func() bool { return h.shows(h.ui.win, "Echoed.") })
	if err := h.sys.SyncLog(t.Context()); err != nil {
		t.Fatal(err)
	}
	h.ui.Stop()

	h2 := newHarness(t, harnessOptions{dbPath: dbPath, cfg: rules})
	h2.until("the logged session", func() bool { return len(h2.ui.side.Items) == 1 })
	h2.ui.side.List.Select(0)
	h2.until("the card from the log", func() bool {
		c := h2.card("t.echo")
		return c != nil && c.Row.State == transcript.Succeeded && c.Tool().Out.String() == "Echo: hi" &&
			strings.Contains(c.Tool().Args.String(), `"text": "hi"`)
	})
	if !h2.shows(h2.ui.win, "echo hi") || !h2.shows(h2.ui.win, "Echoed.") {
		t.Errorf("the reopened session lacks its messages:\n%s", strings.Join(h2.texts(h2.ui.win), "\n"))
	}
}

// TestSidebarListsSessionsWithMessages: a chat is a session once the
// person writes in it. The new chat is no row until then; empty sessions
// an older Deckhand logged are not listed; a run cut off by a killed
// Deckhand reads as interrupted.
func TestSidebarListsSessionsWithMessages(t *testing.T) {
	dbPath := filepath.Join(t.TempDir(), "deckhand.db")
	db, err := store.Open(t.Context(), dbPath)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().Add(-time.Hour)
	err = db.Write(t.Context(), &store.Batch{
		NewSessions: []store.NewSession{{ID: "s-empty", Time: now}, {ID: "s-killed", Time: now}},
		NewRuns:     []store.NewRun{{ID: "r-killed", SessionID: "s-killed", Time: now}}, // no owner: its process is gone
		Titles:      []store.Title{{SessionID: "s-killed", Title: "cut off"}},
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}

	h := newHarness(t, harnessOptions{dbPath: dbPath, responses: []testutil.ModelResponse{
		{Body: testutil.TextChunks("Hello back.")}, {Body: testutil.TextChunks("Again.")},
	}})
	h.until("the logged session", func() bool { return len(h.ui.side.Items) == 1 })
	if s := h.ui.side.Items[0]; s.Title != "cut off" || !strings.Contains(s.Subtitle(time.Now()), "interrupted") || s.Current {
		t.Errorf("sidebar = %+v (%q); want only the interrupted session, not current", h.ui.side.Items, s.Subtitle(time.Now()))
	}
	if h.ui.title.Text != "New chat" {
		t.Errorf("title = %q, want New chat", h.ui.title.Text)
	}

	h.say("hello")
	h.until("the new session at the top, current", func() bool {
		return len(h.ui.side.Items) == 2 && h.ui.side.Items[0].Title == "hello" && h.ui.side.Items[0].Current
	})
	h.until("the answer", func() bool { return h.shows(h.ui.win, "Hello back.") })
	if h.ui.title.Text != "hello" {
		t.Errorf("title = %q, want hello", h.ui.title.Text)
	}

	h.tap(h.ui.win, "New chat")
	h.until("an empty chat, not listed", func() bool {
		return len(h.ui.chat.Rows) == 0 && h.ui.title.Text == "New chat" &&
			!slices.ContainsFunc(h.ui.side.Items, func(s sidebar.Item) bool { return s.Current })
	})
	fresh := h.ui.conv
	h.tap(h.ui.win, "New chat") // again: the same unwritten chat, not another
	h.say("again")
	h.until("the second session", func() bool { return len(h.ui.side.Items) == 3 && h.ui.side.Items[0].Current })
	if h.ui.side.Items[0].ID != fresh || h.ui.side.Items[0].Title != "again" {
		t.Errorf("the message went to %+v, want the chat %s", h.ui.side.Items[0], fresh)
	}
}

// TestFirstRunPanelThenChat: behind the first-run panel the transcript
// list was never drawn; showing a conversation in it, then a model being
// chosen, must neither panic (a list not drawn has nothing to scroll) nor
// lose the scroll to the end.
func TestFirstRunPanelThenChat(t *testing.T) {
	h := newHarness(t, harnessOptions{noModel: true,
		responses: []testutil.ModelResponse{{Body: testutil.TextChunks("Ready.")}}})
	h.until("the new chat behind the panel", func() bool { return h.ui.conv != "" && h.shows(h.ui.win, "Choose a language model") })
	if h.ui.chat.List.Drawn {
		t.Fatalf("the transcript list was drawn behind the first-run panel")
	}
	if !h.shows(h.ui.win, "once you send a message") {
		t.Errorf("the empty sidebar does not say what it will hold")
	}
	tr := transcript.New()
	for i := range 20 {
		tr.User(fmt.Sprintf("Question %d", i), time.Now())
		tr.Assistant(strings.Repeat("A line of the answer. ", 40), time.Now())
	}
	rows := make([]transcript.Row, tr.Len())
	for i := range rows {
		rows[i] = tr.Row(i)
	}
	h.ui.chat.Reset(h.ui.conv, rows)
	if !h.ui.chat.List.ToEnd {
		t.Errorf("reset on a list not drawn: no scroll to the end pending")
	}
	h.ui.win.Resize(fyne.NewSize(900, 600))
	h.ui.setConfig(&config.Config{Path: h.cfg.Path, Model: config.Model{BaseURL: h.model.URL, Name: "scripted"}})
	if !h.ui.chat.List.Drawn || h.ui.chat.List.ToEnd {
		t.Errorf("once shown: drawn %v, scroll to the end still pending %v", h.ui.chat.List.Drawn, h.ui.chat.List.ToEnd)
	}
	if !h.ui.chat.AtEnd() {
		t.Errorf("the list opened at offset %v, not at its end", h.ui.chat.List.GetScrollOffset())
	}
}

// The servers panel says which tools were left out and why: on the
// server's row, and below its tools.
func TestServersPanelListsLeftOutTools(t *testing.T) {
	h := newHarness(t, harnessOptions{cfg: func(c *config.Config) {
		c.MCP.Servers = map[string]config.Server{
			"hz": {Command: testutil.BuildProgram(t, "./testutil/stdioserver"), Args: []string{"-hostile"}},
		}
	}})
	h.ui.showServers()
	sw := h.ui.serversW
	h.until("hz ready with its left-out tools", func() bool {
		r := sw.Rows["hz"]
		return r != nil && r.State.Text == "ready" && r.LeftOut.Visible()
	})
	if got := sw.Rows["hz"].LeftOut.Text; !strings.HasPrefix(got, "4 tools left out") {
		t.Errorf("left out = %q", got)
	}
	test.Tap(sw.Rows["hz"].Tools)
	for _, want := range []string{`Left out: "new\nline"`, "200 bytes long", `Left out: "r\u0435ad"`} {
		if !strings.Contains(sw.Notes, want) {
			t.Errorf("the tools window's notes lack %q:\n%s", want, sw.Notes)
		}
	}
}

// A notification allows only what it shows whole, with nothing the dialog
// would warn of: a long call, a warning or a changed definition offers
// Deny and Open only; an action for a request already answered does
// nothing.
func TestNotificationAllowsOnlyWhatItShows(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	h.ui.foreground = false
	base := approval.Request{Server: "t", Tool: "echo", Display: "t.echo", Arguments: json.RawMessage(`{"text":"hi"}`)}
	long, warned, changed, cmd := base, base, base, base
	long.Arguments = json.RawMessage(`{"text":"` + strings.Repeat("x", 400) + `"}`)
	warned.Warnings = []string{"its description tells the model to hide things"}
	changed.Change = "description changed"
	cmd.Command = "rm -rf ~/notes"
	reqs := []*conversation.ApprovalRequested{
		{Conversation: "c", ID: "whole", Request: base},
		{Conversation: "c", ID: "long", Request: long},
		{Conversation: "c", ID: "warned", Request: warned},
		{Conversation: "c", ID: "changed", Request: changed},
		{Conversation: "c", ID: "cmd", Request: cmd},
	}
	replied := map[string]approval.Answer{} // the answers the requests got, straight from the UI goroutine
	for _, r := range reqs {
		r.Reply = func(ans approval.Answer, _ approval.Reason) error {
			replied[r.ID] = ans
			return nil
		}
	}
	h.ui.dialogs.Approvals.Set(reqs)
	h.until("five notifications", func() bool { _, all := h.notes.shown(); return len(all) == 5 })
	_, all := h.notes.shown()
	allows := map[string]bool{}
	for i, n := range all {
		for _, a := range n.Actions {
			if a.Key == "allow" {
				allows[reqs[i].ID] = true
			}
		}
	}
	if !allows["whole"] || !allows["cmd"] || allows["long"] || allows["warned"] || allows["changed"] {
		t.Errorf("Allow once offered for %v; want whole and cmd only", allows)
	}
	if !strings.Contains(all[4].Body, "rm -rf ~/notes") || all[4].Title != "Deckhand: Run this shell command?" {
		t.Errorf("the command's notification: %q %q", all[4].Title, all[4].Body)
	}
	if !strings.Contains(all[1].Body, "Open Deckhand to see the whole call") {
		t.Errorf("the long call's notification: %q", all[1].Body)
	}
	// Deny from a notification answers that request; allow for a long one
	// (forged: it was not offered) and for an answered one do nothing.
	h.ui.dialogs.Approvals.FromNotification("long", "c", "allow", false)
	if h.ui.dialogs.Approvals.Answered["long"] {
		t.Error("allow answered a call whose notification did not offer it")
	}
	h.ui.dialogs.Approvals.FromNotification("warned", "c", "deny", false)
	if !h.ui.dialogs.Approvals.Answered["warned"] {
		t.Error("Deny in a notification did not answer")
	}
	h.ui.dialogs.Approvals.FromNotification("warned", "c", "deny", false) // twice: answered once
	h.ui.dialogs.Approvals.FromNotification("nobody", "c", "deny", false)
	if want := map[string]approval.Answer{"warned": approval.Deny}; !maps.Equal(replied, want) {
		t.Errorf("the requests got %v, want %v", replied, want)
	}
}

// Notices that come while one is shown join it: one box, the same notice
// counted, not stacked three times over the window.
func TestNoticesJoinOneBox(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	for range 3 {
		h.ui.showError("Could not reach the model at http://x: connection refused")
	}
	h.ui.showError("Something else")
	if n := len(h.ui.win.Canvas().Overlays().List()); n != 1 {
		t.Fatalf("%d boxes over the window, want 1", n)
	}
	texts := strings.Join(h.texts(h.ui.win), "\n")
	if !strings.Contains(texts, "connection refused (3 times)") || !strings.Contains(texts, "Something else") {
		t.Errorf("the box says:\n%s", texts)
	}
	test.Tap(h.button(h.ui.win, "OK"))
	if n := len(h.ui.win.Canvas().Overlays().List()); n != 0 {
		t.Fatalf("%d boxes after OK", n)
	}
	h.ui.showError("Again")
	if texts := strings.Join(h.texts(h.ui.win), "\n"); !strings.Contains(texts, "Again") || strings.Contains(texts, "Something else") {
		t.Errorf("a new box says:\n%s", texts)
	}
}

// A panic in the window's bridge restarts it with what it held: the open
// chat stays listed and answers its next message (before, the restart ran
// its start-up again: the chats were forgotten and every server event came
// twice).
func TestBridgeSurvivesAPanic(t *testing.T) {
	h := newHarness(t, harnessOptions{log: true, responses: []testutil.ModelResponse{
		{Body: testutil.TextChunks("first answer")}, {Body: testutil.TextChunks("second answer")},
	}})
	h.say("hello there")
	h.until("the answer", func() bool { return h.shows(h.ui.win, "first answer") })
	h.until("the session listed", func() bool { return len(h.ui.side.Items) == 1 })
	conv := h.ui.conv
	h.ui.tell(bridgeDo(func(*bridge, actor.Context) { panic("a bug in the window") }))
	h.until("the notice of it", func() bool { return h.shows(h.ui.win, "Something went wrong in the window") })
	if h.ui.conv != conv || len(h.ui.side.Items) != 1 || !h.shows(h.ui.win, "first answer") {
		t.Fatalf("after the panic: conv %q (was %q), %d sessions", h.ui.conv, conv, len(h.ui.side.Items))
	}
	test.Tap(h.button(h.ui.win, "OK"))
	h.say("and again")
	h.until("the second answer, in the same chat", func() bool { return h.shows(h.ui.win, "second answer") && h.ui.conv == conv })
	var restarts int
	done := make(chan struct{})
	h.ui.tell(bridgeDo(func(b *bridge, _ actor.Context) { restarts = b.restarts; close(done) }))
	<-done
	if restarts != 1 {
		t.Errorf("%d restarts", restarts)
	}
}
