package chat

import (
	"runtime"
	"slices"
	"testing"

	"fyne.io/fyne/v2"

	"deckhand/gui/guitest"
	"deckhand/transcript"
)

// A long conversation written message by message keeps only about a
// screenful of row views: the list recycles them, and the chat view keeps
// no view the list has let go of (Fyne's pool drops them at each
// collection and full refresh, and makes new ones), while it keeps every
// view on screen, to redraw its row in place. The views the list lets go
// of are used again, rather than new ones made for each row.
func TestRowViewsRecycled(t *testing.T) {
	u, drain := benchView(t)
	rows := sampleConversation(400)
	made := map[*RowView]bool{} // every view the list showed
	check := func(n int) {
		t.Helper()
		var onScreen []*RowView
		guitest.Walk(u.chat.List, func(o fyne.CanvasObject) {
			if r, ok := o.(*RowView); ok {
				onScreen = append(onScreen, r)
				made[r] = true
			}
		})
		if len(onScreen) == 0 {
			t.Fatalf("after %d rows, no row on screen", n)
		}
		for _, v := range onScreen {
			if !slices.Contains(u.chat.Views, v) {
				t.Fatalf("after %d rows, the view of row %d is on screen but not kept", n, v.ID)
			}
		}
		if len(u.chat.Views) > 3*len(onScreen)+6 {
			t.Fatalf("after %d rows, the chat view holds %d row views, %d on screen", n, len(u.chat.Views), len(onScreen))
		}
	}
	for n := 1; n <= len(rows); n++ {
		u.chat.SetRunning(n%2 == 1)
		u.chat.Update(n, map[int]transcript.Row{n - 1: rows[n-1]})
		drain()
		if n%10 == 0 {
			runtime.GC() // empties Fyne's pool of list items
		}
		check(n)
	}
	if len(made) > 40 {
		t.Errorf("the list showed %d different views for %d rows: they are not used again", len(made), len(rows))
	}
	// Scrolled to the top, and back.
	for _, y := range []float32{0, 5000, 0} {
		u.chat.List.ScrollToOffset(y)
		drain()
		check(len(rows))
	}
	u.chat.List.ScrollToBottom()
	drain()
	check(len(rows))
}
