package actors

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/config"
	"deckhand/tools"
	"deckhand/transport/mcp"
)

// State is where a server's connection stands.
type State string

const (
	StateConnecting   State = "connecting"   // the first attempt is under way
	StateReady        State = "ready"        // connected; tools are callable
	StateFailed       State = "failed"       // never connected; retrying with backoff
	StateReconnecting State = "reconnecting" // the connection died; retrying with backoff
	StateStopped      State = "stopped"      // disabled, or disconnected on request
	StateIdle         State = "idle"         // connects on demand: not yet; its tools are those of its last connection
)

// ServerStatus is a snapshot of one server, sent to the servers supervisor
// on every change and passed on to watchers.
type ServerStatus struct {
	Alias           string
	State           State
	Reason          string      // why failed, reconnecting or stopped
	Failure         mcp.Failure // the kind of failure behind Reason, for advice
	Transport       string      // once connected: stdio, streamable, sse or json; before: as configured
	Endpoint        string      // URL or command line, without secrets
	ProtocolVersion string
	ServerName      string
	ServerVersion   string
	Tools           int
	Since           time.Time // when State last changed
	NextRetry       time.Time // zero unless a retry is scheduled
	Attempts        int       // failed attempts since the last success
}

// Settled reports whether the first connection attempt has an outcome.
func (s ServerStatus) Settled() bool { return s.State != StateConnecting }

// CallTool asks for one tool call. Send it to the registry with a display
// name (alias.tool) or wire name; the answer, a *ToolResult, goes to the
// sender.
type CallTool struct {
	ID   string // the caller's id for this call, echoed in the answer
	Tool string // alias.tool or the wire name
	// Resolved, if set, is the definition the caller checked the call
	// against and showed: the call goes to exactly that server and tool,
	// and is refused (toolcall.ErrChanged) if the server has redefined the
	// tool since. Without it, Tool is looked up in the current catalog.
	Resolved   *tools.Tool
	Args       json.RawMessage // a JSON object; nil means {}
	Timeout    time.Duration   // 0: the server's configured timeout
	ProgressTo *actor.PID      // if set, receives *ToolProgress
}

// ToolResult answers CallTool. Err is a failure to get a result at all (the
// server is down, the call timed out, the tool does not exist); a tool that
// ran and failed is a Result with IsError.
type ToolResult struct {
	ID      string
	Tool    string // alias.tool
	Result  *sdk.CallToolResult
	Err     error
	Elapsed time.Duration
}

// ToolProgress is a progress notification for a call in flight.
type ToolProgress struct {
	ID       string
	Tool     string
	Progress mcp.Progress
}

// CancelCall cancels a call in flight; its ToolResult says it was cancelled.
type CancelCall struct {
	ID   string
	Tool string // alias.tool, for routing
}

// ReconnectServer drops a server's connection (if any) and connects again
// at once.
type ReconnectServer struct{ Alias string }

// serverCall is CallTool routed to a server, with the server's own tool name.
type serverCall struct {
	req  *CallTool
	tool string // the server's name for it
}

// Internal continuations, tagged with the connection generation they belong to.
type (
	dialed struct {
		gen   int
		conn  *tracked
		tools []*sdk.Tool
		err   error
	}
	connLost struct {
		gen int
		err error
	}
	retryDial    struct{ gen int }
	toolsChanged struct{ gen int }
	toolsListed  struct {
		gen   int
		tools []*sdk.Tool
		err   error
	}
	callDone struct{ seq uint64 }
)

// serverDeps is what a server actor needs from the system.
type serverDeps struct {
	mcp      config.MCP
	registry *actor.PID
	log      *slog.Logger
	conns    *sync.WaitGroup // connections and connection attempts not yet finished
	workers  *workers
	dial     func(ctx context.Context, alias string, srv config.Server, onToolsChanged func()) (*mcp.Conn, error)
	// cached are the tools of each server's last connection (from the log),
	// offered by servers that connect on demand until they do.
	cached map[string][]*sdk.Tool
	// saveTools keeps a server's tools for the next start; nil without a
	// log.
	saveTools func(alias string, tools []*sdk.Tool)
}

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

