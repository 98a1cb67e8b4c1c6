package gui

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"deckhand/actors/servers"
	"deckhand/config"
	"deckhand/gui/dialogs"
	"deckhand/gui/dialogs/form"
	"deckhand/gui/guitest"
	"deckhand/gui/widgets"
	"deckhand/testutil"
	"deckhand/transport/mcp"
)

// elicitHarness is a window with server-everything as "ev", whose
// elicitation tools run without approval; the model calls tool with args,
// then says "Thanks.".
func elicitHarness(t *testing.T, tool, args string, cfg func(*config.Config)) *harness {
	t.Helper()
	return everythingHarness(t, harnessOptions{
		fallback: toolThenText(testutil.ToolCallSpec{ID: "e1", Name: "ev__" + tool, Arguments: args}, "Thanks."),
		cfg: func(c *config.Config) {
			c.MCP.AutoApprove["ev.trigger-elicitation-request"] = true
			c.MCP.AutoApprove["ev.trigger-url-elicitation"] = true
			if cfg != nil {
				cfg(c)
			}
		},
	})
}

// field is the open form's field named name.
func field(t *testing.T, e *dialogs.Questions, name string) *form.Field {
	t.Helper()
	for _, x := range e.Form.Fields {
		if x.Field.Name == name {
			return x
		}
	}
	t.Fatalf("no field %q in the form", name)
	return nil
}

// server-everything's elicitation tool answered from the window: the form
// built from its schema (defaults prefilled, required marked), a missing
// required field and a number out of range refused in the form, then
// Enter in a field sends it, and the tool's result carries the answers.
func TestElicitFormAccept(t *testing.T) {
	h := elicitHarness(t, "trigger-elicitation-request", "{}", nil)
	h.say("ask me a question")
	e := h.ui.dialogs.Questions
	h.until("the question", func() bool { return e.Shown() != nil })
	for _, want := range []string{"The server \u201cev\u201d asks:", "During its tool call ev.trigger-elicitation-request",
		"Please provide inputs for the following fields:", "String *", "Your full, legal name", "Fields marked * are required.", "Declined if not answered by"} {
		if !h.shows(h.ui.win, want) {
			t.Errorf("the dialog does not show %q:\n%s", want, strings.Join(h.texts(h.ui.win), "\n"))
		}
	}
	if e.Form.Fields[0].Field.Name != "name" {
		t.Errorf("the required field is not first: %q", e.Form.Fields[0].Field.Name)
	}
	if got := field(t, e, "firstLine").Entry.Text; got != "It was a dark and stormy night." {
		t.Errorf("the default is not prefilled: %q", got)
	}
	if got := field(t, e, "integer").Entry.Text; got != "42" {
		t.Errorf("integer's default: %q", got)
	}
	if sel := field(t, e, "legacyTitledEnum").Select; sel == nil || sel.Selected != "Cats" || len(sel.Options) != 5 {
		t.Errorf("an enum with titles is a select of its titles, its default chosen: %+v", sel)
	}
	if g := field(t, e, "titledMultipleSelectEnum").Group; g == nil || len(g.Selected()) != 1 || g.Selected()[0] != "Tuna" {
		t.Errorf("a multiple choice is a check group, its default chosen: %+v", g)
	}

	// Required, and enforced.
	test.Tap(e.Buttons[servers.ElicitAccept])
	if e.Shown() == nil || !e.Problem.Visible() || e.Problem.Text != "String is required." {
		t.Fatalf("an empty required field was sent, or not said: %q", e.Problem.Text)
	}
	name := field(t, e, "name").Entry
	test.Type(name, "Ada Lovelace")
	field(t, e, "integer").Entry.SetText("500")
	name.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if e.Shown() == nil || !strings.Contains(e.Problem.Text, "Integer: at most 100") {
		t.Fatalf("an integer out of range was sent, or not said: %q", e.Problem.Text)
	}
	field(t, e, "integer").Entry.SetText("7")
	field(t, e, "check").Check.SetChecked(true)
	field(t, e, "untitledSingleSelectEnum").Select.SetSelected("Ross")
	name.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn}) // Enter in a field sends a valid form
	h.until("the answer", func() bool { return h.shows(h.ui.win, "Thanks.") })
	if e.Shown() != nil || len(h.ui.win.Canvas().Overlays().List()) != 0 {
		t.Errorf("the dialog is still open")
	}
	got := h.lastToolResult()
	for _, want := range []string{"Name: Ada Lovelace", "Agreed to terms: true", "Favorite Integer: 7", "Favorite Number: 3.14",
		`\"untitledSingleSelectEnum\": \"Ross\"`, "It was a dark and stormy night.", `\"action\": \"accept\"`} {
		if !strings.Contains(got, want) {
			t.Errorf("the tool's result lacks %q:\n%s", want, got)
		}
	}
}

