package servers

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/redact"
	"deckhand/transport/mcp"
)

// serverLine is where a server's actor publishes its live connection, so
// that calls run on it without passing through the actor. One per server,
// for the life of its actor (restarts included).
type serverLine struct {
	v atomic.Pointer[liveConn]

	mu      sync.Mutex
	changed chan struct{} // closed and replaced at each publish
}

// publish makes l (nil: none) the server's connection, waking whoever waits
// in next.
func (s *serverLine) publish(l *liveConn) {
	if l != nil {
		l.line = s
	}
	s.v.Store(l)
	s.mu.Lock()
	if s.changed != nil {
		close(s.changed)
		s.changed = nil
	}
	s.mu.Unlock()
}

// next waits for a live connection other than old, until ctx ends.
func (s *serverLine) next(ctx context.Context, old *liveConn) (*liveConn, error) {
	for {
		s.mu.Lock()
		if l := s.v.Load(); l != nil && l != old {
			s.mu.Unlock()
			return l, nil
		}
		if s.changed == nil {
			s.changed = make(chan struct{})
		}
		ch := s.changed
		s.mu.Unlock()
		select {
		case <-ctx.Done():
			return nil, context.Cause(ctx)
		case <-ch:
		}
	}
}

// live is the server's connection, or nil while it has none.
func (s *serverLine) live() *liveConn {
	if s == nil {
		return nil
	}
	return s.v.Load()
}

// liveConn is one connection of a server, ready for calls, with the calls
// in flight on it. Its actor makes it when the server connects and ends it
// (fail) when the connection is dropped: every call in flight is answered
// at once with the reason, and a call that comes later finds it closed and
// goes to the actor instead. Safe for concurrent use.
type liveConn struct {
	conn    *mcp.Conn
	alias   string
	timeout time.Duration // a call's, unless it sets its own
	setting string        // the setting timeout comes from ("mcp.tool_timeout", …)
	secrets *redact.Set
	workers *workers
	line    *serverLine // where the server's next connection is published

	mu     sync.Mutex
	calls  map[*inflight]struct{}
	closed bool
}

// inflight is one call on a live connection.
type inflight struct {
	sender *actor.PID // nil for a blocking caller
	req    *CallTool
	cancel context.CancelCauseFunc
	done   chan struct{} // closed when the call has ended
	asked  int           // the server's questions during it (guarded by liveConn.mu)
	clock  *callClock    // its timeout, stopped while a question of its waits for the person
	task   string        // the task its server made of it, once known (guarded by liveConn.mu)
}

// errCancelled is the cause of calls cancelled with CancelCall.
var errCancelled = errors.New("cancelled")

// callsLost is the cause of calls ended because their connection was
// dropped (fail): a call that was following a task follows it again on the
// server's next connection.
type callsLost struct{ err error }

func (e *callsLost) Error() string { return e.err.Error() }
func (e *callsLost) Unwrap() error { return e.err }

// timeoutError is the cause of a call that ran out of time; formatted only
// when read.
type timeoutError struct {
	tool    string
	after   time.Duration
	held    time.Duration // the time its questions waited for the person, not counted
	setting string        // the setting that gives it more time ("" when none does)
}

func (e *timeoutError) Error() string {
	s := fmt.Sprintf("%s timed out after %v", e.tool, e.after)
	if e.held > 0 {
		held := e.held.Round(time.Second)
		if held == 0 {
			held = e.held.Round(time.Millisecond)
		}
		s += fmt.Sprintf(", not counting the %v it waited for your answer", held)
	}
	if e.setting != "" {
		s += " (" + e.setting + " gives a call more time)"
	}
	return s
}

// Is lets errors.Is(err, context.DeadlineExceeded) hold.
func (e *timeoutError) Is(target error) bool { return target == context.DeadlineExceeded }

// begin registers a call, or reports false when the connection is closed.
func (l *liveConn) begin(ctx context.Context, sender *actor.PID, req *CallTool, display string) (context.Context, *inflight, context.CancelFunc, bool) {
	timeout, setting := req.Timeout, req.setting
	if timeout <= 0 {
		timeout, setting = l.timeout, l.setting
	}
	ctx, cancel := context.WithCancelCause(ctx)
	// The call's clock, which its questions to the person stop (hold).
	clock := startClock(timeout, func(held time.Duration) {
		cancel(&timeoutError{tool: display, after: timeout, held: held, setting: setting})
	})
	call := &inflight{sender: sender, req: req, cancel: cancel, clock: clock, done: make(chan struct{})}
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		clock.stop()
		cancel(nil)
		return nil, nil, nil, false
	}
	l.calls[call] = struct{}{}
	l.mu.Unlock()
	return ctx, call, clock.stop, true
}

