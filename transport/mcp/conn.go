package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/redact"
	"deckhand/sandbox"
)

// Kind is how a connection talks to its server.
type Kind string

const (
	KindStdio      Kind = "stdio"      // a child process over stdin/stdout
	KindStreamable Kind = "streamable" // streamable HTTP
	KindSSE        Kind = "sse"        // the legacy HTTP+SSE transport
	KindJSON       Kind = "json"       // plain JSON answers to each POST, no stream (lmcp)
	KindInProcess  Kind = "in-process" // a go-sdk server inside Deckhand, over in-memory pipes
)

// Progress is one notifications/progress message for a call.
type Progress struct {
	Progress float64
	Total    float64 // 0 when unknown
	Message  string
	// Task, when set, is the id of the task the server made of the call
	// (tasks.go), reported with each change of its status (Status), so
	// that the log can keep it.
	Task, Status string
}

// Conn is one live MCP session with one server.
type Conn struct {
	alias    string
	endpoint string
	log      *slog.Logger
	redact   redact.Secrets

	kind    Kind
	session *sdk.ClientSession
	http    *httpTransport // nil for stdio
	cmd     *sandbox.Cmd   // nil for HTTP; the server's process (sandboxed: its namespaces' first process)
	command string         // the server's command, for messages
	stderr  *tailBuffer
	frames  *stdioTransport // nil for HTTP
	exiting <-chan struct{} // Options.Exiting
	// sandboxed: the stdio server runs confined (package sandbox).
	sandboxed bool

	// sessionCtx is what the SDK's transports live in: the legacy SSE
	// transport ties its stream to the context given to Connect, so it must
	// outlive Dial's ctx. release cancels it.
	sessionCtx    context.Context
	sessionCancel context.CancelFunc

	// life ends when the connection dies or is closed; its cause is the
	// reason. Every call's context is tied to it.
	life    context.Context
	end     context.CancelCauseFunc
	done    chan struct{}
	closing atomic.Bool
	once    sync.Once

	tokens   atomic.Uint64
	mu       sync.Mutex
	progress map[string]func(Progress)

	oauth *oauthHandler // nil unless the server may ask to sign in

	// tasks is what the server offers of tasks (taskOffers, below).
	tasks *taskOffers
	// wrapped is the SDK's connection wrapped for Deckhand's own requests
	// (taskConn, below), set once the transport connects; nil over streamable
	// HTTP, whose requests of tasks go through the session.
	wrapped atomic.Pointer[taskConn]
	// answers are StartTool's tools/call answers over streamable HTTP as
	// the tap saw them, by progress token (under mu); a token is there,
	// with a nil answer, from when the call is sent.
	answers map[string]json.RawMessage
	// onElicit is Options.OnElicit, which also answers a 2026-07-28
	// task's input requests (tasks.go).
	onElicit func(context.Context, *sdk.ElicitRequest) (*sdk.ElicitResult, error)
}

// watch waits for the session to end and records why.
func (c *Conn) watch() {
	err := c.session.Wait()
	if c.closing.Load() {
		c.die(ErrClosed)
		return
	}
	c.die(c.deathReason(err))
}

func (c *Conn) deathReason(err error) error {
	if c.frames != nil {
		if fe := c.frames.guard.Fatal(); fe != nil {
			return fe
		}
	}
	if c.cmd != nil {
		if st := c.cmd.ProcessState; st != nil {
			if f := c.cmd.BuildFailure(); f != nil {
				return fmt.Errorf("starting %s: %w", c.command, f)
			}
			return &ExitError{Command: c.command, Status: st.String(), Stderr: c.stderr.Reason(3), Sandboxed: c.sandboxed}
		}
	}
	if err == nil || errors.Is(err, io.EOF) {
		return errors.New("server closed the connection")
	}
	return err
}

// die ends the connection with reason: calls in flight fail at once with it,
// Done is closed, and the session and any process are cleaned up.
func (c *Conn) die(reason error) {
	c.once.Do(func() {
		reason = c.secrets().Error(reason)
		c.end(reason)
		close(c.done)
		go c.release()
	})
}

// release closes the session and reaps the process group.
func (c *Conn) release() {
	if c.session != nil {
		_ = c.session.Close()
	}
	c.sessionCancel()
	c.reap()
}

// reap ends what is left of a stdio server's process group: at once when
// Deckhand itself is ending, else after SIGTERM and a short grace.
func (c *Conn) reap() {
	if c.cmd == nil || c.cmd.Process == nil {
		return
	}
	select {
	case <-c.exiting:
		killGroupNow(c.cmd.Process.Pid)
	default:
		killGroup(c.cmd.Process.Pid)
	}
}