// Decline says no, and the server hears it.
func TestElicitFormDecline(t *testing.T) {
	h := elicitHarness(t, "trigger-elicitation-request", "{}", nil)
	h.say("ask me a question")
	e := h.ui.dialogs.Questions
	h.until("the question", func() bool { return e.Shown() != nil })
	test.Tap(e.Buttons[servers.ElicitDecline])
	h.until("the answer", func() bool { return h.shows(h.ui.win, "Thanks.") })
	if got := h.lastToolResult(); !strings.Contains(got, "User declined") {
		t.Errorf("the tool's result: %s", got)
	}
}

// TestElicitDialogFitsAndTellsDeclineFromCancel: at 640×480 (text 128%)
// the line naming the call and the chat wraps, whole inside the window
// (it was cut after "in “unclear rese"); a line above the buttons says
// how Decline, Cancel and Stop asking differ (side by side, nothing told
// them apart); Escape, from the dialog or from a field, cancels (the
// person dismissed the question: MCP's cancel), and the server hears it.
func TestElicitDialogFitsAndTellsDeclineFromCancel(t *testing.T) {
	for _, from := range []string{"the dialog", "a field"} {
		t.Run(from, func(t *testing.T) {
			h := elicitHarness(t, "trigger-elicitation-request", "{}", func(c *config.Config) { c.UI.TextScale = 1.28 })
			h.ui.win.Resize(fyne.NewSize(640, 480))
			h.say("unclear research about the bank of the river Thames and its history please")
			e := h.ui.dialogs.Questions
			h.until("the question", func() bool { return e.Shown() != nil })
			h.drain()
			win := h.ui.win.Canvas().Size()
			d := fyne.CurrentApp().Driver()
			var where *widget.Label
			for _, o := range h.ui.win.Canvas().Overlays().List() {
				for _, dl := range guitest.All[*widgets.DimLabel](o) { // a subtle label
					if strings.HasPrefix(dl.Text, "During its tool call ev.trigger-elicitation-request in \u201cunclear research") {
						where = &dl.Label
					}
				}
			}
			if where == nil {
				t.Fatalf("no line naming the call and the chat:\n%s", strings.Join(h.texts(h.ui.win), "\n"))
			}
			fits := func(what string, l *widget.Label) {
				t.Helper()
				min, size := l.MinSize(), l.Size()
				right := d.AbsolutePositionForObject(l).X + size.Width
				if min.Width > size.Width+0.5 || min.Height > size.Height+0.5 || right > win.Width {
					t.Errorf("%s %q is cut: needs %v, has %v, ends at x=%.0f in a window %.0f wide", what, l.Text, min, size, right, win.Width)
				}
			}
			fits("the line", where)
			if where.Wrapping == fyne.TextWrapOff {
				t.Errorf("the line %q does not wrap", where.Text)
			}
			if e.Choices == nil || !e.Choices.Visible() || !strings.Contains(e.Choices.Text, "Decline tells the server no") ||
				!strings.Contains(e.Choices.Text, "Cancel (Escape) closes this without an answer") {
				t.Fatalf("nothing says how Decline and Cancel differ:\n%s", strings.Join(h.texts(h.ui.win), "\n"))
			}
			fits("the line on the buttons", e.Choices)

			if from == "a field" {
				name := field(t, e, "name").Entry
				h.ui.win.Canvas().Focus(name)
				name.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
			} else {
				h.ui.win.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyEscape})
			}
			h.until("the answer", func() bool { return h.shows(h.ui.win, "Thanks.") })
			if got := h.lastToolResult(); !strings.Contains(got, "User cancelled") {
				t.Errorf("after Escape the tool's result: %s", got)
			}
		})
	}
}