// run makes the call and forgets it. parent is the caller's context (ctx
// is begin's, which the connection's end cancels).
func (l *liveConn) run(parent, ctx context.Context, call *inflight, cancelTimeout context.CancelFunc, tool, display string, progress func(mcp.Progress)) *ToolResult {
	start := time.Now()
	args := any(call.req.Args)
	if len(call.req.Args) == 0 {
		args = map[string]any{}
	}
	// A call the server makes a task of is followed to its end here, so
	// that the caller sees one long call: its status as progress, its
	// result as the call's (transport/mcp's AwaitTask).
	var task *mcp.Task
	var res *sdk.CallToolResult
	var err error
	if call.req.NoWait {
		res, task, err = l.conn.StartTool(ctx, tool, args, progress)
	} else {
		res, err = l.conn.CallTask(ctx, tool, args, progress, func(t *mcp.Task) {
			task = t
			l.taskOf(call, t.ID)
		})
	}
	deadline := time.Now().Add(call.clock.remaining())
	// The connection's end may reach the call first (the conn's own life)
	// or through fail (callsLost); the call's own end (Stop, its timeout)
	// is not a reason to follow the task again.
	var lost *callsLost
	var late *timeoutError
	cause := context.Cause(ctx)
	gone := l.conn.Err() != nil || errors.As(cause, &lost)
	own := errors.Is(cause, errCancelled) || errors.As(cause, &late)
	resume := !call.req.NoWait && task != nil && err != nil && gone && !own && parent.Err() == nil
	out := l.end(ctx, call, cancelTimeout, res, err, display, start)
	if resume {
		// The task lives on the server, not on the connection: follow it
		// again once the server is back, within the call's time.
		if r := l.resume(parent, call.req, tool, display, task.ID, deadline, progress); r != nil {
			r.Elapsed = time.Since(start)
			return r
		}
	}
	if call.req.NoWait {
		out.Task = task
	}
	return out
}

// end forgets a call and says its result.
func (l *liveConn) end(ctx context.Context, call *inflight, cancelTimeout context.CancelFunc, res *sdk.CallToolResult, err error, display string, start time.Time) *ToolResult {
	secrets := l.secrets.Get()
	res, err = redactResult(secrets, res), secrets.Error(err)
	switch {
	case err == nil:
	case ctx.Err() != nil && context.Cause(ctx) != context.Canceled:
		err = context.Cause(ctx) // the timeout, the cancellation or the connection's end, said plainly
	case l.conn.Err() != nil:
		err = fmt.Errorf("server %s disconnected: %w", l.alias, l.conn.Err())
	}
	cancelTimeout()
	call.cancel(nil)
	l.mu.Lock()
	delete(l.calls, call)
	l.mu.Unlock()
	close(call.done)
	return &ToolResult{ID: call.req.ID, Tool: display, Result: res, Err: err, Elapsed: time.Since(start)}
}

// redactResult removes every secret from a result as it leaves its server,
// whoever reads it next (the model, the window, `mcp call`, the log): a
// server that echoes a token it was given hands it to no one. Text,
// structured content, resource links and embedded resources alike; the
// result is returned as it is when it holds none.
func redactResult(s redact.Secrets, res *sdk.CallToolResult) *sdk.CallToolResult {
	if s.Empty() || res == nil {
		return res
	}
	data, err := json.Marshal(res)
	if err != nil {
		return res
	}
	cleaned := s.Bytes(data)
	if bytes.Equal(cleaned, data) {
		return res
	}
	var out sdk.CallToolResult
	if err := json.Unmarshal(cleaned, &out); err != nil {
		return &sdk.CallToolResult{IsError: res.IsError, Content: []sdk.Content{&sdk.TextContent{Text: redact.Mark}}}
	}
	return &out
}

// resume follows task id on the server's next connection, until deadline;
// nil when the server did not come back in time.
func (l *liveConn) resume(parent context.Context, req *CallTool, tool, display, id string, deadline time.Time, progress func(mcp.Progress)) *ToolResult {
	if l.line == nil {
		return nil
	}
	wctx, cancel := context.WithDeadline(parent, deadline)
	next, err := l.line.next(wctx, l)
	cancel()
	if err != nil {
		return nil
	}
	again := *req
	again.Timeout = time.Until(deadline)
	if again.setting == "" {
		again.setting = l.setting // the time left is the original's
	}
	if again.Timeout <= 0 {
		return nil
	}
	ctx, call, cancelTimeout, ok := next.begin(parent, nil, &again, display)
	if !ok {
		return nil
	}
	next.taskOf(call, id)
	if progress != nil {
		progress(mcp.Progress{Message: "the server is back: following task " + id + " again"})
	}
	res, err := next.conn.AwaitTask(ctx, &mcp.Task{ID: id}, progress)
	out := next.end(ctx, call, cancelTimeout, res, err, display, time.Now())
	out.ID = req.ID
	return out
}

