package toolcard

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/theme"

	"deckhand/store"
	"deckhand/toolcall"
	"deckhand/transcript"
)

// A call the person stopped while it ran says so, "stopped after 4.8s",
// with the stop sign in the text's colour: it was headed "failed after
// 4.8s" with the red error icon and a red "Error" (the run said
// "Stopped."). The same live (as the bridge draws ToolCallFinished with
// Cancelled) and read back from the log; a call that failed by itself
// still says it failed.
func TestToolCardSaysTheCallWasStopped(t *testing.T) {
	t0 := time.UnixMilli(1_700_000_000_000)
	cancelled, _ := json.Marshal(toolcall.CancelledText)
	logged := func(kind, data string) []store.Event {
		var events []store.Event
		for i, e := range [][2]string{
			{store.KindRunStarted, `{"text":"slow op","parent":""}`},
			{store.KindAssistantMessage, `{"text":"","tool_calls":[{"id":"c1","name":"ev.slow"}]}`},
			{store.KindToolRequested, `{"call":"c1","tool":"ev.slow"}`},
			{store.KindToolInvoked, `{"call":"c1","tool":"ev.slow"}`},
			{kind, data},
			{store.KindRunStopped, `{}`},
		} {
			events = append(events, store.Event{RunID: "r1", Kind: e[0], Data: json.RawMessage(e[1]), Time: t0.Add(time.Duration(i))})
		}
		return events
	}
	live := func(output string, cancel bool) *transcript.Transcript {
		tr := transcript.New()
		tr.StartRun("r1")
		tr.ToolRequested("c1", "ev.slow", []byte(`{}`))
		tr.ToolStarted("c1", "ev.slow", nil)
		tr.ToolFinished("c1", "ev.slow", nil, output, true, false, 4800*time.Millisecond)
		if cancel {
			tr.ToolCancelled("c1")
		}
		return tr
	}
	tests := []struct {
		name    string
		tr      *transcript.Transcript
		stopped bool
	}{
		{name: "stopped, live", tr: live(toolcall.CancelledText, true), stopped: true},
		{name: "stopped, from the log", stopped: true,
			tr: transcript.FromEvents(logged(store.KindToolFailed, `{"call":"c1","tool":"ev.slow","output":`+string(cancelled)+`,"cancelled":true,"elapsed_ms":4800}`))},
		{name: "failed by itself", tr: live("boom", false)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			row, ok := tt.tr.Card("r1", "c1")
			if !ok {
				t.Fatal("no card for the call")
			}
			r := &testRow{h: h, row: row}
			r.card = h.cards.NewCard(r)
			h.box.Add(r.card.View())
			r.card.Set(row)
			c := r.card
			if !tt.stopped {
				if want := "failed after 4.8 s"; c.State.Text != want || c.icon.Resource != h.cards.icons.Failed {
					t.Errorf("a failed call's card says %q (error icon %v), want %q", c.State.Text, c.icon.Resource == h.cards.icons.Failed, want)
				}
				return
			}
			if got := c.State.Text; !strings.HasPrefix(got, "stopped after 4.8") {
				t.Errorf("the stopped call's card says %q, want stopped after 4.8s", got)
			}
			if c.icon.Resource == h.cards.icons.Failed || c.icon.Resource == h.cards.icons.Denied || !c.icon.Visible() {
				t.Errorf("the stopped call's icon is the error or warning one (or none): %v", c.icon.Resource)
			}
			if c.Border.StrokeColor == theme.Color(theme.ColorNameError) {
				t.Error("the stopped call's card has the error's red border")
			}
			if c.OutLabel.Text == "Error" || c.Out.Segments[0].(interface{ Textual() string }).Textual() != toolcall.CancelledText {
				t.Errorf("the stopped call's output is under %q: %q", c.OutLabel.Text, c.Out.String())
			}
		})
	}
}