// No answer in time declines: the dialog closes by itself, the
// conversation says so.
func TestElicitTimeoutDeclines(t *testing.T) {
	h := elicitHarness(t, "trigger-elicitation-request", "{}", func(c *config.Config) { c.MCP.ApprovalTimeout = 1500 * time.Millisecond })
	h.say("ask me a question")
	e := h.ui.dialogs.Questions
	h.until("the question", func() bool { return e.Shown() != nil })
	h.until("the dialog to close by itself", func() bool { return e.Shown() == nil })
	h.until("the answer", func() bool { return h.shows(h.ui.win, "Thanks.") })
	if got := h.lastToolResult(); !strings.Contains(got, "User declined") {
		t.Errorf("after a timeout the tool's result: %s", got)
	}
	if !h.shows(h.ui.win, "ev's question closed (no answer within 1.5s): declined.") {
		t.Errorf("the conversation does not say the question timed out:\n%s", strings.Join(h.texts(h.ui.win), "\n"))
	}
	if len(h.ui.win.Canvas().Overlays().List()) != 0 {
		t.Errorf("an overlay is still open after the timeout")
	}
}

// A page to open (URL mode): its full address and host are shown, nothing
// opens until Open page is pressed (Enter declines, as it denies an
// approval), then the browser gets the page and the server hears yes.
func TestElicitURLOpensOnlyWhenAsked(t *testing.T) {
	var opened []string
	const page = "https://example.com/verify?code=42&step=2"
	h := elicitHarness(t, "trigger-url-elicitation", `{"url": "`+page+`", "message": "Confirm your account"}`, nil)
	h.ui.openURL = func(u *url.URL) error { opened = append(opened, u.String()); return nil }
	h.say("ask me to open a page")
	e := h.ui.dialogs.Questions
	h.until("the question", func() bool { return e.Shown() != nil })
	for _, want := range []string{"The server \u201cev\u201d asks you to open a page", page, "On the site: example.com", "Confirm your account"} {
		if !h.shows(h.ui.win, want) {
			t.Errorf("the dialog does not show %q:\n%s", want, strings.Join(h.texts(h.ui.win), "\n"))
		}
	}
	test.Tap(e.Buttons["copy"])
	if got := h.app.Clipboard().Content(); got != page {
		t.Errorf("Copy: %q", got)
	}
	if len(opened) != 0 {
		t.Fatalf("the page opened before Open page was pressed")
	}
	test.Tap(e.Buttons[servers.ElicitAccept])
	h.until("the answer", func() bool { return h.shows(h.ui.win, "Thanks.") })
	if len(opened) != 1 || opened[0] != page {
		t.Errorf("opened %v, want the page once", opened)
	}
	if got := h.lastToolResult(); !strings.Contains(got, "accept") {
		t.Errorf("the tool's result: %s", got)
	}
}

