package chat

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"

	"deckhand/gui/chat/notice"
	"deckhand/transcript"
)

// A model's error with its Settings and Retry: beside the text where the
// chat is wide, under it where they would leave the text a narrow column
// (at 640×480, 128%, a 404's advice wrapped into 14 lines 190 px wide);
// either way nothing overlaps the next row.
func TestNoticeButtonsGoUnderANarrowText(t *testing.T) {
	for _, c := range []struct {
		name    string
		width   float32
		stacked bool
	}{{"wide", 1100, false}, {"narrow", 470, true}} {
		t.Run(c.name, func(t *testing.T) {
			h := newCardHarness(t)
			h.ui.Win.Resize(fyne.NewSize(c.width, 700))
			h.tr.StartRun("r1")
			h.tr.User("hello", time.Now())
			h.tr.NoteAction("The model server answered 404 Not Found for that path: the model's address (Model URL in Settings, model.base_url) "+
				"is likely wrong, with /v1 missing or one too many, or not the root of an OpenAI-compatible or Anthropic API.", true, transcript.ActionAddress)
			h.tr.Note("after the error", false)
			h.frame()
			var note *notice.Notice
			var after *RowView
			h.until("the notice", func() bool {
				note, after = nil, nil
				for _, r := range h.visibleRows() {
					if n, ok := r.Parts[transcript.Notice].(*notice.Notice); ok && r.box.Objects[0] == n.View() && strings.Contains(n.Seg.Text, "404") {
						note = n
					}
					if strings.Contains(r.Row.Text, "after the error") {
						after = r
					}
				}
				return note != nil && after != nil
			})
			d := fyne.CurrentApp().Driver()
			text, actions := d.AbsolutePositionForObject(note.RT), d.AbsolutePositionForObject(note.Buttons)
			under := actions.Y >= text.Y+note.RT.Size().Height
			if under != c.stacked {
				t.Errorf("the buttons under the text: %v, want %v (text %v at %v, buttons at %v)", under, c.stacked, note.RT.Size(), text, actions)
			}
			if c.stacked && note.RT.Size().Width < 300 {
				t.Errorf("the text is %v wide over its buttons", note.RT.Size().Width)
			}
			if bottom := actions.Y + note.Buttons.Size().Height; bottom > d.AbsolutePositionForObject(after).Y+1 {
				t.Errorf("the buttons end at %v, below the next row's top %v", bottom, d.AbsolutePositionForObject(after).Y)
			}
		})
	}
}
