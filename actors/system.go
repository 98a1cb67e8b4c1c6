package actors

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/orcaman/concurrent-map"

	"deckhand/actors/conversation"
	"deckhand/actors/servers"
	"deckhand/actors/writer"
	"deckhand/approval"
	"deckhand/config"
	"deckhand/keys"
	"deckhand/policy"
	"deckhand/redact"
	"deckhand/store"
	"deckhand/toolcall"
	"deckhand/tools"
	"deckhand/toolserver"
	"deckhand/transport/mcp"
)

// Options configure [Start]. Config is required; the rest may be zero.
type Options struct {
	Config *config.Config
	// Logger receives Deckhand's and protoactor's logs; nil discards them.
	Logger *slog.Logger
	// Version is Deckhand's version, sent to servers in the handshake.
	Version string
	// Paths resolves stdio commands (shared, so the login shell is asked
	// once). Default: a fresh resolver.
	Paths *mcp.PathResolver
	// LookupEnv reads auth_env variables. Default os.LookupEnv.
	LookupEnv func(string) (string, bool)
	// Log, if set, is where every conversation is recorded and where
	// "always allow" grants are kept; nil keeps grants in memory and
	// records nothing.
	Log *store.DB
	// Secrets are values (tokens, keys) that must never reach the log.
	Secrets []string
	// InProcess are servers that run inside Deckhand, by alias; they are
	// supervised like the configured ones and connected over in-memory
	// pipes. A configured server of the same alias lends them its settings.
	InProcess map[string]*sdk.Server
	// BuildInProcess are in-process servers built when first needed: at
	// their first connection. One whose tools the log holds from an earlier
	// connection connects on demand unless its config entry says when, so
	// it is not built at all until the model calls one of its tools (the
	// built-in tools server: tens of milliseconds and megabytes saved at
	// every start).
	BuildInProcess map[string]func() (*sdk.Server, error)
	// NotLoaded say which tools an in-process server left out, and why
	// (servers.Options.NotLoaded).
	NotLoaded map[string]func() []tools.Rejected
	// SignIn configures OAuth sign-in for HTTP servers that ask for it;
	// nil: tokens in the keyring, the system browser (signin.go).
	SignIn *servers.SignInOptions

	// conversationHook, when set (by tests), sees every message of every
	// conversation first.
	conversationHook func(any)
}

// System is the running actor system with Deckhand's long-lived actors.
type System struct {
	// policy is the capability policy servers are started under; a change
	// of config replaces it (servers started from then on get the new one).
	// A Policy is immutable: it is swapped whole, and so are the hooks
	// (OnPolicy), an immutable slice replaced by a new one with each hook.
	policy      atomic.Pointer[policy.Policy]
	policyHooks atomic.Pointer[[]func(*policy.Policy)]

	Root          *actor.RootContext
	Servers       *actor.PID
	Registry      *actor.PID
	Conversations *actor.PID
	Store         *actor.PID // nil without a log

	as        *actor.ActorSystem
	log       *slog.Logger
	lookupEnv func(string) (string, bool)
	conns     *sync.WaitGroup        // connections not yet closed
	always    *approval.Always       // the "always allow" grants every conversation shares
	db        *store.DB              // the log, or nil
	secrets   *redact.Set            // removed from tool results before the model or a person sees them
	pins      *servers.Pins          // the pinned tool definitions
	router    *servers.Router        // the catalog, and where each call goes
	ids       atomic.Uint64          // call ids for CallTool
	signIn    *servers.SignInOptions // OAuth sign-in (signin.go)
	commands  *toolserver.Runner     // the CMD: route's commands
	// exiting is closed when Shutdown begins: servers closed from then on
	// are ended at once (mcp.Options.Exiting), not gracefully.
	exiting  chan struct{}
	exitOnce sync.Once
	shutOnce sync.Once
	shutErr  error
}