// A hostile question is shown safely: escape sequences and controls are
// removed from the message, titles, field names and options; an enormous
// enum is a filtered list (not a menu of thousands); the message and the
// form scroll within a bounded dialog. Two questions queue ("1 of 2"),
// and a notification says so when Deckhand is behind another window.
func TestElicitHostileForm(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	options := make([]any, 5000)
	for i := range options {
		options[i] = fmt.Sprintf("opt-%d \x1b[31mred\x1b[0m %s", i, strings.Repeat("long ", 50))
	}
	schema := map[string]any{
		"type": "object",
		"properties": map[string]any{
			"evil\x1b]0;pwned\x07name": map[string]any{"type": "string", "title": "Pass\x1b[2Jword\u202e", "description": strings.Repeat("blah ", 2000)},
			"pick":                     map[string]any{"type": "string", "enum": options, "default": "nope"},
		},
		"required": []any{"pick"},
	}
	parsed, err := mcp.ParseForm(schema)
	if err != nil {
		t.Fatal(err)
	}
	msg := "\x1b[2J\x1b[HPlease \x1b]8;;https://evil.example\x07click\x1b]8;;\x07 " + strings.Repeat("very long message ", 3000)
	reqs := []*servers.ElicitationRequested{
		{ID: "h1", Server: "t", Mode: "form", Message: msg, Form: parsed, Deadline: time.Now().Add(time.Minute)},
		{ID: "h2", Server: "t", Mode: "url", URL: "http://user@xn--80ak6aa92e.com/x", Host: "xn--80ak6aa92e.com", Deadline: time.Now().Add(time.Minute)},
	}
	h.ui.foreground = false
	e := h.ui.dialogs.Questions
	e.Add(&dialogs.Question{Req: reqs[0]})
	h.until("the notification", func() bool {
		_, all := h.notes.shown()
		return len(all) == 1 && all[0].Title == "Deckhand: a server asks" && all[0].Body == "t asks you something. Open Deckhand to answer it."
	})
	e.Add(&dialogs.Question{Req: reqs[1]})
	if e.Shown() == nil || e.Shown().Req.ID != "h1" || !strings.HasSuffix(e.Foot.Text, "1 more waiting.") {
		t.Fatalf("showing %v, saying %q", e.Shown(), e.Foot.Text)
	}
	for _, s := range h.texts(h.ui.win) {
		if strings.ContainsAny(s, "\x1b\x07\u202e") {
			t.Errorf("a control or escape reached the window: %q", widgets.Shorten(s, 120))
		}
	}
	if !h.shows(h.ui.win, "Please click") || !h.shows(h.ui.win, "Password *") && !h.shows(h.ui.win, "Password") {
		t.Errorf("the cleaned texts are not shown:\n%s", strings.Join(h.texts(h.ui.win), "\n"))
	}
	pick := field(t, e, "pick")
	if pick.List == nil || pick.Select != nil {
		t.Fatalf("5000 options are not a filtered list")
	}
	if n := len(pick.Labels[0]); n > 4*form.OptionMax {
		t.Errorf("an option's label is %d bytes", n)
	}
	if d := h.ui.win.Canvas().Overlays().Top(); d == nil || d.MinSize().Width > 1000 || d.MinSize().Height > 720 {
		t.Errorf("the dialog is not bounded: %v", d.MinSize())
	}
	// The filter narrows the list; the required choice is enforced.
	test.Type(pick.List.Filter, "opt-4999 ")
	if len(pick.List.Shown) != 1 {
		t.Errorf("the filter keeps %d options", len(pick.List.Shown))
	}
	test.Tap(e.Buttons[servers.ElicitAccept])
	if e.Shown() == nil || !strings.Contains(e.Problem.Text, "is required") {
		t.Fatalf("a required choice left empty was sent: %q", e.Problem.Text)
	}
	pick.List.Choose(pick.List.Shown[0], true)
	content, _, err := e.Form.Collect()
	if err != nil || content["pick"] != fmt.Sprint(options[4999]) {
		t.Errorf("collect() = %v, %v", content, err)
	}

	// Declined; the next (a page on a look-alike host, over http, with a
	// name before the @) is warned of.
	test.Tap(e.Buttons[servers.ElicitDecline])
	if e.Shown() == nil || e.Shown().Req.ID != "h2" || e.Title != "Open a page for a server?" {
		t.Fatalf("the second question did not follow")
	}
	for _, want := range []string{"not encrypted", "before the @", "other alphabets"} {
		if !h.shows(h.ui.win, want) {
			t.Errorf("no warning %q:\n%s", want, strings.Join(h.texts(h.ui.win), "\n"))
		}
	}
	// Enter declines a page; the server closing both clears the queue.
	h.ui.win.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if e.Shown() != nil {
		t.Errorf("Enter did not decline the page")
	}
	e.Closed("h1")
	e.Closed("h2")
	if len(e.Asks)+h.ui.dialogs.Waiting() != 0 || len(h.ui.win.Canvas().Overlays().List()) != 0 {
		t.Errorf("left: %d questions, %d overlays", len(e.Asks)+h.ui.dialogs.Waiting(), len(h.ui.win.Canvas().Overlays().List()))
	}
}
