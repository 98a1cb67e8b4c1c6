package conversation

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/asynkron/protoactor-go/actor"

	"deckhand/actors/servers"
	"deckhand/replay"
	"deckhand/toolcall"
	"deckhand/tools"
	"deckhand/transport/llm"
	"deckhand/transport/mcp"
)

// A reopened session's tasks: a call the server made a task of (tool.task
// in the log) whose result never reached the log, because Deckhand stopped
// first, is followed again on its server when the conversation has its
// catalog. Its end is told as a notice, and its result goes to the call's
// card and into the log as the call's result (which the model gets the next
// time it is asked); a task the server no longer knows is said to have
// expired (logged as the task's status, so that it is not asked after
// again). The run stays as it ended: the model is not asked again.

// PendingTask is a call of a reopened session whose task may still run on
// its server.
type PendingTask struct {
	Run, Call, Tool, Task string // Tool: alias.tool
}

// pendingTasks are the session's calls sent as tasks whose outcome never
// came back.
func pendingTasks(s replay.Session) []PendingTask {
	var out []PendingTask
	for _, r := range append(s.Runs, s.Other...) {
		for _, st := range r.Steps {
			if st.Answer == nil {
				continue
			}
			for _, c := range st.Answer.Calls {
				if c.Outcome == replay.Unknown && c.Task != "" && !c.Command() {
					out = append(out, PendingTask{Run: r.ID, Call: c.ID, Tool: c.Tool, Task: c.Task})
				}
			}
		}
	}
	return out
}

// taskFollowed is a pending task's end, back from its follower.
type taskFollowed struct {
	task PendingTask
	res  *servers.ToolResult
	err  error // it could not be followed (not the task's own failure)
}

// followTasks starts following the pending tasks whose servers the router
// knows (the others wait for a later catalog), each in a goroutine of its
// own, until the conversation stops.
func (a *conversationActor) followTasks(c actor.Context) {
	if len(a.tasks) == 0 || a.deps.router == nil {
		return
	}
	if a.stopTasks == nil {
		a.tasksCtx, a.stopTasks = context.WithCancel(context.Background())
	}
	ctx := a.tasksCtx
	root, self := c.ActorSystem().Root, c.Self()
	router := a.deps.router
	var later []PendingTask
	for _, t := range a.tasks {
		if alias, _, _ := strings.Cut(t.Tool, "."); !router.Has(alias) {
			later = append(later, t)
			continue
		}
		go func() {
			res, err := router.FollowTask(ctx, t.Call, t.Tool, t.Task)
			if ctx.Err() != nil {
				return
			}
			root.Send(self, &taskFollowed{task: t, res: res, err: err})
		}()
	}
	a.tasks = later
}

// taskEnded tells how a followed task ended.
func (a *conversationActor) taskEnded(c actor.Context, m *taskFollowed) {
	t := m.task
	what := fmt.Sprintf("The task of %s (%s)", t.Tool, t.Task)
	err := m.err
	if err == nil {
		err = m.res.Err
	}
	switch {
	case errors.Is(err, mcp.ErrTaskExpired):
		a.emit(c, &ToolCallProgress{Conversation: a.id, Run: t.Run, Call: t.Call, Tool: t.Tool,
			Progress: mcp.Progress{Message: "task expired", Task: t.Task, Status: replay.TaskExpired}})
		a.emit(c, &Notice{Conversation: a.id, Run: t.Run, Text: what + " expired: the server no longer knows it. What it did, if anything, is unknown."})
		return
	case m.err != nil || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled):
		// Not the task's end: the server did not come back, or the task
		// outran the call's timeout (and was cancelled, as any call's).
		a.emit(c, &Notice{Conversation: a.id, Run: t.Run, Text: fmt.Sprintf("%s could not be followed after Deckhand was closed: %v", what, err)})
		return
	}
	v := a.view.Load()
	output, isError, cut := toolcall.OutputCut(m.res.Result, m.res.Err, toolcall.Limit(v.cfg.MCP.MaxOutputBytes, v.cfg.Model.MaxContextTokens))
	cut = a.deps.keepWhole(a.id, t.Run, t.Call, m.res.Result, cut)
	fin := &ToolCallFinished{Conversation: a.id, Run: t.Run, Call: t.Call, Tool: t.Tool, Output: output, IsError: isError,
		Elapsed: m.res.Elapsed, ServerElapsed: m.res.Elapsed, Cut: cut}
	if m.res.Err == nil {
		fin.Media = a.deps.keepImages(a.id, tools.ResultMedia(m.res.Result).Map(a.deps.secrets.Get().String))
		fin.Structured = structuredOf(m.res.Result, a.deps.secrets.Get().String)
		fin.Meta = metaOf(m.res.Result, a.deps.secrets.Get().String)
	}
	a.emit(c, fin)
	a.emit(c, &Notice{Conversation: a.id, Run: t.Run, Text: what + " finished while Deckhand was closed: " + firstLine(output, 200)})
	if a.run == nil {
		// The model gets the result with its next question (a run in
		// progress owns the history; the log has it for the next reopening).
		for i := range a.history {
			if h := &a.history[i]; h.Role == llm.RoleTool && h.ToolCallID == t.Call && h.Content == replay.UnknownText {
				h.Content = output
			}
		}
	}
}

// firstLine is s's first line, cut to n runes.
func firstLine(s string, n int) string {
	for i, r := range s {
		if r == '\n' {
			s = s[:i]
			break
		}
	}
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}
