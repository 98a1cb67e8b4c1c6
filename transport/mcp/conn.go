package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/config"
	"deckhand/policy"
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

// Options configure [Dial]. The zero value works.
type Options struct {
	// Logger receives the connection's diagnostics; nil discards them.
	Logger *slog.Logger
	// ClientName and ClientVersion identify Deckhand in the handshake.
	// Default "deckhand" and "dev".
	ClientName, ClientVersion string
	// LookupEnv reads auth_env variables. Default os.LookupEnv.
	LookupEnv func(string) (string, bool)
	// Paths resolves stdio commands. Default: a fresh [PathResolver].
	Paths *PathResolver
	// HTTPTransport carries HTTP requests. Default http.DefaultTransport.
	HTTPTransport http.RoundTripper
	// OnToolsChanged is called (from the SDK's goroutine; keep it short)
	// when the server announces notifications/tools/list_changed.
	OnToolsChanged func()
	// OnResourceUpdated is called (from the SDK's goroutine; keep it
	// short) with the URI of a subscribed resource the server says changed
	// (notifications/resources/updated). See resources.go.
	OnResourceUpdated func(uri string)
	// InProcess, if set, is a server running inside Deckhand: Dial connects
	// to it over in-memory pipes and ignores the server entry's transport.
	InProcess *sdk.Server
	// Transport, if set (and InProcess is not), is a connection to a server
	// that the caller made, such as a test's scripted peer: Dial speaks
	// over it (Kind in-process) and ignores the server entry's transport.
	Transport sdk.Transport
	// TerminateGrace is how long Close waits for a child process to exit
	// after closing its stdin, before signalling it. Default 2s.
	TerminateGrace time.Duration
	// Exiting, once closed, says Deckhand itself is ending: a stdio server
	// closed from then on (or still being closed) is given ExitGrace to
	// end after its input closes, and then its whole process group is
	// killed, rather than the graceful close (TerminateGrace, SIGTERM,
	// TerminateGrace) kept for a server removed or restarted while
	// Deckhand runs on. Some servers never end at the end of their input
	// (server-everything once the client advertised roots). nil: never.
	Exiting <-chan struct{}
	// MaxMessageBytes bounds one message from a stdio server. Default
	// [MaxMessageBytes].
	MaxMessageBytes int
	// Policy decides a stdio server's environment and sandbox, the roots
	// it is told, and the hosts an HTTP server may be reached at. Default:
	// the policy of an empty config (sandbox on, the workspace as the
	// only root, no secrets passed on).
	Policy *policy.Policy
	// OAuth, if set, signs in to HTTP servers that ask for it (and have
	// no auth_token or auth_env). See oauth.go.
	OAuth *OAuth
	// OnElicit, if set, answers the server's elicitation requests (form
	// and URL mode), called on the SDK's goroutine. See elicit.go.
	OnElicit func(context.Context, *sdk.ElicitRequest) (*sdk.ElicitResult, error)
	// OnEgress hears each connection a sandboxed server whose network is
	// a list of hosts asks Deckhand's proxy for ("host:port"), whether
	// it was allowed and the rule that decided (sandbox.Proxy.OnConnect);
	// called from the proxy's goroutines.
	OnEgress func(target string, allowed bool, rule string)
}

// ExitGrace is how long a stdio server has to end after its input closes
// when Deckhand itself is ending (Options.Exiting).
const ExitGrace = 100 * time.Millisecond

