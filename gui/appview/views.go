package appview

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/actors/conversation"
	"deckhand/apps"
	"deckhand/gui/widgets"
	"deckhand/tools"
	"deckhand/transcript"
)

// Views are the tools' views open in a window, one per card: told the
// card's result when its call ends (or that it was cancelled) and the
// window's theme when it changes, closed when the card's message or chat
// is deleted (Hear, CloseConversation). Of and Open are called on the UI
// goroutine, Hear and CloseConversation from any.
type Views struct {
	host Host
	log  *slog.Logger
	mu   sync.Mutex
	book *apps.Views // the views accepted, by tool
	open apps.Opened // by card
	// cannot says, by card, why its last Open view could not start (no
	// helper beside deckhand, the tool not offered now): the card shows
	// it until an Open gets past it (mu).
	cannot map[apps.Card]cannot
	listen sync.Once      // to the theme, from the first view
	closed bool           // Deckhand quits: no view opens any more (mu)
	shown  sync.WaitGroup // the views registered, until their helper has ended

	// added is a test's hook, run between a view's registration and the
	// reading of its card (follow); nil but in tests.
	added func(apps.Card)
}

// New makes the window's views; log takes what they report.
func New(host Host, log *slog.Logger) *Views {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Views{host: host, log: log}
}

// Of is the tool of display if it has a view (in the catalog the window
// knows), with the view's URI.
func (v *Views) Of(display string) (tools.Tool, string) {
	cat := v.host.Catalog()
	if cat == nil || display == "" {
		return tools.Tool{}, ""
	}
	t, ok := cat.Lookup(display)
	if !ok {
		return tools.Tool{}, ""
	}
	def := t.Raw
	if def == nil {
		def = t.Def
	}
	return t, apps.ResourceURI(def)
}

// Open shows the view of the tool of a card of conversation conv, told
// the card's call. What stands in the way at once (the view helper not
// beside deckhand, the tool not offered now) is not a notice that may go
// unseen: the card shows it (Cannot) from the frame after, and a later
// Open tries again. It reports whether the card has something new to say
// (a reason it cannot, or that one is gone), and must be drawn again.
func (v *Views) Open(conv string, row transcript.Row) bool {
	// A model may give two calls of two runs one id: the card is its
	// run and call (and tool and arguments).
	card := cardOf(conv, row)
	t, uri := v.Of(row.Tool)
	if uri == "" {
		// The card offered Open view when the tool was there: its server
		// since disconnected, or the tool turned off. (Said nothing.)
		return v.setCannot(card, cannot{why: fmt.Sprintf("The view cannot open: %s is not offered now (turned off or quarantined in Servers, or its server is not connected).", row.Tool), untilOffered: true})
	}
	helper, err := apps.FindHelper()
	if err != nil {
		return v.setCannot(card, cannot{why: helperMissing(err)})
	}
	changed := v.setCannot(card, cannot{})
	v.mu.Lock()
	if v.book == nil {
		v.book = apps.NewViews()
	}
	v.mu.Unlock()
	if v.open.Has(card) {
		return changed
	}
	v.listen.Do(func() {
		v.host.App().Settings().AddListener(func(fyne.Settings) { v.open.SetTheme(v.theme()) })
	})
	go v.run(conv, card, t, uri, helper, row, v.theme())
	return changed
}

// cannot is why a card's view could not open.
type cannot struct {
	why string
	// untilOffered: the tool was not offered; once it is again (its
	// server back), the card's Open view may work, and why is not said.
	untilOffered bool
}

// Cannot is why the last Open view of the card of row (of conversation
// conv) could not start, or "". Called on the UI goroutine.
func (v *Views) Cannot(conv string, row transcript.Row) string {
	card := cardOf(conv, row)
	v.mu.Lock()
	c, ok := v.cannot[card]
	v.mu.Unlock()
	if !ok {
		return ""
	}
	if c.untilOffered {
		if _, uri := v.Of(row.Tool); uri != "" {
			v.setCannot(card, cannot{})
			return ""
		}
	}
	return c.why
}

