package find

import (
	"image/color"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"github.com/google/go-cmp/cmp"

	"deckhand/transcript"
)

// fakeChat is a chat of fixed rows, which records what the bar asks.
type fakeChat struct {
	rows      []transcript.Row
	win       fyne.Window
	shown     []Hit
	elsewhere []string
}

func (c *fakeChat) Rows() []transcript.Row       { return c.rows }
func (c *fakeChat) Conv() string                 { return "c1" }
func (c *fakeChat) Window() fyne.Window          { return c.win }
func (c *fakeChat) Shortcut(fyne.KeyName) func() { return nil }
func (c *fakeChat) FocusInput()                  {}
func (c *fakeChat) Redraw()                      {}
func (c *fakeChat) MarkCards()                   {}
func (c *fakeChat) ShowMatch(h Hit)              { c.shown = append(c.shown, h) }
func (c *fakeChat) Choose(string, string, bool)  {}
func (c *fakeChat) FindElsewhere(query string)   { c.elsewhere = append(c.elsewhere, query) }

var _ Chat = (*fakeChat)(nil)

// The bar counts matches in text and code rows and tool cards, ignoring
// case; a paragraph cut in rows is read as one text, a match across the
// cut counted once, in the row it begins in; words found nowhere are
// asked of the log.
func TestFinderCounts(t *testing.T) {
	rows := []transcript.Row{
		{Kind: transcript.Header, Role: "assistant"},
		{Kind: transcript.Text, Text: "The quick brown Fox"},
		{Kind: transcript.Text, Text: "jumps over the fox.", Cont: true, Join: " "},
		{Kind: transcript.Code, Text: "fox := 1"},
		{Kind: transcript.Tool, Tool: "zoo.find", Args: `{"animal": "fox"}`, Output: "a fox, a FOX"},
	}
	for _, tt := range []struct {
		name, query string
		hits        []Hit
		count       string
		card        color.Color // the card's mark
		elsewhere   []string
	}{
		{name: "every kind of row", query: "fox", hits: []Hit{{1, 0}, {2, 0}, {3, 0}, {4, 0}, {4, 1}, {4, 2}}, count: "1 of 6", card: marked},
		{name: "across the cut", query: "fox jumps", hits: []Hit{{1, 0}}, count: "1 of 1"},
		{name: "a card's name", query: "ZOO.find", hits: []Hit{{4, 0}}, count: "1 of 1", card: Current},
		{name: "nowhere", query: "badger", count: "No matches", elsewhere: []string{"badger"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			test.NewTempApp(t)
			c := &fakeChat{rows: rows}
			f := New(c, nil)
			c.win = test.NewTempWindow(t, f.Bar)
			f.Open(tt.query)
			if diff := cmp.Diff(tt.hits, f.Hits); diff != "" {
				t.Errorf("Open(%q) hits (-want +got):\n%s", tt.query, diff)
			}
			if f.Count.Text != tt.count {
				t.Errorf("Open(%q) says %q, want %q", tt.query, f.Count.Text, tt.count)
			}
			if len(tt.hits) > 0 && (len(c.shown) == 0 || c.shown[len(c.shown)-1] != tt.hits[0]) {
				t.Errorf("Open(%q) showed %v, want the first match %v", tt.query, c.shown, tt.hits[0])
			}
			if got := f.CardMark(4); got != tt.card {
				t.Errorf("Open(%q) marks the card %v, want %v", tt.query, got, tt.card)
			}
			if diff := cmp.Diff(tt.elsewhere, c.elsewhere); diff != "" {
				t.Errorf("Open(%q) asked the log (-want +got):\n%s", tt.query, diff)
			}
		})
	}
}
