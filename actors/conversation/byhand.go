package conversation

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/asynkron/protoactor-go/actor"

	"deckhand/transport/llm"
)

// A tool run by hand: the person fills in a tool's input form (the servers
// panel's Run) and the call goes through this conversation's gate like the
// model's calls (the same checks of arguments and paths, pins, grants,
// rules and the person's approval), logged with its origin. No model is
// asked: the run is the one call, and the history holds it as the person's
// message, the call and its result, so that a message after it can ask the
// model about the result.

// ToolRun is a call the person makes themselves (UserMessage.Tool).
type ToolRun struct {
	Tool      string          // alias.tool
	Arguments json.RawMessage // as the form made them; checked against the schema again
}

// ByHandOrigin is the origin logged with a call run by hand.
const ByHandOrigin = "run by you from the servers panel"

// byHandAsker is who the approval says makes the call ("called from …").
const byHandAsker = "the servers panel, by you"

// byHandCall is the id of the one call of a run by hand.
const byHandCall = "hand-1"

// byHandText is the person's message of a run by hand, as the transcript
// and the model see it.
func byHandText(tool string) string {
	return fmt.Sprintf("I ran %s myself, from the servers panel.", tool)
}

// startToolRun starts a run by hand.
func (a *conversationActor) startToolRun(c actor.Context, m *UserMessage) {
	a.startRunOf(c, byHandText(m.Tool.Tool), nil, "", m.Tool)
}

// handSteps is a run by hand's one call: checked, put through the gate,
// run and answered as a model's call is (check, decide, dispatch).
func (r *run) handSteps(ctx context.Context) (err error, stopped bool) {
	v := r.view.Load()
	args := string(r.hand.Arguments)
	if args == "" {
		args = "{}"
	}
	tc := llm.ToolCall{ID: byHandCall, Name: r.hand.Tool, Arguments: args}
	if t, ok := v.catalog.Lookup(r.hand.Tool); ok {
		tc.Name = t.Wire // the history holds the name the model knows
	}
	r.history = append(r.history, llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{tc}})
	r.emit(&AssistantMessage{Conversation: r.conv, Run: r.id, ToolCalls: []llm.ToolCall{tc}})
	r.calls, _ = r.check(v, []llm.ToolCall{tc}, nil)
	for _, cs := range r.calls {
		cs.req.Origin = byHandAsker // the approval says the model did not make it
		r.emit(&ToolCallRequested{Conversation: r.conv, Run: r.id, Call: cs.id, Tool: cs.req.Display, Arguments: cs.args, Origin: ByHandOrigin})
		for _, d := range cs.decisions {
			r.emit(&CapabilityDecided{Conversation: r.conv, Run: r.id, Call: cs.id, Tool: cs.req.Display, Decision: d})
		}
		if cs.step == stepRefused {
			r.emit(&ToolCallFinished{Conversation: r.conv, Run: r.id, Call: cs.id, Tool: cs.req.Display, Arguments: cs.args,
				Output: cs.output, IsError: true, Refused: true, Origin: ByHandOrigin})
		}
	}
	for seg := nextSegment(r.calls); seg != nil; seg = nextSegment(r.calls) {
		if !r.decide(ctx, seg) || !r.dispatch(ctx, seg) {
			r.cancelCalls()
			return stopCause(ctx)
		}
	}
	r.appendResults()
	return nil, false
}