// setCannot keeps why card's view cannot open (the zero cannot: it can),
// and reports whether that changed.
func (v *Views) setCannot(card apps.Card, c cannot) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.cannot[card] == c {
		return false
	}
	if c.why == "" {
		delete(v.cannot, card)
		return true
	}
	if v.cannot == nil {
		v.cannot = map[apps.Card]cannot{}
	}
	v.cannot[card] = c
	return true
}

func cardOf(conv string, row transcript.Row) apps.Card {
	return apps.Card{Conversation: conv, Run: row.Run, Call: row.Call, Tool: row.Tool, Args: row.Args}
}

// helperMissing says why a view cannot open without its helper: none was
// beside deckhand when Deckhand started (it is looked for then only), or
// the one there is not run.
func helperMissing(err error) string {
	var missing *apps.NoHelperError
	if errors.As(err, &missing) {
		return fmt.Sprintf("The view cannot open: views need Deckhand's view helper, %s, beside deckhand, and there was none at %s when Deckhand started. `make build` builds both; then start Deckhand again.", apps.HelperName, missing.Path)
	}
	return fmt.Sprintf("The view cannot open: %v. Deckhand checks its view helper when it starts; start it again once that is mended.", err)
}

// theme is the window's theme as a view is told it: the one the person
// chose in the settings, else the desktop's (the app's theme gives the
// chosen variant's colours whatever variant it is asked for).
func (v *Views) theme() string {
	s := v.host.App().Settings()
	r, g, b, _ := s.Theme().Color(theme.ColorNameBackground, s.ThemeVariant()).RGBA()
	if 299*r+587*g+114*b < 1000*0x8000 {
		return "dark"
	}
	return "light"
}

// Hear passes what happens to cards and runs to their open views: a
// call's end (its result, or that the person stopped it) and a run taken
// out of its chat (its cards' views closed). The bridge calls it with
// each of its events.
func (v *Views) Hear(msg any) {
	switch m := msg.(type) {
	case *conversation.ToolCallFinished:
		if m.Cancelled {
			v.open.Cancelled(m.Conversation, m.Run, m.Call, stopped)
			return
		}
		state := transcript.Succeeded
		switch {
		case m.Denied:
			state = transcript.Denied
		case m.IsError:
			state = transcript.Failed
		}
		v.open.Finished(m.Conversation, m.Run, m.Call, CardResult(transcript.Row{State: state, Output: m.Output, Structured: string(m.Structured), Meta: string(m.Meta)}))
	case *conversation.RunRemoved:
		v.open.CloseRun(m.Conversation, m.Run)
	}
}

// CloseAll closes every view as Deckhand quits, and those that open
// from now on, and waits until their helpers have ended (each is killed,
// WebKit's processes with it, a moment after it is told to close: see
// apps.Process.Close), or quitGrace has passed. A view still asking its
// question (Open it anyway?) opens no window.
func (v *Views) CloseAll() {
	v.mu.Lock()
	v.closed = true
	v.mu.Unlock()
	v.open.CloseAll()
	ended := make(chan struct{})
	go func() { v.shown.Wait(); close(ended) }()
	select {
	case <-ended:
	case <-time.After(quitGrace):
		v.log.Warn("the views' helpers did not end in time as Deckhand quits", "waited", quitGrace)
	}
}

// quitGrace is how long quitting waits for the views' helpers to end:
// each is killed two seconds after it is told to close.
const quitGrace = 5 * time.Second

// Raise brings the views of conversation conv's cards of tool (its
// display name, server.tool) back in front: the person answered, in the
// main window, which came in front to ask, a question one of them asked
// (its tool call's approval: package dialogs), and goes on in the view.
// It stayed behind the main window, hidden there at 640x480.
func (v *Views) Raise(conv, tool string) { v.open.Raise(conv, tool) }

// CloseConversation closes the views of a deleted chat's cards.
func (v *Views) CloseConversation(conv string) { v.open.CloseConversation(conv) }

