package chat

import (
	"testing"

	"fyne.io/fyne/v2"

	"deckhand/transcript"
)

// A message's header drawn while its answer was written, and given again
// to the same row once the answer is over, shows Retry, Edit and Delete:
// SetRunning redraws the views the chat holds, but the list can give a
// view it kept out of sight (or one taken back, free) to the row it last
// showed, which was then not redrawn (new-user pass 8, at 640×480: a
// message scrolled out of sight while its answer streamed came back with
// only the Copy icon).
func TestHeaderDrawnWhileRunningIsRedrawnAfter(t *testing.T) {
	u := newTestUI(t)
	row := transcript.Row{Kind: transcript.Header, Role: "user", Text: "brief tale 2", Run: "r1", Last: true}
	u.chat.Reset("c1", []transcript.Row{row})
	u.drain()
	u.chat.SetRunning(true)
	v := newRowView(u.chat) // out of the chat's views: SetRunning does not reach it
	v.show(0, row, u.chat.flowOf(0))
	h := v.Parts[transcript.Header].(*HeaderView)
	if h.Retry.Visible() {
		t.Fatal("Retry shows on a header drawn while the answer is written")
	}
	u.chat.SetRunning(false)
	v.show(0, row, u.chat.flowOf(0)) // the list gives it to the same row again
	for name, b := range map[string]fyne.CanvasObject{"Retry": h.Retry, "Edit": h.Edit, "Delete": h.Delete} {
		if !b.Visible() {
			t.Errorf("%s is hidden on the header given again after the answer ended", name)
		}
	}
}
