package servers

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/clean"
	"deckhand/config"
	"deckhand/netwhy"
	"deckhand/toolcall"
	"deckhand/tools"
	"deckhand/transport/mcp"
)

// Internal continuations, tagged with the connection generation they belong to.
type (
	dialed struct {
		gen       int
		conn      *tracked
		tools     []*sdk.Tool
		notLoaded []tools.Rejected
		err       error
	}
	connLost struct {
		gen int
		err error
	}
	retryDial struct{ gen int }
	// toolsChanged says the server announced tools/list_changed; pending
	// is cleared when the actor takes it, so that a flood of notifications
	// sends one message until then.
	toolsChanged struct {
		gen     int
		pending *atomic.Bool
	}
	toolsListed struct {
		gen       int
		tools     []*sdk.Tool
		notLoaded []tools.Rejected
		err       error
	}
	relistNow struct{ gen int }
)

// dial starts a connection attempt in the background.
func (a *serverActor) dial(c actor.Context) {
	a.gen++
	gen := a.gen
	self, root := c.Self(), c.ActorSystem().Root
	ctx, cancel := context.WithTimeout(a.life, a.dialTimeout())
	ctx = mcp.WithAttempt(ctx, a.attempt(c, gen)) // sign-in and elicitation (signin.go)
	a.cancelDial = cancel
	pending := &atomic.Bool{}
	onChanged := func() {
		if pending.CompareAndSwap(false, true) {
			root.Send(self, &toolsChanged{gen: gen, pending: pending})
		}
	}
	onUpdated := func(uri string) { root.Send(self, &resourceChanged{gen: gen, uri: uri}) }
	onEgress := func(target string, allowed bool, rule string) {
		root.Send(self, &egressDecided{target: target, allowed: allowed, rule: rule})
	}
	life, conns := a.life, a.deps.conns
	timeout := a.dialTimeout()
	// Shutdown waits for attempts under way too: a half-started process must
	// be cleaned up before Deckhand exits, or its children are orphaned.
	conns.Add(1)
	go func() {
		defer conns.Done()
		defer cancel()
		conn, err := a.deps.dial(ctx, a.alias, a.srv, connHooks{toolsChanged: onChanged, resourceUpdated: onUpdated, egress: onEgress})
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
		root.Send(self, &dialed{gen: gen, conn: t, tools: tools, notLoaded: a.listNotLoaded()})
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
	if m.err != nil && a.signInFailed(c, m.err) {
		return
	}
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
		a.setState(c, state, withSandboxHint(a.alias, unreachable(a.status.Endpoint, m.err), m.err))
		return
	}
	a.conn = m.conn
	conn := m.conn.conn
	setting := "mcp.tool_timeout"
	if a.srv.Timeout > 0 {
		setting = "mcp.servers." + a.alias + ".timeout"
	}
	a.live = &liveConn{conn: conn, alias: a.alias, timeout: a.deps.mcp.CallTimeout(a.srv), setting: setting, secrets: a.deps.secrets,
		workers: a.deps.workers, calls: map[*inflight]struct{}{}}
	a.line.publish(a.live)
	a.status.Attempts = 0
	a.status.Failure = mcp.FailureNone
	a.status.NextRetry = time.Time{}
	a.status.Transport = string(conn.Kind())
	a.status.Endpoint = conn.Endpoint()
	a.status.ProtocolVersion = clean.Line(conn.ProtocolVersion())
	if info := conn.ServerInfo(); info != nil {
		a.status.ServerName, a.status.ServerVersion = clean.Line(info.Name), clean.Line(info.Version)
	}
	gen, self, root := a.gen, c.Self(), c.ActorSystem().Root
	go func() {
		<-conn.Done()
		root.Send(self, &connLost{gen: gen, err: conn.Err()})
	}()
	a.publishTools(c, m.tools, m.notLoaded)
	a.signedIn(conn)
	if st := &a.status.LastStop; !st.At.IsZero() && st.Back.IsZero() {
		st.Back = time.Now()
	}
	a.setState(c, StateReady, "")
	a.signInDone(c)
	a.log.Info("connected", "transport", a.status.Transport, "protocol", a.status.ProtocolVersion, "tools", len(m.tools))
	for _, w := range a.waiting {
		if err := stillOffered(a.alias, w.call, m.tools); err != nil {
			c.Send(w.sender, &ToolResult{ID: w.call.req.ID, Tool: a.alias + "." + w.call.tool, Err: err})
			continue
		}
		a.startCall(c, w.sender, w.call)
	}
	a.waiting = nil
	a.resubscribe(c)
	a.runPending(c)
}

