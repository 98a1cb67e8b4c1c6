package chat

import (
	"context"
	"errors"
	"log/slog"
	"net/url"
	"sync"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/gui/appview"
	"deckhand/gui/guitest"
	"deckhand/tools"
	"deckhand/transcript"
)

// testUI is the window the tests' chat view is in, as its Host: a window
// of Fyne's test app holding the view, whose work for the UI goroutine
// queues up until the test drains it (the test goroutine plays the UI
// goroutine). The window's own tests, with the bridge and the actors
// behind the view, are package gui's.
type testUI struct {
	app     fyne.App
	win     fyne.Window
	chat    *View
	queue   guitest.Queue
	catalog *tools.Catalog
	openURL func(*url.URL) error
	ready   map[string]bool // servers connected

	mu   sync.Mutex
	told []any // messages to the bridge
}

var _ Host = (*testUI)(nil)

func newTestUI(t testing.TB) *testUI {
	t.Helper()
	u := &testUI{app: test.NewTempApp(t), queue: guitest.NewQueue(), ready: map[string]bool{}}
	u.win = u.app.NewWindow("chat")
	u.chat = New(u, appview.New(u, slog.New(slog.DiscardHandler)))
	u.win.SetContent(container.NewBorder(u.chat.Find.Bar, nil, nil, nil, u.chat.Content()))
	u.win.Resize(fyne.NewSize(1100, 720))
	u.win.Show()
	u.chat.Reset("c1", nil)
	return u
}

func (u *testUI) App() fyne.App       { return u.app }
func (u *testUI) Window() fyne.Window { return u.win }
func (u *testUI) Post(f func())       { u.queue.Post(f) }
func (u *testUI) Tell(msg any) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.told = append(u.told, msg)
}
func (u *testUI) ShowError(msg string) { u.Tell(msg) }
func (u *testUI) ShowInfo(msg string)  { u.Tell(msg) }
func (u *testUI) OpenURL(link *url.URL) error {
	if u.openURL == nil {
		return errors.New("no browser in tests")
	}
	return u.openURL(link)
}
func (u *testUI) KeepFocus() func()                { return func() {} }
func (u *testUI) FocusInput()                      {}
func (u *testUI) Shortcut(fyne.KeyName) func()     { return nil }
func (u *testUI) ShowKeySettings()                 {}
func (u *testUI) Catalog() *tools.Catalog          { return u.catalog }
func (u *testUI) ServerReady(alias string) bool    { return u.ready[alias] }
func (u *testUI) AttachResource(alias, uri string) { u.Tell([2]string{alias, uri}) }
func (u *testUI) ReadResource(context.Context, string, string) ([]*sdk.ResourceContents, error) {
	return nil, errors.New("no servers in tests")
}

// drain runs the queued work until none is left.
func (u *testUI) drain() { u.queue.Drain() }

// cardHarness is a chat view whose transcript the test writes itself,
// drawn into the view as the bridge's frames would.
type cardHarness struct {
	t  *testing.T
	ui *testUI
	tr *transcript.Transcript
}

func newCardHarness(t *testing.T) *cardHarness {
	h := &cardHarness{t: t, ui: newTestUI(t), tr: transcript.New()}
	h.ui.win.Resize(fyne.NewSize(900, 700))
	return h
}

// until runs the view's queued work until cond holds.
func (h *cardHarness) until(what string, cond func() bool) {
	h.t.Helper()
	h.ui.queue.Until(h.t, h.ui.win, what, cond)
}

// drain runs the view's queued work until none is left for a moment.
func (h *cardHarness) drain() { h.ui.queue.Settle() }

// finished adds a finished call of tool with output and media, and draws it.
func (h *cardHarness) finished(call, tool, output string, media *tools.Media) {
	guitest.FinishCall(h.tr, call, tool, output, media)
	h.frame()
}

// frame draws the transcript's changes, as a bridge frame does.
func (h *cardHarness) frame() { h.ui.chat.Update(h.tr.Changes()) }

// visibleRows are the transcript rows that have widgets on screen.
func (h *cardHarness) visibleRows() []*RowView { return guitest.All[*RowView](h.ui.chat.List) }

// card is the on-screen card of a tool call, or nil.
func (h *cardHarness) card(tool string) *RowView {
	for _, r := range h.visibleRows() {
		if r.Row.Kind == transcript.Tool && r.Row.Tool == tool {
			return r
		}
	}
	return nil
}

// walk visits the visible objects under o.
func walk(o fyne.CanvasObject, f func(fyne.CanvasObject)) { guitest.Walk(o, f) }
