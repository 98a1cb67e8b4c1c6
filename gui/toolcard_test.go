package gui

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"deckhand/config"
	"deckhand/gui/chat"
	"deckhand/gui/guitest"
	"deckhand/testutil"
	"deckhand/tools"
	"deckhand/transcript"
)

// cardHarness is a window whose transcript the test writes itself: a
// transcript of its own, drawn into the chat view as the bridge's frames
// would.
type cardHarness struct {
	*harness
	tr *transcript.Transcript
}

func newCardHarness(t *testing.T) *cardHarness { return newCardHarnessWith(t, harnessOptions{}) }

func newCardHarnessWith(t *testing.T, o harnessOptions) *cardHarness {
	h := newHarness(t, o)
	h.until("a new conversation", func() bool { return h.ui.conv != "" })
	h.drain()
	h.ui.win.Resize(fyne.NewSize(900, 700))
	return &cardHarness{harness: h, tr: transcript.New()}
}

// drain runs the window's queued work until none is left for a moment.
func (h *harness) drain() { h.queue.Settle() }

// finished adds a finished call of tool with output and media, and draws it.
func (h *cardHarness) finished(call, tool, output string, media *tools.Media) {
	guitest.FinishCall(h.tr, call, tool, output, media)
	h.frame()
}

// frame draws the transcript's changes, as a bridge frame does.
func (h *cardHarness) frame() { h.ui.chat.Update(h.tr.Changes()) }

// TestLongRunCardsCollapse: the finished cards of a run of several calls
// fold when the next message is sent; each can be opened again.
func TestLongRunCardsCollapse(t *testing.T) {
	var calls []testutil.ToolCallSpec
	for i := range transcript.CollapseRun {
		calls = append(calls, testutil.ToolCallSpec{ID: fmt.Sprintf("c%d", i), Name: "t__echo", Arguments: fmt.Sprintf(`{"text": "hi %d"}`, i)})
	}
	h := newHarness(t, harnessOptions{
		cfg: func(c *config.Config) { c.MCP.AutoApprove = map[string]bool{"t.*": true} },
		fallback: func(req map[string]any) testutil.ModelResponse {
			msgs, _ := req["messages"].([]any)
			last, _ := msgs[len(msgs)-1].(map[string]any)
			if last["role"] == "user" && last["content"] == "echo four times" {
				return testutil.ModelResponse{Body: testutil.ToolCallChunks(calls...)}
			}
			return testutil.ModelResponse{Body: testutil.TextChunks("Done.")}
		},
	})
	h.say("echo four times")
	h.until("the answer", func() bool { return h.shows(h.ui.win, "Done.") && !h.ui.running })
	if c := h.card("t.echo"); c == nil || c.Row.Collapsed {
		t.Fatal("the cards are folded while their answer is read")
	}
	h.say("thanks")
	h.until("the folded cards", func() bool {
		c := h.card("t.echo")
		return c != nil && c.Row.Collapsed && !c.Tool().Args.Visible()
	})
	c := h.card("t.echo")
	test.Tap(c.Tool().Fold)
	if c.Row.Collapsed || !c.Tool().Args.Visible() {
		t.Error("the fold button did not open the card")
	}
}

// TestToolCardMediaEndToEnd: a server's image and links reach the card
// through the actors and the bridge.
func TestToolCardMediaEndToEnd(t *testing.T) {
	srv := testutil.ServeHTTP(t, testutil.NewMediaServer("m"))
	h := newHarness(t, harnessOptions{
		cfg: func(c *config.Config) {
			c.MCP.AutoApprove = map[string]bool{"m.*": true}
			c.MCP.Servers = map[string]config.Server{"m": {URL: srv.StreamableURL}}
		},
		fallback: toolThenText(testutil.ToolCallSpec{ID: "c1", Name: "m__shot", Arguments: `{}`}, "That is the page."),
	})
	// The media server connects over HTTP after the in-process one: a
	// message sent before would offer the model no m.shot.
	h.until("m's tools", func() bool { return h.ui.catalog != nil && hasTool(h, "m.shot") })
	h.say("show me the page")
	var c *chat.RowView
	h.until("the card's result", func() bool {
		c = h.card("m.shot")
		return c != nil && c.Row.State == transcript.Succeeded
	})
	if !strings.Contains(h.lastToolResult(), "[image: image/png") {
		t.Errorf("the model was not told of the image: %s", h.lastToolResult())
	}
	h.until("the card's media", func() bool { c = h.card("m.shot"); return c.Row.Media != nil })
	h.until("the image", func() bool { c = h.card("m.shot"); return c.Tool().Media.Pic.Pic.Image != nil })
	if n := len(c.Row.Media.Links); n != 4 {
		t.Errorf("the card has %d links, want 4", n)
	}
	for _, l := range c.Row.Media.Links {
		if strings.Contains(l.Name, "\x1b") {
			t.Errorf("a link's name is not cleaned: %q", l.Name)
		}
	}
}
