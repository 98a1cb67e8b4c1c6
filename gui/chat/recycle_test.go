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

// The list is given a new item each time it asks for one, never one it
// had before: Fyne's list keeps the items it lets go of in a sync.Pool,
// whose drain at a full refresh misses an item put while the UI goroutine
// ran on another P, and gives that item out again later. The chat view
// takes back the views of the items let go of and hands them out again,
// in new items: an item that comes back from Fyne's pool, given a row out
// of sight, changes nothing on screen. Before, the items were the views
// themselves: a view handed out again for a row on screen came back from
// Fyne's pool for another row, and stood in two places, one row shown
// twice and the other not at all (TestLongParagraphWrapsAsOne found "row
// 23 is not on screen" now and then on a loaded machine).
func TestListItemsNeverGivenTwice(t *testing.T) {
	u, drain := benchView(t)
	cv := u.chat
	rows := sampleConversation(120)
	create, update := cv.List.CreateItem, cv.List.UpdateItem
	items := map[fyne.CanvasObject]int{} // the row the list last showed in each item
	var again []int                      // rows last shown in items given again
	cv.List.CreateItem = func() fyne.CanvasObject {
		o := create()
		if id, ok := items[o]; ok {
			again = append(again, id)
		}
		return o
	}
	cv.List.UpdateItem = func(id int, o fyne.CanvasObject) {
		items[o] = id
		update(id, o)
	}
	for n := 1; n <= len(rows); n++ {
		cv.Update(n, map[int]transcript.Row{n - 1: rows[n-1]})
		drain()
	}
	// onScreen are the items the list shows, and the rows their views show.
	onScreen := func() (shown []fyne.CanvasObject, ids []int) {
		guitest.Walk(cv.List, func(o fyne.CanvasObject) {
			if _, ok := items[o]; ok {
				shown = append(shown, o)
			}
			if v, ok := o.(*RowView); ok {
				ids = append(ids, v.ID)
			}
		})
		return shown, ids
	}
	tall, _ := onScreen()

	// The window made short, the items of the rows no longer in view go
	// to Fyne's pool; a full refresh empties it, and the chat view takes
	// their views back, for the rows that come into sight when the window
	// is made tall again.
	size := u.Win.Canvas().Size()
	u.Win.Resize(fyne.NewSize(size.Width, 250))
	drain()
	short, _ := onScreen()
	cv.List.Refresh()
	drain()
	u.Win.Resize(size)
	drain()
	if len(again) > 0 {
		t.Fatalf("the list, asking for new items, was given back %d it had shown rows in (rows %v, ...)", len(again), again[:min(len(again), 5)])
	}

	// Each item the short window let go of, as Fyne's pool would give it
	// back after its drain missed it, for a row out of sight.
	shown, want := onScreen()
	out, gone := len(cv.Rows)-1, 0
	for _, o := range tall {
		if slices.Contains(short, o) || slices.Contains(shown, o) {
			continue // on screen: not in the pool
		}
		gone++
		cv.List.UpdateItem(out, o)
		if _, got := onScreen(); !slices.Equal(got, want) {
			t.Fatalf("an item back from Fyne's pool for row %d: the rows on screen are %v, want %v", out, got, want)
		}
	}
	if gone == 0 {
		t.Fatal("the short window let go of no item")
	}
}