// call makes a call on the calling goroutine (the blocking helpers). ok is
// false when the connection closed before the call began.
func (l *liveConn) call(parent context.Context, req *CallTool, tool string, progress func(mcp.Progress)) (res *ToolResult, ok bool) {
	display := l.alias + "." + tool
	ctx, call, cancelTimeout, ok := l.begin(parent, nil, req, display)
	if !ok {
		return nil, false
	}
	return l.run(parent, ctx, call, cancelTimeout, tool, display, l.redacted(progress)), true
}

// start makes a call in a worker goroutine; its result goes to sender. It
// reports false, doing nothing, when the connection is closed.
func (l *liveConn) start(parent context.Context, root *actor.RootContext, sender *actor.PID, req *CallTool, tool string) bool {
	display := l.alias + "." + tool
	ctx, call, cancelTimeout, ok := l.begin(parent, sender, req, display)
	if !ok {
		return false
	}
	var progress func(mcp.Progress)
	if to := req.ProgressTo; to != nil {
		id := req.ID
		progress = l.redacted(func(p mcp.Progress) { root.Send(to, &ToolProgress{ID: id, Tool: display, Progress: p}) })
	}
	l.workers.run(func() {
		root.Send(sender, l.run(parent, ctx, call, cancelTimeout, tool, display, progress))
	})
	return true
}

// redacted removes the secrets from progress messages on their way to f.
func (l *liveConn) redacted(f func(mcp.Progress)) func(mcp.Progress) {
	if f == nil {
		return nil
	}
	return func(p mcp.Progress) {
		p.Message = l.secrets.Get().String(p.Message)
		f(p)
	}
}

// cancel cancels the calls with id.
func (l *liveConn) cancel(id string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for call := range l.calls {
		if call.req.ID == id {
			call.cancel(errCancelled)
		}
	}
}

// fail closes the connection to new calls and ends every call in flight
// with err, at once.
func (l *liveConn) fail(err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closed = true
	for call := range l.calls {
		call.cancel(&callsLost{err})
	}
}

// ErrNoCall, ErrTooManyQuestions: why a server's question was declined
// before anyone saw it.
var (
	ErrNoCall           = errors.New("the server asked outside any tool call (none is in flight, or its call has ended)")
	ErrTooManyQuestions = fmt.Errorf("the server asked more than %d questions during one tool call", MaxQuestionsPerCall)
)

// MaxQuestionsPerCall is how many questions (elicitations) a server may
// ask during one tool call; the next are declined unseen.
const MaxQuestionsPerCall = 3

// taskOf notes the task the server made of call.
func (l *liveConn) taskOf(call *inflight, id string) {
	l.mu.Lock()
	call.task = id
	l.mu.Unlock()
}

// question counts a server's question against the calls in flight: the
// one call it came during (the only one, or the one whose task the
// question names, related), or, when several are in flight and nothing
// says which, every one of them. It returns the call when there is
// exactly one, and a channel closed once every call it counted against has
// ended; an error when no call is in flight or one of them has had its
// questions.
func (l *liveConn) question(related string) (only *inflight, done <-chan struct{}, err error) {
	if l == nil {
		return nil, nil, ErrNoCall
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.calls) == 0 {
		return nil, nil, ErrNoCall
	}
	if related != "" {
		for call := range l.calls {
			if call.task != related {
				continue
			}
			if call.asked >= MaxQuestionsPerCall {
				return nil, nil, ErrTooManyQuestions
			}
			call.asked++
			return call, call.done, nil
		}
	}
	var chans []chan struct{}
	for call := range l.calls {
		if call.asked >= MaxQuestionsPerCall {
			return nil, nil, ErrTooManyQuestions
		}
	}
	for call := range l.calls {
		call.asked++
		chans = append(chans, call.done)
		only = call
	}
	if len(chans) == 1 {
		return only, chans[0], nil
	}
	all := make(chan struct{})
	go func() {
		for _, ch := range chans {
			<-ch
		}
		close(all)
	}()
	return nil, all, nil
}
