package transcript

import (
	"strings"

	"deckhand/approval"
	"deckhand/replay"
	"deckhand/toolcall"
)

// Calls that never ran: denied, not answered in time, stopped while (or
// before) their approval was asked, refused before the gate. Their card
// says why in words; a duration ("failed after <1 ms") would say the
// call ran and failed.

// ToolAsked notes that the person is asked to approve call: if the call
// then ends without running, its card says it was stopped (or timed out)
// while waiting for the answer.
func (t *Transcript) ToolAsked(call string) {
	if _, ok := t.calls[call]; !ok {
		return // not a card of this transcript's (a view's call)
	}
	if t.questions == nil {
		t.questions = map[string]string{}
	}
	if _, ok := t.questions[call]; !ok {
		t.questions[call] = ""
	}
}

// ToolQuestionClosed notes that the approval asked about call ended
// without a person's answer, and why (approval.ApprovalClosed's reason:
// "no answer within 2m0s", "the run was stopped"). A person's answer
// (approval.Answered, "") leaves nothing to note.
func (t *Transcript) ToolQuestionClosed(call string, reason approval.Reason) {
	if reason.IsAnswered() {
		return
	}
	t.ToolAsked(call)
	if _, ok := t.questions[call]; ok {
		t.questions[call] = string(reason)
	}
}

// NotRunWhy is why a call that ended before it started never ran, in
// words for its card after "not run: ": from how it ended (output is what
// the model was told), whether an approval was asked about it, and why
// that question closed unanswered ("" when it was answered, or when
// nothing is known of it, as in a transcript read from the log).
func NotRunWhy(output string, isError, denied, asked bool, closed string) string {
	reason := approval.Reason(closed)
	switch {
	case reason.IsTimedOut():
		return "no answer came in time (" + closed + ")"
	case closed == "the run was stopped":
		return "the run was stopped before it was approved"
	case closed != "":
		return closed + " before it was approved"
	case denied && strings.HasPrefix(output, deniedBecause):
		// Read back from the log: "Denied (no answer within 2m0s); …".
		why, _, _ := strings.Cut(strings.TrimPrefix(output, deniedBecause), ")")
		if approval.Reason(why).IsTimedOut() {
			return "no answer came in time (" + why + ")"
		}
		return "denied (" + why + ")"
	case denied:
		return "denied"
	case strings.HasPrefix(output, PolicyRefused):
		return "refused by policy"
	case output == toolcall.CancelledText && asked:
		return "the run was stopped before it was approved"
	case output == toolcall.CancelledText:
		return "the run was stopped before it started"
	case output == replay.NeverStartedText:
		return "Deckhand stopped before it was made"
	case output == toolcall.DepthText:
		return "the run reached its tool-call depth limit"
	case isError && withheld(output) != "":
		return "Deckhand refused it: " + withheld(output)
	case isError:
		return "Deckhand refused it" + SeeBelow
	}
	return "answered by Deckhand"
}

// withheld is why Deckhand keeps from the model the tool a call refused
// for it named (quarantined, unchecked, ...), in the person's words; ""
// when output is no such refusal.
func withheld(output string) string {
	if w, ok := toolcall.WithheldIn(output); ok {
		return w.Why()
	}
	return ""
}

// SeeBelow ends a NotRun whose why is the call's output, which its card
// shows below; a view with no room for the output below (the quick
// prompt's one line) puts it in place of this.
const SeeBelow = " (see why below)"

// deniedBecause begins toolcall.DeniedBecause's text.
var deniedBecause, _, _ = strings.Cut(toolcall.DeniedBecause("|"), "|")
