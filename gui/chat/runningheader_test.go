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

// An answer's info fits its header's line: whole where there is room,
// else shortened so that the speed shows (at 640×480 and 128% it was cut
// before it).
func TestInfoFitsTheLine(t *testing.T) {
	const info = "gpt-4o · 284 in, 78 out tokens · 24.2 tokens/s"
	measure := func(s string) float32 { return float32(len(s)) }
	for _, c := range []struct {
		width float32
		want  string
	}{
		{0, info},
		{100, info},
		{float32(len("284 in, 78 out tokens · 24.2 tokens/s")), "284 in, 78 out tokens · 24.2 tokens/s"},
		{30, "284 in, 78 out · 24.2 tok/s"},
		{20, "24.2 tokens/s"},
		{5, "24.2 tokens/s"},
	} {
		if got := fitInfo(info, c.width, measure); got != c.want {
			t.Errorf("fitInfo at %v = %q, want %q", c.width, got, c.want)
		}
	}
	if got := fitInfo("gpt-4o", 3, measure); got != "gpt-4o" {
		t.Errorf("a model alone is shortened to %q", got)
	}
}
