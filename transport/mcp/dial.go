package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/config"
	"deckhand/policy"
	"deckhand/redact"
	"deckhand/sandbox"
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
	// OnSecrets, if set, is told the values of the secrets a stdio server
	// is given (some read from the keyring as it starts), to be removed
	// wherever its output goes.
	OnSecrets func(values ...string)
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
		return nil, c.secrets().Error(err)
	}
	go c.watch()
	return c, nil
}

// secretValues are the values env (NAME=value lines) gives the variables
// names.
func secretValues(env, names []string) []string {
	var out []string
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		if v != "" && slices.Contains(names, k) {
			out = append(out, v)
		}
	}
	return out
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
	// The secrets passed on are secrets wherever the server echoes them:
	// those read from the keyring are known nowhere else.
	if values := secretValues(env, srv.Secrets); len(values) > 0 {
		c.redact = c.redact.With(values...)
		if opts.OnSecrets != nil {
			opts.OnSecrets(values...)
		}
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
	c.stderr = newTailBuffer(8<<10, func(line string) { c.log.Debug("server stderr", "line", c.redact.String(line)) })
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
	if f := c.cmd.BuildFailure(); f != nil {
		return fmt.Errorf("starting %s: %w", c.command, f)
	}
	tail := c.stderr.Reason(3)
	if st := c.cmd.ProcessState; st != nil && !st.Success() && ctx.Err() == nil {
		return &ExitError{Command: c.command, Status: st.String(), Stderr: tail, Sandboxed: c.sandboxed}
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
		if c.oauth != nil {
			ht.known = &c.oauth.known // a refusal may echo a sign-in's token
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
		// StartTool's tools/call goes through the SDK here, which asks
		// for a task with params.task (2025-11-25) only through this
		// middleware; wrapped connections send their own (callRounds),
		// and run none of it.
		client.AddSendingMiddleware(askTask)
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
