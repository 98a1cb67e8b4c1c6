package chat

import (
	"log/slog"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"

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
	*guitest.Host
	chat *View
}

var _ Host = (*testUI)(nil)

func newTestUI(t testing.TB) *testUI {
	t.Helper()
	u := &testUI{Host: guitest.NewHost(t, "chat")}
	u.chat = New(u, appview.New(u, slog.New(slog.DiscardHandler)))
	u.Win.SetContent(container.NewBorder(u.chat.Find.Bar, nil, nil, nil, u.chat.Content()))
	u.Win.Resize(fyne.NewSize(1100, 720))
	u.Win.Show()
	u.chat.Reset("c1", nil)
	return u
}

func (u *testUI) KeepFocus() func()            { return func() {} }
func (u *testUI) FocusInput()                  {}
func (u *testUI) Shortcut(fyne.KeyName) func() { return nil }
func (u *testUI) ShowKeySettings()             {}
func (u *testUI) ShowModelSettings(string)     {}

// drain runs the queued work until none is left.
func (u *testUI) drain() { u.Queue.Drain() }

// cardHarness is a chat view whose transcript the test writes itself,
// drawn into the view as the bridge's frames would.
type cardHarness struct {
	t  *testing.T
	ui *testUI
	tr *transcript.Transcript
}

func newCardHarness(t *testing.T) *cardHarness {
	h := &cardHarness{t: t, ui: newTestUI(t), tr: transcript.New()}
	h.ui.Win.Resize(fyne.NewSize(900, 700))
	return h
}

// until runs the view's queued work until cond holds.
func (h *cardHarness) until(what string, cond func() bool) {
	h.t.Helper()
	h.ui.Queue.Until(h.t, h.ui.Win, what, cond)
}

// drain runs the view's queued work until none is left for a moment.
func (h *cardHarness) drain() { h.ui.Queue.Settle() }

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
