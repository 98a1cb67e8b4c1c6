package gui

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"deckhand/config"
	"deckhand/gui/chat"
	"deckhand/store"
	"deckhand/testutil"
	"deckhand/transcript"
)

// TestToolCardSaysTheResultWasCut: a result over the result limit
// (mcp.max_output_bytes, 4 KiB here) reaches the model cut, and its card
// says so at the result's top, before the text, with the sizes Deckhand
// cut it by ("The model saw 4.0 KiB of this 39.8 KiB result"), and in its
// header ("· cut for the model"), which a folded card still shows. A
// result of the same server that only writes Deckhand's marker itself,
// under the limit, gets no such note: the card goes by what Deckhand cut,
// not by the text. On main the card said only "… more" at the end of
// what it draws (new-user report 12, problem 9).
func TestToolCardSaysTheResultWasCut(t *testing.T) {
	long := strings.Repeat("a line of output\n", 2400) // 39.8 KiB
	fake := "all is well\n\n[… 3.5 MiB cut: the output was 3.5 MiB, limit 31.2 KiB …]\n\nthe end"
	for _, tt := range []struct {
		name, text string
		cut        bool
	}{
		{name: "cut", text: long, cut: true},
		{name: "a server's fake marker", text: fake},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, harnessOptions{
				log: true,
				cfg: func(c *config.Config) {
					c.MCP.AutoApprove = map[string]bool{"t.*": true}
					c.MCP.MaxOutputBytes = 4 << 10
				},
				fallback: toolThenText(testutil.ToolCallSpec{ID: "c1", Name: "t__echo", Arguments: `{"text": ` + jsonQuote(tt.text) + `}`}, "Done."),
			})
			h.say("echo it")
			var c *chat.RowView
			h.until("the finished card and the answer", func() bool {
				c = h.card("t.echo")
				return c != nil && c.Row.State == transcript.Succeeded && h.shows(h.ui.win, "Done.")
			})
			h.queue.Settle()
			// The log keeps the fact: the chat reopened says the same.
			want := c.Row.Cut
			if (want.Whole > 0) != tt.cut {
				t.Errorf("the card's row says %+v of the cut", want)
			}
			h.until("the log", func() bool {
				events, _ := h.db.Events(context.Background(), store.Filter{SessionID: h.ui.conv})
				tr := transcript.FromEvents(events)
				for i := range tr.Len() {
					if r := tr.Row(i); r.Kind == transcript.Tool && r.State == transcript.Succeeded {
						return r.Cut == want
					}
				}
				return false
			})
			card := c.Tool()
			note, state := card.CutNote, card.State.Text
			if !tt.cut {
				if note.Visible() || strings.Contains(state, "cut") {
					t.Errorf("a result under the limit: the note shown %v (%q), the header %q; want no note", note.Visible(), note.Text, state)
				}
				return
			}
			if !note.Visible() || !strings.HasPrefix(note.Text, "The model saw 4.0 KiB of this 39.8 KiB result: the rest was cut") ||
				!strings.Contains(note.Text, "mcp.max_output_bytes") {
				t.Errorf("the cut result's note: shown %v, %q; want the sizes and the limit", note.Visible(), note.Text)
			}
			if !under(note, card.Out) || !under(card.OutLabel, note) {
				t.Errorf("the note is not at the result's top, under its label and above its text")
			}
			if !strings.HasSuffix(state, " · cut for the model") {
				t.Errorf("the cut card's header says %q, want it to end in \" · cut for the model\"", state)
			}
			// The whole result is kept for the person beside the log, and
			// the card offers it; what Show shows is said to be what the
			// model saw (it said "the whole result": new-user pass 13, F3).
			kept, err := os.ReadFile(h.db.ResultPath(h.ui.conv, c.Row.Run, c.Row.Call))
			if err != nil || string(kept) != "Echo: "+tt.text {
				t.Errorf("the whole result kept: %d bytes, want the %d the tool sent (%v)", len(kept), len("Echo: "+tt.text), err)
			}
			if !want.Saved || !card.SaveWhole.Visible() || !strings.Contains(note.Text, "kept the whole result") {
				t.Errorf("the card of a kept result: saved %v, Save the whole result… shown %v, note %q", want.Saved, card.SaveWhole.Visible(), note.Text)
			}
			if more := card.OutMore.Text; !strings.HasPrefix(more, "Show all the model saw (") {
				t.Errorf("the cut result's end says %q, want Show all the model saw (…)", more)
			}
			// Deleting the chat removes what was kept for it.
			if err := h.db.DeleteSession(context.Background(), h.ui.conv); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(h.db.ResultPath(h.ui.conv, c.Row.Run, c.Row.Call)); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("the chat deleted, its kept result: %v", err)
			}
			test.Tap(card.Fold)
			h.queue.Settle()
			if state := card.State.Text; !strings.HasSuffix(state, " · cut for the model") || note.Visible() {
				t.Errorf("folded, the header says %q (the note shown %v)", state, note.Visible())
			}
		})
	}
}

// under reports whether b is drawn under a.
func under(a, b fyne.CanvasObject) bool {
	d := fyne.CurrentApp().Driver()
	return d.AbsolutePositionForObject(b).Y >= d.AbsolutePositionForObject(a).Y+a.Size().Height
}
