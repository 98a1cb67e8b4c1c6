package appview

import (
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/actors/conversation"
	"deckhand/apps"
	"deckhand/toolcall"
	"deckhand/transcript"
)

// cardBridge stands in for the window's bridge: it answers ReadCard with
// its cards as they stand. (The other methods of Host are not used.)
type cardBridge struct {
	Host
	mu    sync.Mutex
	cards map[apps.Card]transcript.Row // by conversation, run and call
}

func (b *cardBridge) set(card apps.Card, row transcript.Row) {
	b.mu.Lock()
	b.cards[apps.Card{Conversation: card.Conversation, Run: card.Run, Call: card.Call}] = row
	b.mu.Unlock()
}

// Post drops f: the theme told a view as it registers
// (TestViewToldThemeChangedWhileOpening) is not followed here.
func (b *cardBridge) Post(func()) {}

func (b *cardBridge) Tell(msg any) {
	m, ok := msg.(*ReadCard)
	if !ok {
		return
	}
	b.mu.Lock()
	row, found := b.cards[apps.Card{Conversation: m.Conv, Run: m.Run, Call: m.Call}]
	b.mu.Unlock()
	m.Reply <- CardRead{Row: row, Found: found}
}

// toldWindow is a view that notes what it is told.
type toldWindow struct {
	mu   sync.Mutex
	told []string
	done chan struct{}
}

func (w *toldWindow) note(s string) {
	w.mu.Lock()
	w.told = append(w.told, s)
	w.mu.Unlock()
}
func (w *toldWindow) SetResult(r *sdk.CallToolResult) {
	w.note("result " + r.Content[0].(*sdk.TextContent).Text)
}
func (w *toldWindow) Cancel(reason string)  { w.note("cancelled: " + reason) }
func (w *toldWindow) SetTheme(theme string) { w.note("theme " + theme) }
func (w *toldWindow) Raise()                { w.note("raised") }
func (w *toldWindow) Close()                { w.note("closed") }
func (w *toldWindow) Done() <-chan struct{} { return w.done }
func (w *toldWindow) got() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.told...)
}

// A view opened on a card is told how the card's call ended however the
// end falls against its opening: before the card was read for it (the
// card the person clicked still showed the call running: the view used to
// wait forever), between its registration and the reading of its card
// (told by both; its session keeps the first), after (told by Hear), or
// long before, cancelled (the card records it: tool-cancelled, not the
// text the model was given).
func TestViewToldItsCardsEnd(t *testing.T) {
	card := apps.Card{Conversation: "c1", Run: "r1", Call: "x", Tool: "app.show"}
	running := transcript.Row{Kind: transcript.Tool, Run: "r1", Call: "x", Tool: "app.show", State: transcript.Running}
	succeeded := running
	succeeded.State, succeeded.Output = transcript.Succeeded, "12:00"
	cancelled := running
	cancelled.State, cancelled.Output, cancelled.Cancelled = transcript.Failed, toolcall.CancelledText, true
	finished := &conversation.ToolCallFinished{Conversation: "c1", Run: "r1", Call: "x", Tool: "app.show", Output: "12:00"}
	stop := &conversation.ToolCallFinished{Conversation: "c1", Run: "r1", Call: "x", Tool: "app.show", Output: toolcall.CancelledText, IsError: true, Cancelled: true}

	tests := []struct {
		name    string
		clicked transcript.Row            // the card as the person clicked it
		before  func(*Views, *cardBridge) // after the click, before the view is registered
		between func(*Views, *cardBridge) // after its registration, before its card is read
		after   func(*Views, *cardBridge) // once it follows its card
		want    []string
	}{
		{name: "ended before the click", clicked: succeeded, want: []string{"result 12:00"}},
		{name: "ends while the view opens", clicked: running, before: func(v *Views, b *cardBridge) {
			v.Hear(finished) // the bridge hears it, passes it on, then updates its card
			b.set(card, succeeded)
		}, want: []string{"result 12:00"}},
		{name: "ends as the view is registered", clicked: running, between: func(v *Views, b *cardBridge) {
			v.Hear(finished)
			b.set(card, succeeded)
		}, want: []string{"result 12:00", "result 12:00"}},
		{name: "ends once the view follows", clicked: running, after: func(v *Views, b *cardBridge) {
			v.Hear(finished)
			b.set(card, succeeded)
		}, want: []string{"result 12:00"}},
		{name: "stopped before the click", clicked: cancelled, want: []string{"cancelled: " + stopped}},
		{name: "stopped while the view opens", clicked: running, before: func(v *Views, b *cardBridge) {
			v.Hear(stop)
			b.set(card, cancelled)
		}, want: []string{"cancelled: " + stopped}},
		{name: "still running", clicked: running, want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := &cardBridge{cards: map[apps.Card]transcript.Row{}}
			b.set(card, tt.clicked)
			v := New(b, nil)
			if tt.before != nil {
				tt.before(v, b)
			}
			if tt.between != nil {
				v.added = func(apps.Card) { tt.between(v, b) }
			}
			w := &toldWindow{done: make(chan struct{})}
			if !v.follow(card, w, tt.clicked) {
				t.Fatal("follow: the card has a view already")
			}
			if tt.after != nil {
				tt.after(v, b)
			}
			if diff := cmp.Diff(tt.want, w.got()); diff != "" {
				t.Errorf("the view was told (-want +got):\n%s", diff)
			}
			if v.follow(card, &toldWindow{done: make(chan struct{})}, tt.clicked) {
				t.Error("a second view of the card was kept")
			}
		})
	}
}