// serverActor owns the connection to one server.
type serverActor struct {
	alias string
	srv   config.Server
	deps  serverDeps
	log   *slog.Logger

	// life ends when the actor stops; every connection is closed then.
	life    context.Context
	endLife context.CancelFunc

	status     ServerStatus
	conn       *tracked
	gen        int
	cancelDial context.CancelFunc
	retry      *time.Timer
	calls      map[uint64]*inflight
	seq        uint64
	// waiting are calls that came while an on-demand server was idle or
	// making its first connection; they go ahead once it is ready.
	waiting []waitingCall
}

type waitingCall struct {
	sender *actor.PID
	call   *serverCall
}

func newServer(alias string, srv config.Server, deps serverDeps) *serverActor {
	return &serverActor{
		alias: alias,
		srv:   srv,
		deps:  deps,
		log:   deps.log.With("actor", "server", "server", alias),
		calls: map[uint64]*inflight{},
		status: ServerStatus{
			Alias:     alias,
			State:     StateConnecting,
			Transport: srv.EffectiveTransport(),
			Endpoint:  srv.Endpoint(),
		},
	}
}

func (a *serverActor) Receive(c actor.Context) {
	switch m := c.Message().(type) {
	case *actor.Started:
		a.life, a.endLife = context.WithCancel(context.Background())
		if tools := a.deps.cached[a.alias]; a.srv.Connect == config.ConnectOnDemand && len(tools) > 0 {
			// Startup waits for nothing: the tools of the last connection
			// stand in until the first call.
			// (The servers supervisor gives the registry the same tools.)
			a.status.Tools = len(tools)
			a.setState(c, StateIdle, "connects at its first call")
			return
		}
		a.setState(c, StateConnecting, "")
		a.dial(c)
	case *dialed:
		a.onDialed(c, m)
	case *connLost:
		if m.gen == a.gen && a.conn != nil {
			a.onLost(c, m.err)
		}
	case *retryDial:
		if m.gen == a.gen && a.conn == nil {
			a.dial(c)
		}
	case *ReconnectServer:
		a.failCalls(c, fmt.Errorf("server %s is reconnecting on request", a.alias))
		a.drop()
		a.status.Attempts = 0
		a.setState(c, StateReconnecting, "reconnecting on request")
		a.dial(c)
	case *serverCall:
		switch {
		case a.status.State == StateIdle:
			a.waiting = append(a.waiting, waitingCall{c.Sender(), m})
			a.setState(c, StateConnecting, "connecting for its first call")
			a.dial(c)
		case a.conn == nil && len(a.waiting) > 0:
			a.waiting = append(a.waiting, waitingCall{c.Sender(), m})
		default:
			a.startCall(c, c.Sender(), m)
		}
	case *callDone:
		a.finishCall(m)
	case *CancelCall:
		for _, call := range a.calls {
			if call.req.ID == m.ID {
				call.cancel(errCancelled)
			}
		}
	case *toolsChanged:
		if m.gen == a.gen && a.conn != nil {
			a.listTools(c)
		}
	case *toolsListed:
		if m.gen != a.gen || a.conn == nil {
			return
		}
		if m.err != nil {
			a.log.Warn("refreshing tools", "err", m.err)
			return
		}
		a.publishTools(c, m.tools)
	case *actor.Restarting, *actor.Stopping:
		a.failWaiting(c, fmt.Errorf("server %s stopped", a.alias))
		a.failCalls(c, fmt.Errorf("server %s stopped", a.alias))
		a.drop()
		a.endLife()
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

// dial starts a connection attempt in the background.
func (a *serverActor) dial(c actor.Context) {
	a.gen++
	gen := a.gen
	self, root := c.Self(), c.ActorSystem().Root
	ctx, cancel := context.WithTimeout(a.life, a.deps.mcp.DialTimeout(a.srv))
	a.cancelDial = cancel
	onChanged := func() { root.Send(self, &toolsChanged{gen: gen}) }
	life, conns := a.life, a.deps.conns
	timeout := a.deps.mcp.DialTimeout(a.srv)
	// Shutdown waits for attempts under way too: a half-started process must
	// be cleaned up before Deckhand exits, or its children are orphaned.
	conns.Add(1)
	go func() {
		defer conns.Done()
		defer cancel()
		conn, err := a.deps.dial(ctx, a.alias, a.srv, onChanged)
		if err != nil {
			if errors.Is(err, context.DeadlineExceeded) && ctx.Err() != nil {
				err = fmt.Errorf("timed out after %v: %w", timeout, err)
			}
			root.Send(self, &dialed{gen: gen, err: err})
			return
		}
		t := track(life, conns, conn)
		tools, err := conn.ListTools(ctx)
		if err != nil {
			t.close()
			root.Send(self, &dialed{gen: gen, err: fmt.Errorf("listing tools: %w", err)})
			return
		}
		root.Send(self, &dialed{gen: gen, conn: t, tools: tools})
	}()
}

func (a *serverActor) onDialed(c actor.Context, m *dialed) {
	if m.gen != a.gen {
		if m.conn != nil {
			m.conn.close() // a late answer to an attempt that was superseded
		}
		return
	}
	a.cancelDial = nil
	if m.err != nil {
		a.failWaiting(c, fmt.Errorf("server %s: connecting: %w", a.alias, m.err))
		a.status.Attempts++
		state := StateFailed
		if a.status.State == StateReconnecting {
			state = StateReconnecting
		}
		a.log.Debug("connect failed", "attempt", a.status.Attempts, "err", m.err)
		a.status.Failure = mcp.Classify(m.err)
		a.scheduleRetry(c)
		a.setState(c, state, m.err.Error())
		return
	}
	a.conn = m.conn
	conn := m.conn.conn
	a.status.Attempts = 0
	a.status.Failure = mcp.FailureNone
	a.status.NextRetry = time.Time{}
	a.status.Transport = string(conn.Kind())
	a.status.Endpoint = conn.Endpoint()
	a.status.ProtocolVersion = conn.ProtocolVersion()
	if info := conn.ServerInfo(); info != nil {
		a.status.ServerName, a.status.ServerVersion = info.Name, info.Version
	}
	gen, self, root := a.gen, c.Self(), c.ActorSystem().Root
	go func() {
		<-conn.Done()
		root.Send(self, &connLost{gen: gen, err: conn.Err()})
	}()
	a.publishTools(c, m.tools)
	a.setState(c, StateReady, "")
	a.log.Info("connected", "transport", a.status.Transport, "protocol", a.status.ProtocolVersion, "tools", len(m.tools))
	for _, w := range a.waiting {
		a.startCall(c, w.sender, w.call)
	}
	a.waiting = nil
}

func (a *serverActor) onLost(c actor.Context, reason error) {
	a.log.Warn("connection lost", "err", reason)
	a.failCalls(c, fmt.Errorf("server %s disconnected: %w", a.alias, reason))
	a.drop()
	a.status.Attempts = 1
	a.status.Failure = mcp.Classify(reason)
	a.scheduleRetry(c)
	a.setState(c, StateReconnecting, reason.Error())
}

// failWaiting answers the calls waiting for a first connection with err.
func (a *serverActor) failWaiting(c actor.Context, err error) {
	for _, w := range a.waiting {
		c.Send(w.sender, &ToolResult{ID: w.call.req.ID, Tool: a.alias + "." + w.call.tool, Err: err})
	}
	a.waiting = nil
}

// drop forgets the current connection (closing it) and any attempt under way.
func (a *serverActor) drop() {
	a.gen++ // late messages from the old connection are now stale
	if a.cancelDial != nil {
		a.cancelDial()
		a.cancelDial = nil
	}
	if a.retry != nil {
		a.retry.Stop()
		a.retry = nil
	}
	if a.conn != nil {
		a.conn.close()
		a.conn = nil
	}
}

func (a *serverActor) scheduleRetry(c actor.Context) {
	delay := backoff(a.deps.mcp.Reconnect, a.status.Attempts)
	gen, self, root := a.gen, c.Self(), c.ActorSystem().Root
	a.retry = time.AfterFunc(delay, func() { root.Send(self, &retryDial{gen: gen}) })
	a.status.NextRetry = time.Now().Add(delay)
}

// backoff is Initial doubled for every failure after the first, capped at Max.
func backoff(b config.Backoff, failures int) time.Duration {
	initial, ceiling := b.Initial, b.Max
	if initial <= 0 {
		initial = config.DefaultReconnectInitial
	}
	if ceiling < initial {
		ceiling = max(initial, config.DefaultReconnectMax)
	}
	d := initial
	for i := 1; i < failures && d < ceiling; i++ {
		d *= 2
	}
	return min(d, ceiling)
}

func (a *serverActor) setState(c actor.Context, s State, reason string) {
	if s != a.status.State {
		a.status.Since = time.Now()
	}
	a.status.State, a.status.Reason = s, reason
	if s == StateReady {
		a.status.NextRetry = time.Time{}
	}
	st := a.status
	c.Send(c.Parent(), &st)
}

func (a *serverActor) publishTools(c actor.Context, list []*sdk.Tool) {
	a.status.Tools = len(list)
	if a.deps.saveTools != nil {
		a.deps.saveTools(a.alias, list)
	}
	c.Send(a.deps.registry, &ServerTools{Alias: a.alias, Server: a.srv, PID: c.Self(), Tools: list})
	if a.status.State == StateReady {
		st := a.status
		c.Send(c.Parent(), &st)
	}
}

func (a *serverActor) listTools(c actor.Context) {
	conn, gen, self, root := a.conn.conn, a.gen, c.Self(), c.ActorSystem().Root
	ctx, cancel := context.WithTimeout(a.life, a.deps.mcp.CallTimeout(a.srv))
	go func() {
		defer cancel()
		tools, err := conn.ListTools(ctx)
		root.Send(self, &toolsListed{gen: gen, tools: tools, err: err})
	}()
}

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
		progress = func(p mcp.Progress) { root.Send(to, &ToolProgress{ID: id, Tool: display, Progress: p}) }
	}
	args := any(m.req.Args)
	if len(m.req.Args) == 0 {
		args = map[string]any{}
	}
	conn, alias, self, root := a.conn.conn, a.alias, c.Self(), c.ActorSystem().Root
	a.deps.workers.run(func() {
		defer cancelTimeout()
		res, err := conn.CallTool(ctx, m.tool, args, progress)
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
	if a.status.Reason != "" {
		msg += ": " + a.status.Reason
	}
	if !a.status.NextRetry.IsZero() {
		msg += fmt.Sprintf(" (next attempt in %v)", time.Until(a.status.NextRetry).Round(100*time.Millisecond))
	}
	return errors.New(msg)
}

// tracked is a connection that the system waits for at shutdown: it is
// closed either by its actor (close) or, at the latest, when the actor's life
// ends.
type tracked struct {
	conn *mcp.Conn
	stop func() bool
	wg   *sync.WaitGroup
}

func track(life context.Context, wg *sync.WaitGroup, conn *mcp.Conn) *tracked {
	wg.Add(1)
	t := &tracked{conn: conn, wg: wg}
	t.stop = context.AfterFunc(life, func() {
		conn.Close()
		wg.Done()
	})
	return t
}

// close closes the connection in the background.
func (t *tracked) close() {
	if t.stop() {
		go func() {
			t.conn.Close()
			t.wg.Done()
		}()
	}
}