// defaultHTTPTransport bounds the TCP and TLS handshakes: a host that drops
// packets fails in seconds rather than holding up the whole connect timeout
// (which exists for servers that are slow to start, not slow to reach).
// Response times are not bounded here: streams stay open for as long as the
// session lives.
var defaultHTTPTransport http.RoundTripper = func() http.RoundTripper {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.DialContext = (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext
	t.TLSHandshakeTimeout = 10 * time.Second
	return t
}()

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

	// tasks is what the server offers of tasks (tasks.go).
	tasks *taskOffers
	// wrapped is the SDK's connection wrapped for Deckhand's own requests
	// (tasks.go), set once the transport connects; nil over streamable
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

// Dial connects to the server described by srv and completes the MCP
// handshake. ctx bounds the whole attempt. Errors say what failed in plain
// words (HTTP status and body, process exit and stderr) and never contain
// the bearer token.
func Dial(ctx context.Context, alias string, srv config.Server, opts Options) (*Conn, error) {
	opts = attemptOptions(ctx, opts)
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	c := &Conn{
		alias:    alias,
		endpoint: srv.Endpoint(),
		log:      log,
		done:     make(chan struct{}),
		progress: map[string]func(Progress){},
		onElicit: opts.OnElicit,
		tasks:    newTaskOffers(),
		answers:  map[string]json.RawMessage{},
	}
	if opts.InProcess != nil || opts.Transport != nil {
		c.endpoint = "in-process"
	}
	c.life, c.end = context.WithCancelCause(context.Background())
	c.sessionCtx, c.sessionCancel = context.WithCancel(context.Background())
	// Dial's ctx bounds the handshake only.
	stop := context.AfterFunc(ctx, c.sessionCancel)

	token, err := bearerToken(srv, opts.LookupEnv)
	if err != nil {
		return nil, err
	}
	c.redact = redact.New(token)

	name, version := opts.ClientName, opts.ClientVersion
	if name == "" {
		name = "deckhand"
	}
	if version == "" {
		version = "dev"
	}
	if opts.Policy == nil {
		opts.Policy = policy.New(&config.Config{}, opts.LookupEnv)
	}
	caps := &sdk.ClientCapabilities{}
	// Tasks (2026-07-28): a server that offers the extension answers a
	// long tools/call with a task only to a client that declares it. The
	// 2025-11-25 generation is asked for per call instead (tasks.go).
	caps.AddExtension(TasksExtension, map[string]any{})
	local := opts.InProcess == nil && opts.Transport == nil && srv.EffectiveTransport() == config.TransportStdio
	if local {
		// A local server is told the roots it may work in (server-
		// filesystem narrows its folders to them); a remote one's files
		// are not ours to bound.
		//lint:ignore SA1019 deprecated by SEP-2577 (2026-07-28) but still how servers of earlier protocols (server-filesystem) learn their folders
		caps.RootsV2 = &sdk.RootCapabilities{}
	}
	var elicit func(context.Context, *sdk.ElicitRequest) (*sdk.ElicitResult, error)
	if opts.OnElicit != nil {
		caps.Elicitation = &sdk.ElicitationCapabilities{Form: &sdk.FormElicitationCapabilities{}, URL: &sdk.URLElicitationCapabilities{}}
		elicit = c.elicit
	}
	client := sdk.NewClient(&sdk.Implementation{Name: name, Version: version}, &sdk.ClientOptions{
		Logger:       log,
		Capabilities: caps,
		ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) {
			if opts.OnToolsChanged != nil {
				opts.OnToolsChanged()
			}
		},
		ProgressNotificationHandler: c.onProgress,
		ElicitationHandler:          elicit,
		ResourceUpdatedHandler:      resourceUpdated(opts.OnResourceUpdated),
		//lint:ignore SA1019 deprecated by SEP-2577 (2026-07-28); servers of earlier protocols still send log messages, kept for debugging
		LoggingMessageHandler: func(_ context.Context, req *sdk.LoggingMessageRequest) {
			log.Debug("server log", "level", req.Params.Level, "logger", req.Params.Logger, "data", req.Params.Data)
		},
	})

	if err := allowTasks(client); err != nil {
		return nil, err
	}
	if local {
		for _, r := range opts.Policy.ServerRoots(srv) {
			//lint:ignore SA1019 the roots advertised above
			client.AddRoots(&sdk.Root{URI: "file://" + r, Name: filepath.Base(r)})
		}
	}
	switch {
	case opts.InProcess != nil:
		err = c.dialInProcess(client, opts.InProcess)
	case opts.Transport != nil:
		c.kind = KindInProcess
		c.session, err = client.Connect(c.sessionCtx, &taskTransport{inner: opts.Transport, c: c}, nil)
	case srv.EffectiveTransport() == config.TransportStdio:
		err = c.dialStdio(ctx, client, srv, opts)
	case srv.EffectiveTransport() == config.TransportStreamable:
		err = c.dialHTTP(ctx, client, srv.URL, KindStreamable, token, opts)
	case srv.EffectiveTransport() == config.TransportSSE:
		err = c.dialHTTP(ctx, client, srv.URL, KindSSE, token, opts)
	default:
		err = c.dialAuto(ctx, client, srv.URL, token, opts)
	}
	if !stop() && err == nil {
		c.session.Close()
		err = fmt.Errorf("no answer to initialize: %w", ctx.Err())
	}
	if err != nil {
		c.end(err)
		c.sessionCancel()
		return nil, c.redact.Error(err)
	}
	go c.watch()
	return c, nil
}

