package toolcard

import (
	"image/color"
	"log/slog"
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"deckhand/gui/appview"
	"deckhand/gui/guitest"
	"deckhand/tools"
	"deckhand/transcript"
)

// The cards' Host (and the tools' views' host) is guitest's: a window of
// Fyne's test app, whose work for the UI goroutine queues up until the
// test runs it (the test goroutine plays the UI goroutine). The cards in
// the chat's list are package chat's tests, and the window's package gui's.
var (
	_ Host         = (*guitest.Host)(nil)
	_ appview.Host = (*guitest.Host)(nil)
)

// harness is a window of cards, one under the other, drawn from a
// transcript the test writes itself as the chat's frames would draw them.
type harness struct {
	t     *testing.T
	host  *guitest.Host
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
func (r *testRow) ID() int                       { return slices.Index(r.h.rows, r) }
func (r *testRow) Remeasure()                    { r.remeasured++ }
func (r *testRow) Reveal(fyne.CanvasObject)      {}
func (r *testRow) Copy(text string, _ *widget.Button) {
	r.h.host.FyneApp.Clipboard().SetContent(text)
}
func (r *testRow) FindMark() color.Color { return r.mark }
func (r *testRow) Expand(expanded bool, _ fyne.CanvasObject) {
	r.row.Expanded, r.row.Collapsed = expanded, false
	r.card.Set(r.row)
	r.h.tr.Expand(slices.Index(r.h.rows, r), expanded) // as the bridge keeps it
}
func (r *testRow) Collapse(collapsed bool) {
	r.row.Collapsed = collapsed
	r.card.Set(r.row)
}

func newHarness(t *testing.T) *harness {
	t.Helper()
	u := guitest.NewHost(t, "cards")
	h := &harness{t: t, host: u, tr: transcript.New(), box: container.NewVBox()}
	h.cards = New(u, appview.New(u, slog.New(slog.DiscardHandler)))
	u.Win.SetContent(container.NewStack(container.NewVScroll(h.box), h.cards.Tips)) // the tips over the cards, as the chat lays them
	u.Win.Resize(fyne.NewSize(900, 700))
	u.Win.Show()
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
	guitest.FinishCall(h.tr, call, tool, output, media)
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
	h.host.Queue.Until(h.t, h.host.Win, what, cond)
}

// drain runs the queued work until none is left for a moment.
func (h *harness) drain() { h.host.Queue.Settle() }