// run runs a view's window until it closes; it blocks.
func (v *Views) run(conv string, card apps.Card, t tools.Tool, uri, helper string, row transcript.Row, theme string) {
	fail := func(err error) { v.tellNotice(fmt.Sprintf("Could not open the view of %s: %v", t.Display, err)) }
	ctx := context.Background()
	view, changed, err := v.book.Get(ctx, t.Display, t.Hash, uri, func(ctx context.Context, uri string) ([]*sdk.ResourceContents, error) {
		return v.host.ReadResource(ctx, t.Server, uri)
	})
	if err != nil {
		fail(err)
		return
	}
	if changed && !v.confirm("The view changed", fmt.Sprintf("The view of %s is not the one first shown for this tool (its server sent a new one with a new definition). Open it anyway?", t.Display), "Open") {
		return
	}
	v.book.Accept(t.Display, view)
	def := t.Raw
	if def == nil {
		def = t.Def
	}
	var input json.RawMessage
	if json.Valid([]byte(row.Args)) {
		input = json.RawMessage(row.Args)
	}
	win, err := apps.Open(ctx, helper, apps.Config{Server: t.Server, Tool: t.Name, Definition: def, View: view, Input: input,
		Context: apps.HostContext{Theme: theme, Locale: locale(), Width: 640, Height: 600}, HostVersion: "", Logger: v.log},
		&viewHost{v: v, conv: conv, view: t.Display}, 0, apps.Sandboxed())
	if err != nil {
		fail(err)
		return
	}
	if !v.follow(card, win, row) {
		win.Close() // opened twice at once (the first stays), or Deckhand quits
		return
	}
	<-win.Done()
	v.open.Remove(card)
	var stopped *apps.StoppedError
	if errors.As(win.Err(), &stopped) {
		v.tellNotice(fmt.Sprintf("Deckhand closed the view of %s: %s. The chat is not affected.", t.Display, stopped.Reason))
	}
}

// stopped is why a view's call was cancelled, as the view is told.
const stopped = "the person stopped the run"

// viewWindow is an open view as Views follows it: an *apps.Window, a
// stand-in in tests.
type viewWindow interface {
	apps.Viewer
	Done() <-chan struct{}
}

// follow makes win the view of card (false: the card has one already)
// and tells it how the card's call ended if it has. The view is
// registered first, so that an end heard from then on reaches it (Hear),
// and the card is read after, as the bridge's transcript has it now (row,
// read when the view was asked for, is used only if the card is gone):
// an end heard while the view was opening is not missed. An end that
// reaches it both ways is told the view once (the session keeps the
// first). It waits for the bridge's answer, or for the view to close.
func (v *Views) follow(card apps.Card, win viewWindow, row transcript.Row) bool {
	v.mu.Lock()
	ok := !v.closed && v.open.Add(card, win)
	if ok {
		v.shown.Add(1)
		go func() { <-win.Done(); v.shown.Done() }()
	}
	v.mu.Unlock()
	if !ok {
		return false
	}
	// The theme as it is now: the one read when the view was asked for
	// may have changed since (the desktop's variant, which Fyne learns
	// from the portal a moment after start, or the person's setting)
	// while the view's resource was read and its window opened, and the
	// change went only to the views registered then.
	v.host.Post(func() { win.SetTheme(v.theme()) })
	if v.added != nil {
		v.added(card)
	}
	reply := make(chan CardRead, 1)
	v.host.Tell(&ReadCard{Conv: card.Conversation, Run: card.Run, Call: card.Call, Reply: reply})
	select {
	case read := <-reply:
		if read.Found {
			row = read.Row
		}
	case <-win.Done():
		return true
	}
	tellEnd(win, row)
	return true
}

// tellEnd tells a view how its card's call ended, if it has: cancelled,
// or its result.
func tellEnd(win apps.Viewer, row transcript.Row) {
	if row.Cancelled {
		win.Cancel(stopped)
		return
	}
	if res := CardResult(row); res != nil {
		win.SetResult(res)
	}
}

