package actors

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/transport/mcp"
)

type inflight struct {
	sender   *actor.PID
	req      *CallTool
	display  string
	cancel   context.CancelCauseFunc
	start    time.Time
	answered atomic.Bool // the call's goroutine and failCalls race to answer; the first wins
}

// answer sends the call's result to its sender, once.
func (f *inflight) answer(root *actor.RootContext, res *sdk.CallToolResult, err error) {
	if f.answered.CompareAndSwap(false, true) {
		root.Send(f.sender, &ToolResult{ID: f.req.ID, Tool: f.display, Result: res, Err: err, Elapsed: time.Since(f.start)})
	}
}

// errCancelled is the cause of calls cancelled with CancelCall.
var errCancelled = errors.New("cancelled")

// timeoutError is the cause of a call that ran out of time; formatted only
// when read.
type timeoutError struct {
	tool  string
	after time.Duration
}

func (e *timeoutError) Error() string { return fmt.Sprintf("%s timed out after %v", e.tool, e.after) }

// Is lets errors.Is(err, context.DeadlineExceeded) hold.
func (e *timeoutError) Is(target error) bool { return target == context.DeadlineExceeded }

func (a *serverActor) startCall(c actor.Context, sender *actor.PID, m *serverCall) {
	display := a.alias + "." + m.tool
	if a.conn == nil {
		c.Send(sender, &ToolResult{ID: m.req.ID, Tool: display, Err: a.unavailable()})
		return
	}
	a.seq++
	seq := a.seq
	timeout := m.req.Timeout
	if timeout <= 0 {
		timeout = a.deps.mcp.CallTimeout(a.srv)
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	ctx, cancelTimeout := context.WithTimeoutCause(ctx, timeout, &timeoutError{tool: display, after: timeout})
	call := &inflight{sender: sender, req: m.req, display: display, cancel: cancel, start: time.Now()}
	a.calls[seq] = call

	var progress func(mcp.Progress)
	if to := m.req.ProgressTo; to != nil {
		root, id := c.ActorSystem().Root, m.req.ID
		secrets := a.deps.secrets
		progress = func(p mcp.Progress) {
			p.Message = secrets.get().String(p.Message)
			root.Send(to, &ToolProgress{ID: id, Tool: display, Progress: p})
		}
	}
	args := any(m.req.Args)
	if len(m.req.Args) == 0 {
		args = map[string]any{}
	}
	conn, alias, self, root, secrets := a.conn.conn, a.alias, c.Self(), c.ActorSystem().Root, a.deps.secrets
	a.deps.workers.run(func() {
		defer cancelTimeout()
		res, err := conn.CallTool(ctx, m.tool, args, progress)
		res, err = redactResult(secrets.get(), res), secrets.get().Error(err)
		switch {
		case err == nil:
		case conn.Err() != nil:
			err = fmt.Errorf("server %s disconnected: %w", alias, conn.Err())
		case ctx.Err() != nil:
			err = context.Cause(ctx) // the timeout or the cancellation, said plainly
		}
		// Answer from here, not through the mailbox: one hop less on every
		// call. The actor only forgets the call; telling it first leaves the
		// caller, woken last, next in line to run.
		root.Send(self, &callDone{seq: seq})
		call.answer(root, res, err)
	})
}

func (a *serverActor) finishCall(m *callDone) {
	if call, ok := a.calls[m.seq]; ok {
		delete(a.calls, m.seq)
		call.cancel(nil)
	}
}

// failCalls answers every call in flight with err, at once.
func (a *serverActor) failCalls(c actor.Context, err error) {
	root := c.ActorSystem().Root
	for seq, call := range a.calls {
		call.cancel(err)
		call.answer(root, nil, err)
		delete(a.calls, seq)
	}
}

// unavailable explains why a call cannot be made now.
func (a *serverActor) unavailable() error {
	msg := fmt.Sprintf("server %s is %s", a.alias, a.status.State)
	if a.status.State == StateNeedsSignIn {
		msg = fmt.Sprintf("server %s needs you to sign in (Servers, Sign in; or deckhand mcp login %s)", a.alias, a.alias)
	}
	if a.status.Reason != "" {
		msg += ": " + a.status.Reason
	}
	if !a.status.NextRetry.IsZero() {
		msg += fmt.Sprintf(" (next attempt in %v)", time.Until(a.status.NextRetry).Round(100*time.Millisecond))
	}
	return errors.New(msg)
}