// cachedCatalogs reads the tools of each server's last connection, offered
// while it connects (and, for one that connects on demand, until its first
// call). (Start may block: it runs before any actor.)
func cachedCatalogs(db *store.DB, servers map[string]config.Server, log *slog.Logger) map[string][]*sdk.Tool {
	if len(servers) == 0 {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	saved, err := db.Catalogs(ctx)
	if err != nil {
		log.Warn("reading saved server catalogs: servers' tools are offered once they connect", "err", err)
		return nil
	}
	out := map[string][]*sdk.Tool{}
	for alias, c := range saved {
		var list []*sdk.Tool
		if _, ok := servers[alias]; ok && json.Unmarshal(c.Tools, &list) == nil {
			mcp.CompactSchemas(list)
			out[alias] = list
		}
	}
	return out
}

// The actor system's registry of processes spreads them over 1,024
// concurrent maps of its own, each cut by the map library into
// SHARD_COUNT shards (32: 32,768 maps, 2.7 MB of heap held for the
// process's life, 10 actors or 1,000): one shard each is spread enough.
// Set before any map is made (an actor system is made only after init),
// and never changed after, as a map finds its shard by it.
func init() { cmap.SHARD_COUNT = 1 }

// Start creates the actor system, the registry and the servers supervisor,
// which begins connecting every enabled server at once.
func Start(opts Options) *System {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	as := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger {
		return slog.New(quietHandler{log.Handler()}).With("component", "protoactor")
	}))
	lookupEnv := opts.LookupEnv
	if lookupEnv == nil {
		lookupEnv = os.LookupEnv
	}
	s := &System{Root: as.Root, as: as, log: log, conns: &sync.WaitGroup{}, lookupEnv: lookupEnv, db: opts.Log, signIn: opts.SignIn.WithDefaults(), secrets: &redact.Set{}, exiting: make(chan struct{})}
	s.policy.Store(policy.New(opts.Config, lookupEnv))
	s.commands = &toolserver.Runner{Policy: s.policy.Load()}
	paths := opts.Paths
	if paths == nil {
		paths = &mcp.PathResolver{}
	}
	var savePin func(store.Pin)
	if opts.Log != nil {
		savePin = func(p store.Pin) { s.Root.Send(s.Store, &writer.PinTool{Pin: p}) }
	}
	pctx, pcancel := context.WithTimeout(context.Background(), 10*time.Second)
	pins, err := servers.NewPins(pctx, opts.Log, savePin)
	pcancel()
	if err != nil {
		log.Warn("reading the pinned tool definitions: tools are pinned anew", "err", err)
	}
	if opts.Log != nil {
		pins.OnReview(func(r *servers.ToolReviewed) { s.Root.Send(s.Store, r) })
	}
	s.pins = pins
	s.router = &servers.Router{}
	s.Registry = servers.SpawnRegistry(as.Root, log, pins, s.router)
	always := &approval.Always{}
	if opts.Log != nil {
		always = approval.NewAlways(func(g approval.Grant) { s.Root.Send(s.Store, &writer.SaveGrant{Grant: g}) })
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		if err := writer.LoadGrants(ctx, opts.Log, always); err != nil {
			log.Warn("reading the always-allow grants: none count until they can be read", "err", err)
		}
		foreign, err := opts.Log.Foreign(ctx)
		if err != nil {
			log.Warn("checking the log's grants and pins", "err", err)
		}
		cancel()
		secrets := slices.Clone(opts.Secrets)
		model := opts.Config.Model
		cost := func(name string, in, out int) float64 { return model.PriceFor(name).Cost(in, out) }
		s.Store = writer.Spawn(as.Root, writer.Options{DB: opts.Log, Logger: log, Secrets: secrets, MaxOutputBytes: opts.Config.MCP.MaxOutputBytes, Always: always, Cost: cost, Foreign: foreign})
	}
	initial := maps.Clone(opts.Config.MCP.Servers)
	if initial == nil {
		initial = map[string]config.Server{}
	}
	inProcess := maps.Clone(opts.BuildInProcess)
	if inProcess == nil {
		inProcess = map[string]func() (*sdk.Server, error){}
	}
	for alias, srv := range opts.InProcess {
		inProcess[alias] = func() (*sdk.Server, error) { return srv, nil }
	}
	for alias := range inProcess {
		// A config entry of the same alias configures the in-process server
		// (trusted, read_only, timeouts); its command or url is not used.
		srv := initial[alias]
		srv.Command, srv.URL, srv.Disabled = "", "", false
		if alias == config.LocalAlias {
			// The built-in tools server's annotations are Deckhand's own
			// definitions or the person's (tools.dir): believed, so that a
			// read-only tool (local.files_read) is checked against the read
			// roots, not the write roots.
			srv.Trusted = true
		}
		initial[alias] = srv
	}
	var cached map[string][]*sdk.Tool
	var saveTools func(alias string, tools []*sdk.Tool)
	if opts.Log != nil {
		cached = cachedCatalogs(opts.Log, initial, log)
		store := s.Store
		saveTools = func(alias string, tools []*sdk.Tool) {
			s.Root.Send(store, &writer.SaveCatalog{Alias: alias, Tools: tools})
		}
	}
	if c, ok := cached[config.LocalAlias]; ok && offersShell(c) != s.policy.Load().AllowExec {
		// The built-in server offers its shell only with policy.allow_exec:
		// a list kept from a start with the other setting is not what it
		// offers now (the shell would be offered, or missing, until it
		// connects).
		delete(cached, config.LocalAlias)
	}
	for alias := range opts.BuildInProcess {
		// Built when first needed: with the tools of its last connection
		// to offer, at the model's first call to one of them.
		if srv := initial[alias]; srv.Connect == "" && len(cached[alias]) > 0 {
			srv.Connect = config.ConnectOnDemand
			initial[alias] = srv
		}
	}
	s.Servers = servers.Spawn(as.Root, servers.Options{
		MCP:        opts.Config.MCP,
		Servers:    initial,
		Registry:   s.Registry,
		Logger:     log,
		Conns:      s.conns,
		Version:    opts.Version,
		LookupEnv:  opts.LookupEnv,
		Paths:      paths,
		InProcess:  inProcess,
		NotLoaded:  opts.NotLoaded,
		Policy:     s.policy.Load,
		Exiting:    s.exiting,
		SignIn:     s.signIn,
		AddSecrets: func(v ...string) { s.AddSecrets(v...) },
		Store:      s.Store,
		Secrets:    s.secrets,
		Cached:     cached,
		SaveTools:  saveTools,
	})
	s.always = always
	s.secrets.Add(opts.Secrets...)
	deps := conversation.Deps{
		Config:    opts.Config,
		LookupEnv: opts.LookupEnv,
		Registry:  s.Registry,
		Router:    s.router,
		Pins:      s.pins,
		Secrets:   s.secrets,
		// A key the keyring gave (only once the model asked for one: a
		// locked keyring holds up no start) must never reach the log.
		KeyRead:   func(k keys.Key) { s.AddSecrets(k.Value()) },
		Always:    always,
		Commands:  s.commands,
		Logger:    log,
		Log:       s.Store,
		OnMessage: opts.conversationHook,
	}
	if opts.Log != nil {
		// A cut result is kept whole beside the log, for the person.
		deps.KeepResult = opts.Log.KeepResult
		deps.KeepImage = opts.Log.KeepImage // and a result's images, for the chat read back
	}
	s.Conversations = conversation.Spawn(as.Root, deps)
	return s
}

