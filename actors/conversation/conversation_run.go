package conversation

import (
	"context"
	"fmt"
	"strings"

	"deckhand/store"

	"github.com/asynkron/protoactor-go/actor"

	"deckhand/approval"
	"deckhand/request"
	"deckhand/toolcall"
	"deckhand/tools"
	"deckhand/transport/llm"
)

// A run, from the person's message to the model's last answer: each request
// to the model, each answer taken, and how the run ends.

func (a *conversationActor) startRun(c actor.Context, text string, attached []Attachment) {
	a.startRunOf(c, text, attached, "")
}

// continueRun is Continue: a run that asks the model to go on with the last
// answer, which the person sees extended in place.
func (a *conversationActor) continueRun(c actor.Context) {
	if a.run != nil || len(a.queue) > 0 || len(a.marks) == 0 {
		a.emit(c, &Notice{Conversation: a.id, Text: "There is no stopped answer to continue."})
		return
	}
	a.startRunOf(c, ContinueText, nil, a.marks[len(a.marks)-1].Run)
}

// ContinueText is what the model is asked when the person presses
// Continue; the person does not see it.
const ContinueText = "Continue from where you stopped."

func (a *conversationActor) startRunOf(c actor.Context, text string, attached []Attachment, continues string) {
	a.runs++
	ctx, cancel := context.WithCancel(context.Background())
	a.run = &runState{id: store.NewID("run"), ctx: ctx, cancel: cancel, model: a.modelName()}
	parent := ""
	if n := len(a.marks); n > 0 {
		parent = a.marks[n-1].Run
	}
	a.versions().Add(a.run.id, parent)
	if continues != "" {
		if a.conts == nil {
			a.conts = map[string]bool{}
		}
		a.conts[a.run.id] = true
	}
	a.marks = append(a.marks, RunMark{Run: a.run.id, Text: text, At: len(a.history)})
	a.history = append(a.history, userMessage(text, attached))
	var infos []AttachmentInfo
	if len(attached) > 0 {
		if a.attached == nil {
			a.attached = map[string][]Attachment{}
		}
		a.attached[a.run.id] = attached
		for _, at := range attached {
			infos = append(infos, at.Info())
		}
	}
	a.emit(c, &RunStarted{Conversation: a.id, Run: a.run.id, Text: text, Model: a.run.model, Parent: parent, Continues: continues, Attachments: infos})
	a.request(c)
}

// userMessage is the person's message as the model gets it: the text, then
// each text attachment in a fence longer than any run of backticks in it
// (so that nothing in a file can close the fence early and pass for the
// person's words), named and sized; images are named in the text and
// follow as image parts.
func userMessage(text string, attached []Attachment) llm.Message {
	m := llm.Message{Role: llm.RoleUser, Content: text}
	if len(attached) == 0 {
		return m
	}
	var b strings.Builder
	b.WriteString(text)
	for _, at := range attached {
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		if at.Image() {
			fmt.Fprintf(&b, "[Attached image %q (%s, %s), below.]", at.Name, at.Type, tools.Size(len(at.Data)))
			m.Parts = append(m.Parts, llm.ImagePart(at.Type, at.Data))
			continue
		}
		content := string(at.Data)
		fence := tools.Fence(content, 3)
		if content != "" && !strings.HasSuffix(content, "\n") {
			content += "\n"
		}
		fmt.Fprintf(&b, "[Attached file %q (%s), between the fences of %d backticks:]\n%s\n%s%s", at.Name, tools.Size(len(at.Data)), len(fence), fence, content, fence)
	}
	m.Content = b.String()
	return m
}

