package terminal

import (
	"fmt"
	"strings"
	"time"

	"deckhand/actors/conversation"
	"deckhand/approval"
	"deckhand/clean"
	"deckhand/tools"
)

func (t *chat) approval(m *conversation.ApprovalRequested) {
	switch {
	case t.approve == ApproveAuto:
		t.reply(m, approval.AllowOnce, "--approve=auto")
		fmt.Fprintf(t.info, "%s\n", t.paint(dim, "  ✓ "+m.Request.Display+" allowed (--approve=auto)"))
	case t.approve == ApproveDeny:
		t.reply(m, approval.Deny, "the user runs with --approve=deny")
		fmt.Fprintf(t.info, "%s\n", t.paint(dim, "  ✗ "+m.Request.Display+" denied (--approve=deny)"))
	case !t.interactive:
		t.reply(m, approval.Deny, "no terminal to ask the user; run with --approve=auto to allow")
		fmt.Fprintf(t.info, "%s\n", t.paint(yellow, "  ✗ "+m.Request.Display+" denied: no terminal to ask for approval (use --approve=auto)"))
	default:
		t.pending = append(t.pending, m)
		if len(t.pending) == 1 {
			t.askNext()
		}
	}
}

// reply answers m; an answer the run no longer waits for (it timed out
// meanwhile) is said to be dropped.
func (t *chat) reply(m *conversation.ApprovalRequested, ans approval.Answer, reason approval.Reason) {
	if err := m.Reply(ans, reason); err != nil {
		t.endLine()
		fmt.Fprintf(t.info, "%s\n", t.paint(yellow, "  ! "+m.Request.Display+": "+err.Error()))
	}
}

// askNext shows the first pending approval.
func (t *chat) askNext() {
	m := t.pending[0]
	r := m.Request
	t.endLine()
	var b strings.Builder
	fmt.Fprintf(&b, "\n%s\n", t.paint(bold, fmt.Sprintf("Allow %s?", r.Display)))
	if r.Title != "" {
		fmt.Fprintf(&b, "  %s\n", clean.Line(r.Title))
	}
	if r.Description != "" {
		fmt.Fprintf(&b, "  %s\n", clean.Line(Shorten(FirstLine(r.Description), 160)))
	}
	if r.Change != "" {
		fmt.Fprintf(&b, "  %s\n", t.paint(yellow, "! changed since you last allowed it; no rule or grant covers it until you allow it again:"))
		fmt.Fprintf(&b, "%s\n", t.paint(yellow, Indent(r.Change, "    ")))
	}
	for _, w := range r.Warnings {
		fmt.Fprintf(&b, "  %s\n", t.paint(yellow, "! "+w))
	}
	if claims := approval.Claims(r); claims != "" {
		fmt.Fprintf(&b, "  %s\n", clean.Line(claims))
	}
	for _, a := range r.Access {
		fmt.Fprintf(&b, "  %s\n", clean.Line(a))
	}
	if r.Command != "" {
		fmt.Fprintf(&b, "  command:\n%s\n", Indent(clean.Text(r.Command), "    $ "))
	} else {
		fmt.Fprintf(&b, "  arguments:\n%s\n", Indent(clean.Text(tools.PrettyJSON(r.Arguments)), "    "))
	}
	if r.OnceOnly {
		fmt.Fprintf(&b, "[y]es once / [N]o (each command is asked; %v left): ", time.Until(m.Deadline).Round(time.Second))
	} else {
		fmt.Fprintf(&b, "[y]es once / [s]ession / [a]lways / [N]o (%v left): ", time.Until(m.Deadline).Round(time.Second))
	}
	fmt.Fprint(t.info, b.String())
}
