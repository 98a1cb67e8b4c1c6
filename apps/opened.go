package apps

import (
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Card is the tool card a view was opened from: its conversation, the
// run that made the call, and the call (a model may give two calls of two
// runs one id; tool and arguments tell them apart where the run is not
// known).
type Card struct {
	Conversation, Run, Call, Tool, Args string
}

// Opened are the views open in a window, by the card each was opened
// from: what happens to a card's call, to its run or chat, and to the
// window's theme reaches its view. Safe for concurrent use; the zero
// value is empty and ready.
type Opened struct {
	mu   sync.Mutex
	open map[Card]Viewer
}

// Viewer is what Opened does with a view: a *Window, a stand-in in tests.
type Viewer interface {
	SetResult(*sdk.CallToolResult)
	Cancel(reason string)
	SetTheme(theme string)
	Raise()
	Close()
}

var _ Viewer = (*Window)(nil)

// Add keeps w as card's view; false (and nothing kept) when the card has
// a view open already. From then on what happens to the card reaches w.
func (o *Opened) Add(card Card, w Viewer) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.open == nil {
		o.open = map[Card]Viewer{}
	}
	if _, ok := o.open[card]; ok {
		return false
	}
	o.open[card] = w
	return true
}

// Has reports whether card has a view open.
func (o *Opened) Has(card Card) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	_, ok := o.open[card]
	return ok
}

// Remove forgets card's view (it has ended).
func (o *Opened) Remove(card Card) {
	o.mu.Lock()
	delete(o.open, card)
	o.mu.Unlock()
}

// each calls f for the views whose card match picks, outside the lock.
func (o *Opened) each(match func(Card) bool, f func(Viewer)) {
	o.mu.Lock()
	var vs []Viewer
	for c, v := range o.open {
		if match(c) {
			vs = append(vs, v)
		}
	}
	o.mu.Unlock()
	for _, v := range vs {
		f(v)
	}
}

func (o *Opened) call(conv, run, call string) func(Card) bool {
	return func(c Card) bool { return c.Conversation == conv && c.Run == run && c.Call == call }
}

// Finished gives the view of a call that ended its result.
func (o *Opened) Finished(conv, run, call string, r *sdk.CallToolResult) {
	o.each(o.call(conv, run, call), func(v Viewer) { v.SetResult(r) })
}

// Cancelled tells the view of a call that was cancelled why.
func (o *Opened) Cancelled(conv, run, call, reason string) {
	o.each(o.call(conv, run, call), func(v Viewer) { v.Cancel(reason) })
}

// SetTheme tells every open view the window's new theme.
func (o *Opened) SetTheme(theme string) {
	o.each(func(Card) bool { return true }, func(v Viewer) { v.SetTheme(theme) })
}

// Raise brings the views of conversation conv's cards of tool (its
// display name, server.tool) in front.
func (o *Opened) Raise(conv, tool string) {
	o.each(func(c Card) bool { return c.Conversation == conv && c.Tool == tool }, func(v Viewer) { v.Raise() })
}

// CloseAll closes every open view (Deckhand quits).
func (o *Opened) CloseAll() {
	o.each(func(Card) bool { return true }, func(v Viewer) { v.Close() })
}

// CloseRun closes the views of the cards of a run taken out of its
// conversation (deleted, retried or edited): their cards are gone.
func (o *Opened) CloseRun(conv, run string) {
	o.each(func(c Card) bool { return c.Conversation == conv && c.Run == run }, func(v Viewer) { v.Close() })
}

// CloseConversation closes the views of a conversation's cards (the chat
// was deleted).
func (o *Opened) CloseConversation(conv string) {
	o.each(func(c Card) bool { return c.Conversation == conv }, func(v Viewer) { v.Close() })
}
