package toolcard

import (
	"context"
	"errors"
	"image/color"
	"log/slog"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/gui/appview"
	"deckhand/tools"
	"deckhand/transcript"
)

// testHost is the window the tests' cards are in, as their Host (and the
// tools' views' host): a window of Fyne's test app, whose work for the UI
// goroutine queues up until the test runs it (the test goroutine plays
// the UI goroutine). The cards in the chat's list are package chat's
// tests, and the window's package gui's.
type testHost struct {
	app     fyne.App
	win     fyne.Window
	queue   chan func()
	catalog *tools.Catalog
	openURL func(*url.URL) error
	ready   map[string]bool // servers connected

	mu   sync.Mutex
	told []any // what the person was told, and the resources attached
}

var (
	_ Host         = (*testHost)(nil)
	_ appview.Host = (*testHost)(nil)
)

func (u *testHost) App() fyne.App       { return u.app }
func (u *testHost) Window() fyne.Window { return u.win }
func (u *testHost) Post(f func())       { u.queue <- f }
func (u *testHost) Tell(msg any) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.told = append(u.told, msg)
}
func (u *testHost) ShowError(msg string) { u.Tell(msg) }
func (u *testHost) ShowInfo(msg string)  { u.Tell(msg) }
func (u *testHost) OpenURL(link *url.URL) error {
	if u.openURL == nil {
		return errors.New("no browser in tests")
	}
	return u.openURL(link)
}
func (u *testHost) ServerReady(alias string) bool    { return u.ready[alias] }
func (u *testHost) AttachResource(alias, uri string) { u.Tell([2]string{alias, uri}) }
func (u *testHost) Catalog() *tools.Catalog          { return u.catalog }
func (u *testHost) ReadResource(context.Context, string, string) ([]*sdk.ResourceContents, error) {
	return nil, errors.New("no servers in tests")
}

// harness is a window of cards, one under the other, drawn from a
// transcript the test writes itself as the chat's frames would draw them.
type harness struct {
	t     *testing.T
	host  *testHost
	cards *Cards
	tr    *transcript.Transcript
	box   *fyne.Container
	rows  []*testRow // by the transcript's row
}

// testRow is a transcript row as the chat holds it, the card's Row: every
// one is in the list (none is the view that measures rows).
type testRow struct {
	h          *harness
	row        transcript.Row
	card       *Card // a tool call's
	mark       color.Color
	remeasured int
}

var _ Row = (*testRow)(nil)

func (r *testRow) Shown() (transcript.Row, bool) { return r.row, true }
func (r *testRow) Conv() string                  { return "c1" }
func (r *testRow) Remeasure()                    { r.remeasured++ }
func (r *testRow) Copy(text string, _ *widget.Button) {
	r.h.host.app.Clipboard().SetContent(text)
}
func (r *testRow) FindMark() color.Color { return r.mark }
func (r *testRow) Expand(expanded bool) {
	r.row.Expanded, r.row.Collapsed = expanded, false
	r.card.Set(r.row)
}
func (r *testRow) Collapse(collapsed bool) {
	r.row.Collapsed = collapsed
	r.card.Set(r.row)
}

func newHarness(t *testing.T) *harness {
	t.Helper()
	u := &testHost{app: test.NewTempApp(t), queue: make(chan func(), 1<<16), ready: map[string]bool{}}
	u.win = u.app.NewWindow("cards")
	h := &harness{t: t, host: u, tr: transcript.New(), box: container.NewVBox()}
	h.cards = New(u, appview.New(u, slog.New(slog.DiscardHandler)))
	u.win.SetContent(container.NewVScroll(h.box))
	u.win.Resize(fyne.NewSize(900, 700))
	u.win.Show()
	return h
}

// frame draws the transcript's changes, as the chat's frames do.
func (h *harness) frame() {
	n, changed := h.tr.Changes()
	for len(h.rows) < n {
		h.rows = append(h.rows, &testRow{h: h})
	}
	for i, row := range changed {
		r := h.rows[i]
		r.row = row
		if row.Kind != transcript.Tool {
			continue
		}
		if r.card == nil {
			r.card = h.cards.NewCard(r)
			h.box.Add(r.card.View())
		}
		r.card.Set(row)
	}
	h.box.Refresh()
}

// finished adds a finished call of tool with output and media, and draws it.
func (h *harness) finished(call, tool, output string, media *tools.Media) {
	h.tr.ToolRequested(call, tool, []byte(`{"q": "x"}`))
	h.tr.ToolStarted(call, tool, nil)
	h.tr.ToolFinished(call, tool, nil, output, false, false, 12*time.Millisecond)
	h.tr.ToolMedia(call, media)
	h.frame()
}

// card is the card of a call of tool, or nil.
func (h *harness) card(tool string) *Card {
	for _, r := range h.rows {
		if r.card != nil && r.row.Tool == tool {
			return r.card
		}
	}
	return nil
}

// until runs the queued work until cond holds.
func (h *harness) until(what string, cond func() bool) {
	h.t.Helper()
	deadline := time.After(15 * time.Second)
	// cond is looked at again after each thing run, and now and then
	// besides: an image decodes on a goroutine of its own.
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		select {
		case f := <-h.host.queue:
			f()
		case <-tick.C:
		case <-deadline:
			h.t.Fatalf("timed out waiting for %s; the window shows:\n%s", what, strings.Join(texts(h.host.win.Canvas().Content()), "\n"))
		}
	}
}

// drain runs the queued work until none is left for a moment.
func (h *harness) drain() {
	for {
		select {
		case f := <-h.host.queue:
			f()
		case <-time.After(100 * time.Millisecond):
			return
		}
	}
}

// texts is what o shows: the text of every visible label, rich text and
// button.
func texts(o fyne.CanvasObject) []string {
	var out []string
	walk(o, func(o fyne.CanvasObject) {
		switch x := o.(type) {
		case *widget.Label:
			out = append(out, x.Text)
		case *widget.RichText:
			out = append(out, x.String())
		case *widget.Button:
			out = append(out, "["+x.Text+"]")
		}
	})
	return out
}

// walk visits the visible objects under o.
func walk(o fyne.CanvasObject, f func(fyne.CanvasObject)) {
	if o == nil || !o.Visible() {
		return
	}
	f(o)
	switch x := o.(type) {
	case *fyne.Container:
		for _, c := range x.Objects {
			walk(c, f)
		}
	case fyne.Widget:
		for _, c := range test.WidgetRenderer(x).Objects() {
			walk(c, f)
		}
	}
}