// request sends the conversation so far to the model.
func (a *conversationActor) request(c actor.Context) {
	r := a.run
	cfg := a.deps.cfg
	if !cfg.Model.Configured() {
		a.finish(c, ErrNoModel, false)
		return
	}
	system := cfg.Model.WithSystemPrompt(request.System(a.policy().AllowExec, a.surface.Index))
	toolDefs := a.surface.Tools(a.loaded)
	toolTok := a.surface.Tokens + a.surface.LoadedTokens(a.loaded)
	budget := cfg.Model.MaxContextTokens - cfg.Model.MaxOutputTokens - request.EstimateTokens(system) - toolTok
	msgs, dropped := request.Fit(a.history, budget)
	if dropped > 0 {
		a.log.Debug("context trimmed", "dropped_messages", dropped, "budget", budget)
	}
	req := &llm.Request{
		Messages:    append([]llm.Message{{Role: llm.RoleSystem, Content: system}}, msgs...),
		Tools:       toolDefs,
		MaxTokens:   cfg.Model.MaxOutputTokens,
		Temperature: cfg.Model.Temperature,
	}
	a.requests++
	r.seq = a.requests
	r.requests++
	r.text.Reset()
	r.promptEstimate = request.EstimateTokens(system) + toolTok
	for _, m := range msgs {
		r.promptEstimate += request.MessageTokens(m)
	}
	a.emit(c, &PromptBuilt{Conversation: a.id, Run: r.id, Messages: len(req.Messages), Dropped: dropped, Tools: len(req.Tools), EstimatedTokens: r.promptEstimate})
	// The client (and so the API key, which may come from the keyring and
	// take seconds) is made on the stream's goroutine: Receive never waits
	// for it, and a Stop meanwhile is taken at once.
	seq, retries, client, model := r.seq, cfg.Model.Retries(), a.deps.client, r.model
	r.stream = c.Spawn(actor.PropsFromProducer(func() actor.Actor {
		return &streamActor{client: client, model: model, req: req, retries: retries, seq: seq}
	}))
}

// onTurn takes the model's answer: text only ends the run; tool calls and
// CMD: lines go through the gate, run, and lead to the next request.
func (a *conversationActor) onTurn(c actor.Context, turn llm.Turn, err error) {
	r := a.run
	var usage llm.Usage
	var estimated bool
	if err == nil || turn.Usage != nil || turn.Text != "" || len(turn.ToolCalls) > 0 {
		usage, estimated = request.Usage(turn, r.promptEstimate)
	}
	r.usage = r.usage.Plus(usage) // cache reads and writes too, for the cost
	r.estimated = r.estimated || estimated
	if err != nil {
		// Keep what arrived: the person saw it stream.
		if turn.Text != "" {
			a.history = append(a.history, llm.Message{Role: llm.RoleAssistant, Content: turn.Text})
			a.emit(c, &AssistantMessage{Conversation: a.id, Run: r.id, Text: turn.Text, Incomplete: true, Usage: usage, Estimated: estimated})
			r.lastText = turn.Text
		}
		a.finish(c, err, false)
		return
	}
	if turn.FinishReason == "length" {
		a.emit(c, &Notice{Conversation: a.id, Run: r.id, Text: "the model's answer was cut off at its output limit (model.max_output_tokens)"})
	}
	var commands []string
	if a.policy().AllowExec {
		commands = toolcall.Commands(turn.Text)
	}
	a.history = append(a.history, llm.Message{Role: llm.RoleAssistant, Content: turn.Text, ToolCalls: turn.ToolCalls})
	a.emit(c, &AssistantMessage{Conversation: a.id, Run: r.id, Text: turn.Text, ToolCalls: turn.ToolCalls, Usage: usage, Estimated: estimated})
	r.lastText = turn.Text
	if len(turn.ToolCalls) == 0 && len(commands) == 0 {
		a.finish(c, nil, false)
		return
	}
	var loaded []loadedTools
	r.calls, loaded = a.prepare(turn.ToolCalls, commands)
	for _, cs := range r.calls {
		a.emit(c, &ToolCallRequested{Conversation: a.id, Run: r.id, Call: cs.id, Tool: cs.req.Display, Arguments: cs.args})
		for _, d := range cs.decisions {
			a.emit(c, &CapabilityDecided{Conversation: a.id, Run: r.id, Call: cs.id, Tool: cs.req.Display, Decision: d})
		}
	}
	for _, l := range loaded {
		a.emit(c, &ToolsLoaded{Conversation: a.id, Run: r.id, Tools: l.tools, By: l.by})
	}
	if r.depth >= a.deps.cfg.MCP.MaxToolDepth {
		for _, cs := range r.calls {
			if !cs.done {
				cs.done, cs.isError = true, true
				cs.output = toolcall.DepthText
			}
			a.emit(c, &ToolCallFinished{Conversation: a.id, Run: r.id, Call: cs.id, Tool: cs.req.Display, Arguments: cs.args, Output: cs.output, IsError: true, Refused: true})
		}
		a.appendResults()
		a.emit(c, &Notice{Conversation: a.id, Run: r.id, Text: fmt.Sprintf("tool-call depth limit reached (%d rounds); the run stops here", r.depth)})
		a.finish(c, nil, false)
		return
	}
	r.depth++
	for _, cs := range r.calls {
		switch {
		case cs.done && cs.local: // tool_search: answered already
			a.emit(c, &ToolCallStarted{Conversation: a.id, Run: r.id, Call: cs.id, Tool: cs.req.Display, Arguments: cs.args})
			a.emit(c, &ToolCallFinished{Conversation: a.id, Run: r.id, Call: cs.id, Tool: cs.req.Display, Arguments: cs.args, Output: cs.output, IsError: cs.isError})
		case cs.done: // unknown tool, invalid arguments or the policy: the model hears why
			a.emit(c, &ToolCallFinished{Conversation: a.id, Run: r.id, Call: cs.id, Tool: cs.req.Display, Arguments: cs.args, Output: cs.output, IsError: true, Refused: true})
		}
	}
	a.process(c)
}