func (a *serverActor) onLost(c actor.Context, reason error) {
	a.log.Warn("connection lost", "err", reason)
	a.failCalls(fmt.Errorf("server %s disconnected: %w", a.alias, reason))
	a.drop()
	a.status.Attempts = 1
	a.status.Failure = mcp.Classify(reason)
	a.scheduleRetry(c)
	why := withSandboxHint(a.alias, reason.Error(), reason)
	a.status.Stops++
	a.status.LastStop = Stop{At: time.Now(), Reason: clean.Line(why)}
	var exit *mcp.ExitError
	if errors.As(reason, &exit) {
		a.status.LastStop.Exit = clean.Line(exit.Status)
	}
	a.setState(c, StateReconnecting, why)
}

// failWaiting answers the calls waiting for a first connection with err.
func (a *serverActor) failWaiting(c actor.Context, err error) {
	for _, w := range a.waiting {
		c.Send(w.sender, &ToolResult{ID: w.call.req.ID, Tool: a.alias + "." + w.call.tool, Err: err})
	}
	a.waiting = nil
	a.failPending(c, err)
}

// stillOffered checks a call that waited for the connection against the
// tools the server now lists: it was checked (and perhaps shown and
// approved) against the definition of the last connection, and runs only if
// the server still offers exactly that. A changed definition is refused as
// any redefined tool is (toolcall.ErrChanged: the model calls again, and the
// pin check applies to the new definition); a tool gone says so.
func stillOffered(alias string, call *serverCall, listed []*sdk.Tool) error {
	display := alias + "." + call.tool
	i := slices.IndexFunc(listed, func(t *sdk.Tool) bool { return t != nil && t.Name == call.tool })
	if i < 0 {
		return fmt.Errorf("%s: %w", display, &goneError{alias: alias, tool: call.tool})
	}
	if want := call.req.Resolved; want != nil && !toolcall.Same(want.Raw, listed[i]) {
		return fmt.Errorf("%s: %w", display, toolcall.ErrChanged)
	}
	return nil
}

// goneError answers a call to a tool offered from its server's last
// connection that the server, once connected, no longer has.
type goneError struct{ alias, tool string }

func (e *goneError) Error() string {
	return fmt.Sprintf("server %s connected without a tool named %q (it was offered from the server's last connection); the call was not made", e.alias, e.tool)
}

// cancelWaiting answers the waiting calls with id: cancelled.
func (a *serverActor) cancelWaiting(c actor.Context, id string) {
	a.waiting = slices.DeleteFunc(a.waiting, func(w waitingCall) bool {
		if w.call.req.ID != id {
			return false
		}
		c.Send(w.sender, &ToolResult{ID: id, Tool: a.alias + "." + w.call.tool, Err: errCancelled})
		return true
	})
}

// drop forgets the current connection (closing it) and any attempt under way.
func (a *serverActor) drop() {
	a.gen++ // late messages from the old connection are now stale
	a.failCalls(fmt.Errorf("server %s: its connection was closed", a.alias))
	a.listing, a.relist, a.listed = false, false, nil
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
	delay := retryDelay(a.deps.mcp.Reconnect, a.status.Attempts)
	gen, self, root := a.gen, c.Self(), c.ActorSystem().Root
	a.retry = time.AfterFunc(delay, func() { root.Send(self, &retryDial{gen: gen}) })
	a.status.NextRetry = time.Now().Add(delay)
}