// ResultPath is the file that keeps the whole result of call call of run
// run of conversation conv when the result limit cut it
// (store.DB.KeepResult); "" with no log.
func (s *System) ResultPath(conv, run, call string) string {
	if s == nil || s.db == nil {
		return ""
	}
	return s.db.ResultPath(conv, run, call)
}

// AddSecrets makes the conversations and the log remove these values too
// (a key typed into the settings).
func (s *System) AddSecrets(values ...string) {
	var v []string
	for _, x := range values {
		if x = strings.TrimSpace(x); x != "" {
			v = append(v, x)
		}
	}
	if len(v) == 0 {
		return
	}
	s.secrets.Add(v...)
	if s.Store != nil {
		s.Root.Send(s.Store, &writer.AddSecrets{Values: v})
	}
}

// Shutdown stops every actor and waits, within ctx, until every server
// connection is closed and every child process reaped.
func (s *System) Shutdown(ctx context.Context) error {
	// A second call (a deferred one after an explicit one) waits for the
	// first and returns what it did.
	s.shutOnce.Do(func() { s.shutErr = s.shutdown(ctx) })
	return s.shutErr
}

func (s *System) shutdown(ctx context.Context) error {
	// Deckhand is ending: its servers get a short grace, not the graceful
	// close of a server removed while Deckhand runs on.
	s.exitOnce.Do(func() { close(s.exiting) })
	if err := s.Root.StopFuture(s.Conversations).Wait(); err != nil {
		s.log.Warn("stopping conversations", "err", err)
	}
	if s.Store != nil {
		// A poison pill queues behind the events the conversations sent as
		// they stopped (a stop would jump the queue); stopping, the store
		// actor writes what it still holds.
		if err := s.Root.PoisonFuture(s.Store).Wait(); err != nil {
			s.log.Warn("stopping the log", "err", err)
		}
	}
	if err := s.Root.StopFuture(s.Servers).Wait(); err != nil {
		s.log.Warn("stopping servers", "err", err)
	}
	s.Root.Stop(s.Registry)
	done := make(chan struct{})
	go func() { s.conns.Wait(); close(done) }()
	defer s.as.Shutdown()
	defer s.commands.Close()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("waiting for servers to close: %w", ctx.Err())
	}
}

