package appview

import (
	"image/color"
	"sync"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"deckhand/apps"
	"deckhand/gui/guitest"
	"deckhand/transcript"
)

// oneVariant is a theme of one variant whatever variant it is asked for,
// as the window's is when the person chose light or dark.
type oneVariant struct {
	fyne.Theme
	v fyne.ThemeVariant
}

func (t oneVariant) Color(n fyne.ThemeColorName, _ fyne.ThemeVariant) color.Color {
	return t.Theme.Color(n, t.v)
}

// noCard answers ReadCard: no such card (the view keeps the row it was
// opened with).
type noCard struct{ *guitest.Host }

func (h noCard) Tell(msg any) {
	if m, ok := msg.(*ReadCard); ok {
		m.Reply <- CardRead{}
		return
	}
	h.Host.Tell(msg)
}

// A view is told the window's theme as it is once the view is registered,
// not only the one read when it was asked for: a change between the two
// (the desktop's variant, which Fyne learns a moment after start, or the
// person's setting, while the view's resource was read and its window
// opened) went only to the views registered then, and the view kept the
// old theme (dark in one run, light in the next).
func TestViewToldThemeChangedWhileOpening(t *testing.T) {
	h := guitest.NewHost(t, "views")
	s := h.App().Settings()
	s.SetTheme(oneVariant{theme.DefaultTheme(), theme.VariantLight})
	v := New(noCard{h}, nil)
	if got := v.theme(); got != "light" {
		t.Fatalf("the theme read as the view is asked for = %q, want light", got)
	}
	s.SetTheme(oneVariant{theme.DefaultTheme(), theme.VariantDark}) // while it opens
	win := &toldWindow{done: make(chan struct{})}
	card := apps.Card{Conversation: "c1", Run: "r1", Call: "x", Tool: "app.show"}
	if !v.follow(card, win, transcript.Row{Kind: transcript.Tool, Run: "r1", Call: "x", Tool: "app.show", State: transcript.Running}) {
		t.Fatal("the view was not registered")
	}
	h.Queue.Drain()
	told := win.got()
	if len(told) == 0 || told[len(told)-1] != "theme dark" {
		t.Fatalf("the view was told %q, want the theme it has now (theme dark) last", told)
	}
}

// closingWindow is a view that ends when it is closed, as a helper does.
type closingWindow struct {
	toldWindow
	once sync.Once
}

func (w *closingWindow) Close() { w.note("closed"); w.once.Do(func() { close(w.done) }) }

// As Deckhand quits, its views are closed (their helpers killed a moment
// after), and CloseAll returns once they have ended; a view that finishes
// opening after is closed at once, not registered: no helper outlives the
// quit (they used to be left to die with Deckhand's process, by the
// parent-death signal alone).
func TestViewsClosedAtQuit(t *testing.T) {
	h := guitest.NewHost(t, "views")
	v := New(noCard{h}, nil)
	card := apps.Card{Conversation: "c1", Run: "r1", Call: "x", Tool: "app.show"}
	row := transcript.Row{Kind: transcript.Tool, Run: "r1", Call: "x", Tool: "app.show", State: transcript.Running}
	open := &closingWindow{toldWindow: toldWindow{done: make(chan struct{})}}
	if !v.follow(card, open, row) {
		t.Fatal("the view was not registered")
	}
	v.CloseAll()
	select {
	case <-open.done:
	default:
		t.Fatalf("CloseAll returned with the view open; it was told %q", open.got())
	}
	card.Call = "y"
	row.Call = "y"
	late := &closingWindow{toldWindow: toldWindow{done: make(chan struct{})}}
	if v.follow(card, late, row) {
		t.Fatal("a view that finished opening after the quit was registered")
	}
}