// Close ends the connection on purpose. Calls in flight fail with
// [ErrClosed]; the child process (if any) and its children are stopped before
// Close returns.
func (c *Conn) Close() error {
	c.closing.Store(true)
	c.once.Do(func() {
		c.end(ErrClosed)
		close(c.done)
	})
	c.release()
	return nil
}

// Done is closed when the connection has died or been closed.
func (c *Conn) Done() <-chan struct{} { return c.done }

// Err is why the connection ended, or nil while it is alive.
func (c *Conn) Err() error {
	select {
	case <-c.done:
		return context.Cause(c.life)
	default:
		return nil
	}
}

// Kind is the transport in use.
func (c *Conn) Kind() Kind {
	if c.http != nil && c.kind == KindStreamable && c.http.plain.Load() {
		return KindJSON
	}
	return c.kind
}

// Endpoint is the URL or command line, without secrets.
func (c *Conn) Endpoint() string { return c.endpoint }

// PID is the id of the server's process (under Linux, of its supervisor,
// which leads its process group), or 0 for HTTP servers.
func (c *Conn) PID() int {
	if c.cmd == nil || c.cmd.Process == nil {
		return 0
	}
	return c.cmd.Process.Pid
}

// ProtocolVersion is the MCP version agreed in the handshake.
func (c *Conn) ProtocolVersion() string {
	if r := c.session.InitializeResult(); r != nil {
		return r.ProtocolVersion
	}
	return ""
}

// ServerInfo is the server's name and version, possibly nil.
func (c *Conn) ServerInfo() *sdk.Implementation {
	if r := c.session.InitializeResult(); r != nil {
		return r.ServerInfo
	}
	return nil
}

// Instructions are the server's usage instructions from the handshake.
func (c *Conn) Instructions() string {
	if r := c.session.InitializeResult(); r != nil {
		return r.Instructions
	}
	return ""
}

// ListTools returns every tool, following pagination. A server that does
// not announce the tools capability is not asked (the MCP spec: only what a
// server's capabilities announce): it has no tools, and connects.
func (c *Conn) ListTools(ctx context.Context) ([]*sdk.Tool, error) {
	if r := c.session.InitializeResult(); r != nil && r.Capabilities != nil && r.Capabilities.Tools == nil {
		return nil, nil
	}
	ctx, done := c.bind(ctx)
	defer done()
	var tools []*sdk.Tool
	for t, err := range c.session.Tools(ctx, nil) {
		if err != nil {
			return nil, c.callError(ctx, "listing tools", err)
		}
		tools = append(tools, t)
	}
	CompactSchemas(tools)
	return tools, nil
}

// CompactSchemas replaces each definition's schemas, as the SDK decodes
// them (trees of map[string]any), with their JSON text, and lets the tools
// of one listing that have the same schema share one text. A decoded schema
// weighs about ten times its text (1.4 KB for a one-parameter schema of
// 150 bytes), and a catalog keeps every definition for its life; everything
// that reads a schema marshals it first. The text is what json.Marshal
// gives for the decoded tree (keys sorted), so a definition's JSON, and
// with it its hash and pin, is the same either way.
func CompactSchemas(list []*sdk.Tool) {
	seen := map[string]json.RawMessage{}
	compact := func(schema any) any {
		if schema == nil {
			return nil
		}
		if _, ok := schema.(json.RawMessage); ok {
			return schema
		}
		data, err := json.Marshal(schema)
		if err != nil {
			return schema
		}
		if same, ok := seen[string(data)]; ok {
			return same
		}
		seen[string(data)] = data
		return json.RawMessage(data)
	}
	for _, t := range list {
		if t != nil {
			t.InputSchema, t.OutputSchema = compact(t.InputSchema), compact(t.OutputSchema)
		}
	}
}

// CallTool calls the server's tool name with args (anything that marshals
// to a JSON object, such as json.RawMessage). progress, if not nil, receives
// the server's progress notifications for this call. A tool that failed is a
// result with IsError set, not an error; errors are protocol or connection
// failures.
func (c *Conn) CallTool(ctx context.Context, name string, args any, progress func(Progress)) (*sdk.CallToolResult, error) {
	ctx, done := c.bind(ctx)
	defer done()
	params := &sdk.CallToolParams{Name: name, Arguments: args}
	if progress != nil {
		token, release := c.progressToken(progress)
		params.SetProgressToken(token)
		defer release()
	}
	res, err := c.session.CallTool(ctx, params)
	if err != nil {
		return nil, c.callError(ctx, "calling "+name, err)
	}
	return res, nil
}