// ask sends msg to pid and waits for the answer within ctx.
func ask[T any](ctx context.Context, s *System, pid *actor.PID, msg any) (T, error) {
	var zero T
	timeout := 24 * time.Hour
	if d, ok := ctx.Deadline(); ok {
		timeout = time.Until(d)
		if timeout <= 0 {
			return zero, ctx.Err()
		}
	}
	f := s.Root.RequestFuture(pid, msg, timeout)
	type answer struct {
		v   any
		err error
	}
	ch := make(chan answer, 1)
	go func() {
		v, err := f.Result()
		ch <- answer{v, err}
	}()
	select {
	case <-ctx.Done():
		return zero, ctx.Err()
	case a := <-ch:
		if errors.Is(a.err, actor.ErrTimeout) {
			return zero, context.DeadlineExceeded
		}
		if a.err != nil {
			return zero, a.err
		}
		v, ok := a.v.(T)
		if !ok {
			return zero, fmt.Errorf("unexpected answer %T to %T", a.v, msg)
		}
		return v, nil
	}
}

// quietHandler moves protoactor's routine Info messages (system started,
// actor restarted) down to Debug, keeping warnings and errors as they are.
type quietHandler struct{ slog.Handler }

func (h quietHandler) Enabled(ctx context.Context, l slog.Level) bool {
	if l == slog.LevelInfo {
		l = slog.LevelDebug
	}
	return h.Handler.Enabled(ctx, l)
}

func (h quietHandler) Handle(ctx context.Context, r slog.Record) error {
	if r.Level == slog.LevelInfo {
		r.Level = slog.LevelDebug
	}
	return h.Handler.Handle(ctx, r)
}

func (h quietHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return quietHandler{h.Handler.WithAttrs(as)}
}

func (h quietHandler) WithGroup(name string) slog.Handler {
	return quietHandler{h.Handler.WithGroup(name)}
}

// offersShell reports whether a list of the built-in server's tools holds
// its shell.
func offersShell(tools []*sdk.Tool) bool {
	return slices.ContainsFunc(tools, func(t *sdk.Tool) bool { return t.Name == toolcall.ShellTool })
}