func bearerToken(srv config.Server, lookup func(string) (string, bool)) (string, error) {
	if srv.AuthToken != "" {
		return srv.AuthToken, nil
	}
	if srv.AuthEnv == "" {
		return "", nil
	}
	if lookup == nil {
		lookup = os.LookupEnv
	}
	v, ok := lookup(srv.AuthEnv)
	switch {
	case !ok:
		return "", fmt.Errorf("auth_env %s is not set in Deckhand's environment%w", srv.AuthEnv, silently(ErrAuthEnv))
	case strings.TrimSpace(v) == "":
		return "", fmt.Errorf("auth_env %s is empty%w", srv.AuthEnv, silently(ErrAuthEnv))
	}
	return strings.TrimSpace(v), nil
}

func (c *Conn) dialInProcess(client *sdk.Client, server *sdk.Server) error {
	ct, st := inProcessConns()
	if _, err := server.Connect(c.sessionCtx, pipeTransport{st}, nil); err != nil {
		return fmt.Errorf("starting the in-process server: %w", err)
	}
	cs, err := client.Connect(c.sessionCtx, &taskTransport{inner: pipeTransport{ct}, c: c}, nil)
	if err != nil {
		return err
	}
	c.kind, c.session = KindInProcess, cs
	return nil
}

func (c *Conn) dialStdio(ctx context.Context, client *sdk.Client, srv config.Server, opts Options) error {
	paths := opts.Paths
	if paths == nil {
		paths = &PathResolver{}
	}
	path, loginPath, err := paths.LookPath(srv.Command)
	if err != nil {
		return err
	}
	pol := opts.Policy
	childPath := ChildPath(loginPath)
	spec, err := pol.ServerSpec(c.alias, srv, path, childPath)
	if err != nil {
		return fmt.Errorf("%w%w", err, silently(ErrConfig))
	}
	var tmp string
	if spec != nil {
		if err := sandbox.Available(); err != nil {
			return fmt.Errorf("%w; to run this server unconfined, set sandbox = \"off\" in mcp.servers.%s", err, c.alias)
		}
		tmp = filepath.Join(pol.StateDir(c.alias), "tmp")
		if err := os.MkdirAll(tmp, 0o700); err != nil {
			return fmt.Errorf("creating the server's state folder: %w", err)
		}
		if err := pol.EnsureWorkspace(); err != nil {
			return err
		}
	}
	env, err := pol.Env(c.alias, srv, childPath, tmp)
	if err != nil {
		return err
	}
	cmd, err := sandbox.Command(path, srv.Args, env, spec)
	if err != nil {
		return err
	}
	c.command, c.sandboxed = path, spec != nil
	if cmd.Dir, err = expandHome(srv.Cwd); err != nil {
		return err
	}
	if cmd.Dir == "" && spec != nil {
		cmd.Dir = pol.Workspace // relative paths land in the workspace
	}
	if cmd.Dir != "" {
		// exec reports a missing directory as a missing command.
		if st, err := os.Stat(cmd.Dir); err != nil {
			return fmt.Errorf("cwd: %w", err)
		} else if !st.IsDir() {
			return fmt.Errorf("cwd %s is not a directory", cmd.Dir)
		}
	}
	c.stderr = newTailBuffer(8<<10, func(line string) { c.log.Debug("server stderr", "line", line) })
	cmd.Stderr = c.stderr
	cmd.OnConnect = opts.OnEgress
	grace := opts.TerminateGrace
	if grace <= 0 {
		grace = 2 * time.Second
	}
	c.kind, c.cmd = KindStdio, cmd
	c.exiting = opts.Exiting
	c.frames = &stdioTransport{cmd: cmd, grace: grace, exiting: opts.Exiting, limit: opts.MaxMessageBytes, dropped: func(fe *FrameError) {
		c.log.Warn("message dropped", "server", c.alias, "reason", fe.Error())
	}}
	cs, err := client.Connect(c.sessionCtx, &taskTransport{inner: c.frames, c: c}, nil)
	if err != nil {
		// Connect closed the session, which waited for the process to end.
		c.reap()
		return c.stdioFailure(ctx, err)
	}
	c.session = cs
	return nil
}

// stdioFailure turns a failed handshake into the most useful reason: how the
// process ended and what it said on stderr.
func (c *Conn) stdioFailure(ctx context.Context, err error) error {
	if c.cmd.Process == nil { // never started
		return fmt.Errorf("starting %s: %w", c.command, unwrapExec(err))
	}
	tail := c.stderr.Tail(3)
	if st := c.cmd.ProcessState; st != nil && !st.Success() && ctx.Err() == nil {
		return &ExitError{Command: c.command, Status: st.String(), Stderr: tail}
	}
	if ctx.Err() != nil {
		err = fmt.Errorf("no answer to initialize: %w", ctx.Err())
	}
	if tail != "" {
		return fmt.Errorf("%w; stderr: %s", err, tail)
	}
	return err
}

func unwrapExec(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe
	}
	return err
}