// CardResult is the card's result as the view is told it: the text the
// card shows (what the model was given), the result's structured content
// and its _meta, or nil while the call runs.
func CardResult(row transcript.Row) *sdk.CallToolResult {
	switch row.State {
	case transcript.Succeeded, transcript.Failed, transcript.Denied:
	default:
		return nil
	}
	r := &sdk.CallToolResult{IsError: row.State != transcript.Succeeded, Content: []sdk.Content{&sdk.TextContent{Text: row.Output}}}
	var structured map[string]any
	if json.Unmarshal([]byte(row.Structured), &structured) == nil {
		r.StructuredContent = structured
	}
	var meta map[string]any
	if json.Unmarshal([]byte(row.Meta), &meta) == nil && meta != nil {
		r.Meta = meta
	}
	return r
}

func locale() string {
	for _, k := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if v := os.Getenv(k); v != "" && v != "C" && v != "POSIX" {
			v, _, _ = strings.Cut(v, ".")
			return strings.ReplaceAll(v, "_", "-")
		}
	}
	return "en-US"
}

// tellNotice shows text as a notice of the window.
func (v *Views) tellNotice(text string) { v.host.Tell(&Notice{Text: text}) }

// confirm asks the person a yes-or-no question in a dialog and waits for
// the answer; called off the UI goroutine. The view asks when it likes,
// maybe as the person presses Enter in the message box: Enter and Escape
// both answer Cancel, the default, and yes takes a click (or Tab to it,
// then Space).
//
// The main window, which holds the dialog, is brought in front: the view
// asks because the person pressed something in it, and its window
// (at 640x480, the whole screen) hid the question, which waited unseen.
// The person is at the view, so the question comes to them, as a dialog
// opened by their own click does in any program; asking in the view's
// own page would let the page draw a look-alike of the question.
func (v *Views) confirm(title, text, yes string) bool {
	answer := make(chan bool, 1)
	v.host.Post(func() {
		l := widget.NewLabel(text)
		l.Wrapping = fyne.TextWrapWord
		win := v.host.Window()
		d := dialog.NewCustomConfirm(title, yes, "Cancel", l, func(ok bool) { answer <- ok }, win)
		d.SetConfirmImportance(widget.MediumImportance)
		d.Resize(fyne.NewSize(460, 0))
		widgets.WithDialogKeys(d, win, d.Hide, d.Hide)
		v.host.ShowMain()
	})
	return <-answer
}

// viewHost is Deckhand as one view's host (apps.Host).
type viewHost struct {
	v    *Views
	conv string
	view string // server.tool
}

var _ apps.Host = (*viewHost)(nil)

func (h *viewHost) CallTool(ctx context.Context, name string, args json.RawMessage) (*sdk.CallToolResult, error) {
	reply := make(chan conversation.ViewCallResult, 1)
	h.v.host.Tell(&ViewCall{Conv: h.conv, View: h.view, Tool: name, Args: args, Reply: reply})
	select {
	case r := <-reply:
		return r.Result, r.Err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Propose asks whether to send the view's text to the chat; whatever the
// answer, the view comes back in front, where the person was.
func (h *viewHost) Propose(ctx context.Context, text string) (bool, error) {
	send := h.v.confirm("Send this message?", fmt.Sprintf("The view of %s proposes this message for the chat:\n\n%s", h.view, text), "Send")
	h.v.Raise(h.conv, h.view)
	if !send {
		return false, nil
	}
	h.v.host.Tell(&Propose{Conv: h.conv, Text: text})
	return true, nil
}

func (h *viewHost) OpenLink(ctx context.Context, link string) (bool, error) {
	u, err := url.Parse(link)
	if err != nil {
		return false, err
	}
	if !h.v.confirm("Open this link?", fmt.Sprintf("The view of %s asks to open this link in your browser:\n\n%s", h.view, link), "Open") {
		h.v.Raise(h.conv, h.view)
		return false, nil
	}
	// The browser comes in front with the page: the view would cover it.
	return true, h.v.host.OpenURL(u)
}
