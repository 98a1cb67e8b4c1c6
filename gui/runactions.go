package gui

import (
	"fmt"

	"deckhand/conversation"

	"fyne.io/fyne/v2/dialog"
	"github.com/asynkron/protoactor-go/actor"
)

// Message controls: what a person can do with a finished run (the person's
// message and all that followed it). Retry sends the message again in the
// run's place; Edit takes the run out and puts the message back in the
// message box; Delete takes it out; Continue asks the model to go on after
// Stop. The conversation does the taking out (conversation.RemoveRun), and
// refuses while an answer is being written; the transcript follows its
// RunRemoved.

// Run actions.
const (
	runRetry    = "retry"
	runRemove   = "remove" // Delete, and the first half of Edit
	runContinue = "continue"
)

// uiRunAction asks the bridge to act on a run of the current conversation
// (run "" is the last).
type uiRunAction struct {
	action string
	run    string
}

// continueText is what Continue sends.
const continueText = "Continue from where you stopped."

func (b *bridge) runAction(c actor.Context, m *uiRunAction) {
	cs := b.convs[b.current]
	if cs == nil || cs.pid == nil {
		return
	}
	switch m.action {
	case runRetry:
		c.Send(cs.pid, &conversation.RemoveRun{Run: m.run, Resend: true})
	case runRemove:
		c.Send(cs.pid, &conversation.RemoveRun{Run: m.run})
	case runContinue:
		b.send(c, cs.id, continueText)
	}
}

// runRemoved takes a removed run out of the transcript.
func (b *bridge) runRemoved(cs *convState, m *conversation.RunRemoved) {
	if cs.tr.RemoveRun(m.Run) && cs.id == b.current {
		b.reset = true
	}
}

// runEdit is Edit: the UI puts the message back in the box, then removes
// the run.
const runEdit = "edit"

// runAction is a message control pressed in the transcript. Delete asks
// first; Edit puts the message back in the message box.
func (u *UI) runAction(action, run, text string) {
	switch action {
	case runEdit:
		edit := func() {
			u.input.setTextAtEnd(text)
			u.input.focus(u.win)
			u.tell(&uiRunAction{action: runRemove, run: run})
		}
		if u.input.blank() || u.input.Text == text {
			edit()
			return
		}
		// A draft not sent yet is not thrown away unasked.
		back := u.keepFocus()
		d := dialog.NewConfirm("Replace your draft?",
			"The message box holds a message not sent yet. Put the message to edit in its place? The draft is lost.",
			func(ok bool) {
				if ok {
					edit()
					return
				}
				back()
			}, u.win)
		d.SetConfirmText("Replace")
		d.SetDismissText("Keep the draft")
		d.Show()
	case runRemove:
		back := u.keepFocus()
		confirmDanger("Delete this message?",
			fmt.Sprintf("%q and the answer to it leave this conversation: the model no longer sees them. The log keeps them, marked deleted.", shorten(text, 80)),
			"Delete", func(ok bool) {
				back()
				if ok {
					u.tell(&uiRunAction{action: runRemove, run: run})
				}
			}, u.win)
	default:
		u.chat.follow = true
		u.tell(&uiRunAction{action: action, run: run})
	}
}