func (c *Conn) dialHTTP(ctx context.Context, client *sdk.Client, endpoint string, kind Kind, token string, opts Options) error {
	base := opts.HTTPTransport
	if base == nil {
		base = defaultHTTPTransport
	}
	ht := &httpTransport{base: base, token: token, redact: c.redact, limit: opts.MaxMessageBytes, dropped: func(fe *FrameError) {
		c.log.Warn("message dropped", "server", c.alias, "reason", fe.Error())
	}}
	if u, err := url.Parse(endpoint); err == nil {
		pol, own := opts.Policy, u.Hostname()
		ht.allowHost = func(host string) bool { return pol.HostAllowed(own, host) }
		ht.refusedHost = func(host string) {
			c.log.Warn("capability denied", "capability", policy.CapNet, "server", c.alias, "target", host, "rule", "not the server's host, nor in policy.net.allow_domains")
		}
	}
	hc := &http.Client{Transport: ht}
	var t sdk.Transport
	if kind == KindSSE {
		t = &sdk.SSEClientTransport{Endpoint: endpoint, HTTPClient: hc}
	} else {
		st := &sdk.StreamableClientTransport{Endpoint: endpoint, HTTPClient: hc}
		if err := c.withOAuth(st, token, opts); err != nil {
			return err
		}
		t = st
	}
	c.kind, c.http = kind, ht
	if kind == KindSSE {
		t = &taskTransport{inner: t, c: c}
	} else {
		// Streamable HTTP is left unwrapped: the SDK tells its
		// connection of the session's state through an unexported
		// method (sessionUpdated: the protocol version header, the
		// stream of the server's own messages), which a wrapper would
		// hide. What tasks need of the server's answers is read under
		// the SDK instead, in the HTTP bodies (tasks.go).
		ht.tap = &answerTap{want: c.wantAnswer, answer: c.tapped, refuse: c.refuseRepeat}
	}
	cs, err := client.Connect(c.sessionCtx, t, nil)
	if err != nil {
		if se := c.signInNeeded(); se != nil {
			return se
		}
		return httpFailure(ctx, ht, err)
	}
	c.session = cs
	// From now on, a server that vanishes fails the whole connection at once
	// instead of leaving calls to their timeouts.
	ht.setOnDead(func(err error) { c.die(fmt.Errorf("server unreachable: %w", err)) })
	return nil
}

// httpFailure prefers what the wire said (status and body, or the network
// error) over the SDK's summary of it.
func httpFailure(ctx context.Context, ht *httpTransport, err error) error {
	refusal, netErr := ht.failure()
	switch {
	case refusal != nil:
		return refusal
	case netErr != nil:
		return netErr
	case ctx.Err() != nil:
		return fmt.Errorf("no answer to initialize: %w", ctx.Err())
	}
	return err
}

// dialAuto tries streamable HTTP and, if the server refuses the POST with a
// 4xx status, the legacy SSE transport (MCP spec, "Backwards compatibility").
func (c *Conn) dialAuto(ctx context.Context, client *sdk.Client, endpoint, token string, opts Options) error {
	err := c.dialHTTP(ctx, client, endpoint, KindStreamable, token, opts)
	if err == nil {
		return nil
	}
	var refusal *HTTPError
	if !errors.As(err, &refusal) || refusal.Method != http.MethodPost || !fallbackStatus(refusal.Status) {
		return err
	}
	c.log.Debug("streamable HTTP refused, trying legacy SSE", "status", refusal.Status)
	sseErr := c.dialHTTP(ctx, client, endpoint, KindSSE, token, opts)
	if sseErr == nil {
		return nil
	}
	return fmt.Errorf("streamable HTTP: %v; legacy SSE: %w", err, sseErr)
}

// fallbackStatus reports whether a refused POST suggests an older server
// rather than a problem that SSE would meet as well.
func fallbackStatus(status int) bool {
	switch status {
	case http.StatusUnauthorized, http.StatusForbidden, http.StatusProxyAuthRequired, http.StatusTooManyRequests:
		return false
	}
	return status >= 400 && status < 500
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
			return &ExitError{Command: c.command, Status: st.String(), Stderr: c.stderr.Tail(3)}
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
		reason = c.redact.Error(reason)
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
			return c.redact.Error(fmt.Errorf("%s: %w", what, refusal))
		}
	}
	var wire *jsonrpc.Error
	if errors.As(err, &wire) {
		// The server's (or the frame guard's) answer, without the SDK's
		// `calling "tools/call"` in front of it.
		return c.redact.Error(fmt.Errorf("%s: %w", what, wire))
	}
	return c.redact.Error(fmt.Errorf("%s: %w", what, err))
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
