package conversation

import (
	"context"
	"fmt"
	"strings"

	"deckhand/request"
)

// A long conversation, on the run's goroutine: when the history no longer
// fits the context budget (run.fits) its oldest turns are summarised in one
// model request (compact), the summary standing in for them from then on in
// the model's view (run.modelView). The history itself keeps every message:
// the person's transcript, versions and the log are untouched; only the
// model's view is compacted.

// CompactedNotice is what the person is told when a conversation was
// compacted.
func CompactedNotice(turns int) string {
	unit := "turns"
	if turns == 1 {
		unit = "turn"
	}
	return fmt.Sprintf("Earlier messages were summarised to fit the model's context (%d %s).", turns, unit)
}

// compact summarises the oldest turns of the model's view when it no
// longer fits the budget (request.PlanCompaction), and resets the loaded
// tools. A summarisation that fails or is refused leaves the view as it
// was (the request drops the oldest messages, as Fit does), with a notice.
// Its usage counts in the run's.
func (r *run) compact(ctx context.Context, v *view) {
	if r.uncompactable {
		return
	}
	_, _, budget := r.budget(v)
	view, at := r.modelView()
	kept := view
	prior, priorTokens := "", 0
	if at > 0 { // the summary, first
		kept = view[1:]
		prior, priorTokens = r.summary.Text, request.MessageTokens(view[0])
	}
	var turns []int
	for _, m := range r.marks {
		if m.At >= at && m.At-at < len(kept) && (len(turns) == 0 || m.At-at > turns[len(turns)-1]) {
			turns = append(turns, m.At-at)
		}
	}
	if len(turns) > 0 && turns[0] != 0 {
		turns = append([]int{0}, turns...)
	}
	plan, ok := request.PlanCompaction(kept, turns, priorTokens, budget)
	if !ok {
		return
	}
	from := ""
	for _, m := range r.marks {
		if m.At == at+plan.At {
			from = m.Run
			break
		}
	}
	maxOut := request.SummaryTokens(budget)
	req := request.SummaryRequest(prior, kept[:plan.At], budget, maxOut)
	req.Temperature = v.cfg.Model.Temperature
	r.requests++
	turn, err := r.stream(ctx, v, req, func(m any) {
		switch m := m.(type) {
		case *streamRetrying:
			r.emit(&Notice{Conversation: r.conv, Run: r.id, Text: retryNotice(m), Retry: true, Try: m.Next})
		case *streamTrying:
			r.emit(triedNotice(r.conv, r.id, m))
		case *keyAsked:
			r.emit(&Notice{Conversation: r.conv, Run: r.id, Text: keyNotice(m)})
		}
	})
	if ctx.Err() != nil {
		return
	}
	if err == nil || turn.Usage != nil || turn.Text != "" {
		usage, estimated := request.Usage(turn, request.EstimateTokens(req.Messages[0].Content+req.Messages[1].Content))
		r.usage = r.usage.Plus(usage)
		r.estimated = r.estimated || estimated
	}
	// What the model wrote comes back to it in every request from now on:
	// the secrets known are taken out, as from a tool's result.
	text := strings.TrimSpace(r.deps.secrets.Get().String(turn.Text))
	switch {
	case err != nil:
	case text == "" || turn.FinishReason == "content_filter":
		err = fmt.Errorf("the model returned no summary")
	case from == "":
		err = fmt.Errorf("no run begins at message %d", at+plan.At) // a broken invariant; drop as before
	}
	if err != nil {
		r.uncompactable = true
		r.log.Warn("summarising the earlier conversation failed", "err", err)
		r.emit(&Notice{Conversation: r.conv, Run: r.id, Text: "The earlier conversation could not be summarised (" + err.Error() +
			"); its oldest messages are left out of what the model sees."})
		return
	}
	r.summary = &request.Summary{Text: text, From: from}
	after, _ := r.modelView()
	tokens := 0
	for _, m := range after {
		tokens += request.MessageTokens(m)
	}
	r.emit(&ContextCompacted{Conversation: r.conv, Run: r.id, Turns: plan.Turns, Before: plan.Before, After: tokens, Summary: text, From: from})
	if gone := r.loaded.Reset(); len(gone) > 0 {
		r.emit(&ToolsUnloaded{Conversation: r.conv, Run: r.id, Tools: gone, Why: "the conversation was compacted"})
	}
	r.emit(&Notice{Conversation: r.conv, Run: r.id, Text: CompactedNotice(plan.Turns)})
}