// CallTask calls the server's tool name and returns its result, whatever
// the server makes of the call: a tool it may answer with a task (it
// offers tasks for it) is called through StartTool and, when the answer
// is a task, followed to its end with AwaitTask (tasks.go), onTask, if not
// nil, hearing the task's id first; any other call is a plain CallTool,
// which runs nothing of tasks.go.
func (c *Conn) CallTask(ctx context.Context, name string, args any, progress func(Progress), onTask func(*Task)) (*sdk.CallToolResult, error) {
	if !c.tasks.offered(name) {
		return c.CallTool(ctx, name, args, progress)
	}
	res, t, err := c.StartTool(ctx, name, args, progress)
	if err != nil || t == nil {
		return res, err
	}
	if onTask != nil {
		onTask(t)
	}
	return c.AwaitTask(ctx, t, progress)
}

// progressToken registers progress under a fresh token; release forgets it.
func (c *Conn) progressToken(progress func(Progress)) (string, func()) {
	token := fmt.Sprintf("deckhand-%d", c.tokens.Add(1))
	if progress == nil {
		return token, func() {}
	}
	return token, hold(&c.mu, c.progress, token, progress)
}

// hold puts v in m under key, holding mu, until the func it returns takes
// it out again (a request's waiter, kept while the request is out).
func hold[K comparable, V any](mu *sync.Mutex, m map[K]V, key K, v V) (release func()) {
	mu.Lock()
	m[key] = v
	mu.Unlock()
	return func() {
		mu.Lock()
		delete(m, key)
		mu.Unlock()
	}
}

// Ping checks that the server answers.
func (c *Conn) Ping(ctx context.Context) error {
	ctx, done := c.bind(ctx)
	defer done()
	if err := c.session.Ping(ctx, nil); err != nil {
		return c.callError(ctx, "ping", err)
	}
	return nil
}

// bind ties ctx to the connection's life: when the connection dies, the
// call returns at once with the reason.
func (c *Conn) bind(ctx context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(ctx)
	stop := context.AfterFunc(c.life, func() { cancel(context.Cause(c.life)) })
	return ctx, func() { stop(); cancel(nil) }
}

// callError explains a failed request: the connection's end, the caller's
// deadline, or what the server or the wire said.
func (c *Conn) callError(ctx context.Context, what string, err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, sdk.ErrConnectionClosed) || errors.Is(err, sdk.ErrSessionMissing) {
		// The session noticed the end before watch did (or, over
		// streamable HTTP, that the server no longer knows it, which
		// ends it): wait for the reason (exit status, stderr), which
		// follows at once, so that the caller sees the connection
		// gone.
		select {
		case <-c.done:
		case <-time.After(2 * time.Second):
		}
	}
	if cause := context.Cause(c.life); cause != nil {
		return fmt.Errorf("%s: %w", what, cause)
	}
	if ctx.Err() != nil {
		return fmt.Errorf("%s: %w", what, context.Cause(ctx))
	}
	if c.http != nil {
		// A refused POST: give the status and body rather than the SDK's summary.
		if refusal, _ := c.http.failure(); refusal != nil && strings.Contains(err.Error(), http.StatusText(refusal.Status)) {
			c.http.resetFailure()
			return c.secrets().Error(fmt.Errorf("%s: %w", what, refusal))
		}
	}
	var wire *jsonrpc.Error
	if errors.As(err, &wire) {
		// The server's (or the frame guard's) answer, without the SDK's
		// `calling "tools/call"` in front of it.
		return c.secrets().Error(fmt.Errorf("%s: %w", what, wire))
	}
	return c.secrets().Error(fmt.Errorf("%s: %w", what, err))
}

func (c *Conn) onProgress(_ context.Context, req *sdk.ProgressNotificationClientRequest) {
	p := req.Params
	key := fmt.Sprint(p.ProgressToken)
	c.mu.Lock()
	f := c.progress[key]
	c.mu.Unlock()
	if f != nil {
		f(Progress{Progress: p.Progress, Total: p.Total, Message: p.Message})
	}
}

// The connection under the SDK's session, for stdio, in-process and legacy
// SSE servers, is wrapped (taskTransport): every message passes through
// taskConn, which carries Deckhand's own requests beside the SDK's (tasks/*,
// sent only for a task: tasks.go) and reads what the server offers of
// tasks from its answers to initialize and tools/list (taskOffers), which
// the SDK's types drop. Streamable HTTP is left unwrapped (dialHTTP): its
// answers are read in the HTTP bodies (tap.go).

