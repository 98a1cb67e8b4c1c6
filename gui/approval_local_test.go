package gui

import (
	"encoding/json"
	"strings"
	"testing"

	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/actors/conversation"
	"deckhand/approval"
	"deckhand/config"
	"deckhand/gui/guitest"
)

// A built-in tool's approval says where its claims ("may change or delete
// things") come from and how to change them: its definition's
// annotations. Another server's tool does not.
func TestApprovalSaysWhereLocalClaimsComeFrom(t *testing.T) {
	for _, c := range []struct {
		name   string
		server string
		note   bool
	}{
		{"built-in", config.LocalAlias, true},
		{"another server", "t", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, harnessOptions{})
			req := &conversation.ApprovalRequested{Conversation: "c", ID: "1", Request: approval.Request{
				Server: c.server, Tool: "greet", Display: c.server + ".greet", Trusted: c.server == config.LocalAlias,
				Annotations: &sdk.ToolAnnotations{}, Arguments: json.RawMessage(`{"who":"Deckhand"}`)}}
			req.Reply = func(approval.Answer, approval.Reason) error { return nil }
			h.ui.dialogs.Approvals.Set([]*conversation.ApprovalRequested{req})
			h.until("the approval dialog", func() bool { return h.ui.dialogs.Approvals.Shown() != nil })
			if !h.shows(h.ui.win, "may change or delete things") {
				t.Fatal("the approval does not say the tool may change things")
			}
			note := h.ui.dialogs.Approvals.LocalNote
			switch {
			case c.note && (note == nil || !strings.Contains(note.Text, `"annotations": {"read_only": true}`)):
				t.Errorf("the built-in tool's approval does not say where its claims come from: %v", note)
			case c.note && !h.shows(h.ui.win, "definition file of Deckhand's built-in tools"):
				t.Error("the note is not shown")
			case !c.note && note != nil:
				t.Errorf("another server's tool is told of the built-in definitions: %q", note.Text)
			}
			if c.note {
				// Readable: it was drawn in the disabled colour, 1.3:1 on
				// the light theme's background.
				bg := theme.Color(theme.ColorNameBackground)
				seen := 0
				for _, x := range guitest.All[*canvas.Text](h.ui.win.Canvas().Overlays().Top()) {
					if len(x.Text) > 10 && strings.Contains(note.Text, x.Text) {
						seen++
						if r := contrast(x.Color, bg); r < 3 {
							t.Errorf("the note's %q is drawn at %.1f:1 against the background, want 3:1 at least", x.Text, r)
						}
					}
				}
				if seen == 0 {
					t.Error("no line of the note drawn")
				}
			}
		})
	}
}
