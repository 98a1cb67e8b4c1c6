package apps

import (
	"slices"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// noteViewer records what Opened did to it.
type noteViewer struct {
	name string
	mu   *sync.Mutex
	log  *[]string
}

func (v noteViewer) note(what string) {
	v.mu.Lock()
	*v.log = append(*v.log, v.name+" "+what)
	v.mu.Unlock()
}
func (v noteViewer) SetResult(r *sdk.CallToolResult) {
	v.note("result " + r.Content[0].(*sdk.TextContent).Text)
}
func (v noteViewer) Cancel(reason string)  { v.note("cancelled: " + reason) }
func (v noteViewer) SetTheme(theme string) { v.note("theme " + theme) }
func (v noteViewer) Raise()                { v.note("raised") }
func (v noteViewer) Close()                { v.note("closed") }

// What happens to a card's call, run or chat reaches the view opened from
// that card and no other; a theme reaches them all; a card has one view.
func TestOpenedViewsFollowTheirCards(t *testing.T) {
	var mu sync.Mutex
	var log []string
	var o Opened
	cards := map[string]Card{
		"a": {Conversation: "c1", Run: "r1", Call: "x", Tool: "s.show"},
		"b": {Conversation: "c1", Run: "r2", Call: "x", Tool: "s.other"}, // the same call id in another run
		"c": {Conversation: "c2", Run: "r3", Call: "y", Tool: "s.show"},
	}
	for name, card := range cards {
		if !o.Add(card, noteViewer{name, &mu, &log}) {
			t.Fatalf("add %s: already open", name)
		}
	}
	if o.Add(cards["a"], noteViewer{"a2", &mu, &log}) {
		t.Errorf("a second view of card a was kept")
	}
	tests := []struct {
		name string
		do   func()
		want []string
	}{
		{"finished", func() {
			o.Finished("c1", "r2", "x", &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "42"}}})
		}, []string{"b result 42"}},
		{"cancelled", func() { o.Cancelled("c1", "r1", "x", "stopped") }, []string{"a cancelled: stopped"}},
		{"theme", func() { o.SetTheme("dark") }, []string{"a theme dark", "b theme dark", "c theme dark"}},
		{"raised", func() { o.Raise("c1", "s.show") }, []string{"a raised"}},
		{"run deleted", func() { o.CloseRun("c1", "r1") }, []string{"a closed"}},
		{"chat deleted", func() { o.CloseConversation("c2") }, []string{"c closed"}},
		{"another chat", func() { o.CloseConversation("c3") }, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mu.Lock()
			log = nil
			mu.Unlock()
			tc.do()
			mu.Lock()
			got := slices.Sorted(slices.Values(log))
			mu.Unlock()
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tc.name, diff)
			}
		})
	}
	o.Remove(cards["b"])
	if o.Has(cards["b"]) || !o.Has(cards["a"]) {
		t.Errorf("after Remove(b): Has(b) %v, Has(a) %v", o.Has(cards["b"]), o.Has(cards["a"]))
	}
}