// taskTransport wraps the SDK's transport so that its connection is a
// taskConn, published in c.wrapped.
type taskTransport struct {
	inner sdk.Transport
	c     *Conn
}

func (t *taskTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	conn, err := t.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	tc := &taskConn{Connection: conn, offers: t.c.tasks, pending: map[string]chan *jsonrpc.Response{}, watched: map[string]string{}}
	t.c.wrapped.Store(tc)
	return tc, nil
}

// taskConn is the SDK's connection with Deckhand's own requests beside the
// SDK's. Read is called by the SDK's one reader; Write by anyone.
type taskConn struct {
	sdk.Connection
	offers  *taskOffers
	seq     atomic.Uint64
	writeMu sync.Mutex

	mu      sync.Mutex
	pending map[string]chan *jsonrpc.Response // our requests' ids
	watched map[string]string                 // the SDK's initialize and tools/list ids, to their method
}

// ownPrefix starts the ids of Deckhand's own requests; the SDK numbers its
// own.
const ownPrefix = "deckhand-task-"

func (tc *taskConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() && (req.Method == "initialize" || req.Method == "tools/list") {
		tc.mu.Lock()
		tc.watched[fmt.Sprint(req.ID.Raw())] = req.Method
		tc.mu.Unlock()
	}
	tc.writeMu.Lock()
	defer tc.writeMu.Unlock()
	return tc.Connection.Write(ctx, msg)
}

func (tc *taskConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		msg, err := tc.Connection.Read(ctx)
		if err != nil {
			return nil, err
		}
		resp, ok := msg.(*jsonrpc.Response)
		if !ok {
			return msg, nil
		}
		key := fmt.Sprint(resp.ID.Raw())
		tc.mu.Lock()
		ch, ours := tc.pending[key]
		delete(tc.pending, key)
		method := tc.watched[key]
		delete(tc.watched, key)
		tc.mu.Unlock()
		if ours {
			ch <- resp // buffered: the caller may have gone
			continue
		}
		if method != "" && resp.Error == nil {
			tc.offers.look(method, resp.Result)
		}
		return msg, nil
	}
}

// taskOffers is what the server offers of tasks, read from its answers to
// initialize and tools/list, and the tasks followed on the connection.
type taskOffers struct {
	v1, v2 atomic.Bool // what the server's capabilities offer

	mu        sync.Mutex
	following map[string]struct{} // the task ids followed now
	support   map[string]string   // tool name to execution.taskSupport (2025-11-25)
}

func newTaskOffers() *taskOffers {
	return &taskOffers{following: map[string]struct{}{}, support: map[string]string{}}
}

// look reads what the server offers from its answers to initialize and
// tools/list.
func (o *taskOffers) look(method string, result json.RawMessage) {
	switch method {
	case "initialize":
		var init struct {
			Capabilities struct {
				Tasks *struct {
					Requests *struct {
						Tools *struct {
							Call json.RawMessage `json:"call"`
						} `json:"tools"`
					} `json:"requests"`
				} `json:"tasks"`
				Extensions map[string]json.RawMessage `json:"extensions"`
			} `json:"capabilities"`
		}
		if json.Unmarshal(result, &init) != nil {
			return
		}
		caps := init.Capabilities
		o.v1.Store(caps.Tasks != nil && caps.Tasks.Requests != nil && caps.Tasks.Requests.Tools != nil && caps.Tasks.Requests.Tools.Call != nil)
		_, v2 := caps.Extensions[TasksExtension]
		o.v2.Store(v2)
	case "tools/list":
		if !o.v1.Load() {
			return
		}
		var list struct {
			Tools []struct {
				Name      string `json:"name"`
				Execution struct {
					TaskSupport string `json:"taskSupport"`
				} `json:"execution"`
			} `json:"tools"`
		}
		if json.Unmarshal(result, &list) != nil {
			return
		}
		o.mu.Lock()
		for _, t := range list.Tools {
			if t.Execution.TaskSupport == "" {
				delete(o.support, t.Name)
			} else {
				o.support[t.Name] = t.Execution.TaskSupport
			}
		}
		o.mu.Unlock()
	}
}

// offered reports whether a call of tool may be answered with a task, so
// that it must go through StartTool's own request.
func (o *taskOffers) offered(tool string) bool {
	if o.v2.Load() {
		return true
	}
	if !o.v1.Load() {
		return false
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	s := o.support[tool]
	return s == "optional" || s == "required"
}