// retryDelay is the wait before the next attempt: backoff with full jitter
// (uniform in [0, backoff]), so that servers failing together, as after a
// network change or a resumed laptop, do not retry together.
func retryDelay(b config.Backoff, failures int) time.Duration {
	return rand.N(backoff(b, failures) + 1)
}

// backoff is the ceiling of the next delay: Initial doubled for every
// failure after the first, capped at Max.
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
	// A reason may quote the server (its stderr, an HTTP body): shown as
	// one clean line.
	a.status.State, a.status.Reason = s, clean.Line(reason)
	if s == StateReady {
		a.status.NextRetry = time.Time{}
	}
	st := a.status
	c.Send(c.Parent(), &st)
}

// listNotLoaded is what the server left out, after a listing (on the
// listing's goroutine: it may wait for the server's lock).
func (a *serverActor) listNotLoaded() []tools.Rejected {
	if f := a.deps.notLoaded[a.alias]; f != nil {
		return f()
	}
	return nil
}

func (a *serverActor) publishTools(c actor.Context, list []*sdk.Tool, notLoaded []tools.Rejected) {
	if a.status.State == StateReady && sameTools(a.listed, list) && slices.Equal(a.notLoaded, notLoaded) {
		return // announced as changed, but it is not: nothing to rebuild
	}
	a.listed, a.notLoaded = list, notLoaded
	a.status.Tools = len(list)
	if a.deps.saveTools != nil {
		a.deps.saveTools(a.alias, list)
	}
	c.Send(a.deps.registry, &ServerTools{Alias: a.alias, Server: a.srv, PID: c.Self(), Tools: list, NotLoaded: notLoaded})
	if a.status.State == StateReady {
		st := a.status
		c.Send(c.Parent(), &st)
	}
}

// relistPause is the least time between two listings a server asked for.
const relistPause = 250 * time.Millisecond

// A flood of tools/list_changed costs one listing at a time: while one is
// under way or in the pause after it, later announcements fold into one
// more, made when the pause ends.
func (a *serverActor) listTools(c actor.Context) {
	if a.listing {
		a.relist = true
		return
	}
	a.listing = true
	conn, gen, self, root := a.conn.conn, a.gen, c.Self(), c.ActorSystem().Root
	ctx, cancel := context.WithTimeout(a.life, a.deps.mcp.CallTimeout(a.srv))
	go func() {
		defer cancel()
		tools, err := conn.ListTools(ctx)
		root.Send(self, &toolsListed{gen: gen, tools: tools, notLoaded: a.listNotLoaded(), err: err})
	}()
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

// sameTools reports whether two listings hold the same definitions.
func sameTools(a, b []*sdk.Tool) bool {
	if len(a) != len(b) {
		return false
	}
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(x, y)
}

// unreachable is a failed connection's reason, in plain words when the
// server could not be reached at all.
// withSandboxHint is the reason of a failure, and when a sandboxed server
// stopped saying it could not find or open a file or module, a sentence
// after it: the sandbox may be hiding the file, or it may really be
// missing, so the sentence says how to grant a folder without blaming the
// sandbox.
func withSandboxHint(alias, reason string, err error) string {
	var exit *mcp.ExitError
	if !errors.As(err, &exit) || !exit.MayBeSandbox() {
		return reason
	}
	if !strings.HasSuffix(reason, ".") {
		reason += "."
	}
	return reason + fmt.Sprintf(" It runs in Deckhand's sandbox, which lets it read only some folders (deckhand policy lists them): if what it could not open is elsewhere, grant that folder in mcp.servers.%s.read (Also reads, in the window).", alias)
}

func unreachable(endpoint string, err error) string {
	if why, ok := netwhy.Why(err); ok && endpoint != "" {
		return fmt.Sprintf("not reachable: %s. Is the server running at %s?", why, endpoint)
	}
	return err.Error()
}