// stop cancels the run. Calls not yet answered get a "cancelled" result so
// that the history stays well formed for the next run.
func (a *conversationActor) stop(c actor.Context) {
	r := a.run
	if r == nil {
		return
	}
	r.cancel()
	if r.stream != nil {
		c.Stop(r.stream)
		r.stream = nil
		if text := r.text.String(); text != "" {
			a.history = append(a.history, llm.Message{Role: llm.RoleAssistant, Content: text})
			a.emit(c, &AssistantMessage{Conversation: a.id, Run: r.id, Text: text, Incomplete: true})
			r.lastText = text
		}
	}
	if cs := r.asking; cs != nil {
		cs.timer.Stop()
		r.asking = nil
		a.emit(c, &ApprovalClosed{Conversation: a.id, ID: cs.askID, Answer: approval.Deny, Reason: "the run was stopped"})
	}
	if len(r.calls) > 0 {
		for _, cs := range r.calls {
			if cs.done {
				continue
			}
			if cs.running && !cs.isCommand() {
				a.deps.router.Cancel(c.ActorSystem().Root, r.id+"/"+cs.id, cs.tool.Display)
			}
			a.finishCall(c, cs, toolcall.CancelledText, true, false)
		}
		a.appendResults()
	}
	a.finish(c, nil, true)
}

func (a *conversationActor) finish(c actor.Context, err error, stopped bool) {
	r := a.run
	r.cancel()
	a.run = nil
	a.emit(c, &RunFinished{Conversation: a.id, Run: r.id, Text: r.lastText, Err: err, Stopped: stopped, Usage: r.usage,
		Estimated: r.estimated, CostUSD: a.cost(r.model, r.usage), Requests: r.requests})
	a.startQueued(c)
}

// startQueued starts the next waiting message, if any.
func (a *conversationActor) startQueued(c actor.Context) {
	if a.run == nil && len(a.queue) > 0 {
		next := a.queue[0]
		a.queue = a.queue[1:]
		a.startRun(c, next.Text, next.Attachments)
	}
}
