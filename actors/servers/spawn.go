package servers

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/config"
	"deckhand/policy"
	"deckhand/redact"
	"deckhand/tools"
	"deckhand/transport/mcp"
)

// Options configure [Spawn]. MCP, Registry, Logger and Conns are required;
// the rest may be zero.
type Options struct {
	MCP config.MCP
	// Servers are connected at start (each enabled one at once), by alias.
	Servers map[string]config.Server
	// Registry is the registry the servers report their tools to
	// ([SpawnRegistry]).
	Registry *actor.PID
	Logger   *slog.Logger
	// Conns counts connections and connection attempts not yet finished;
	// shutting down waits for it.
	Conns *sync.WaitGroup

	// Version is Deckhand's version, sent to servers in the handshake.
	Version string
	// LookupEnv reads auth_env variables (nil: os.LookupEnv).
	LookupEnv func(string) (string, bool)
	Paths     *mcp.PathResolver
	// InProcess are servers that run inside Deckhand, by alias: each is
	// built (or handed over) by its func at each connection.
	InProcess map[string]func() (*sdk.Server, error)
	// NotLoaded say, by alias, which tools an in-process server left out
	// and why (the built-in server's definitions with mistakes): read
	// each time the server's tools are listed, shown with its tools and
	// told to the model that calls one.
	NotLoaded map[string]func() []tools.Rejected
	// Policy is the capability policy a connection starts under, read at
	// each connection (a change of config replaces it).
	Policy func() *policy.Policy
	// Exiting, once closed, says Deckhand is ending (mcp.Options.Exiting).
	Exiting <-chan struct{}

	// SignIn configures OAuth sign-in (signin.go); nil: the defaults.
	SignIn *SignInOptions
	// AddSecrets makes new tokens secrets.
	AddSecrets func(...string)
	// Store, if set, logs elicitations and egress decisions.
	Store *actor.PID
	// Secrets are removed from results, progress and errors as they leave
	// the server (line.go).
	Secrets *redact.Set
	// Cached are the tools of each server's last connection (from the
	// log), offered until the server lists its own. The map is the
	// servers actor's from Spawn on: it deletes a server's once listed.
	Cached map[string][]*sdk.Tool
	// SaveTools keeps a server's tools for the next start; nil without a
	// log.
	SaveTools func(alias string, tools []*sdk.Tool)
}

// SpawnRegistry starts the registry: it builds the merged tool catalog from
// what the servers list, observes pins, and swaps the catalog into r.
//
// Restart policy: resume. A panic (a bug) drops the message it happened in
// and the registry carries on with what it holds: that is what the servers
// told it, which a fresh registry would not know until each listed again
// (the catalog itself lives outside it, in r, and the pins in pins).
//
// It has a mailbox of its own (the default dispatcher): a sender (the
// window's UI thread, enabling a tool) never runs a catalog rebuild. A
// sender that needs what it sent applied before it reads the router asks
// the registry anything (GetCatalog) first: its mailbox is first in,
// first out.
func SpawnRegistry(root *actor.RootContext, log *slog.Logger, pins *Pins, r *Router) *actor.PID {
	return root.Spawn(actor.PropsFromProducer(func() actor.Actor { return newRegistry(log, pins, r) }, actor.WithGuardian(Resume)))
}

// Spawn starts the servers supervisor, which begins connecting every
// enabled server at once.
//
// Restart policies. A server's actor that panics is restarted with backoff
// (one-for-one, exponential from 500ms): it starts afresh and connects
// again, its calls in flight failed; nothing of it needs to survive, as
// its connection is remade and the registry keeps its entry (same PID).
// The supervisor itself resumes: a panic drops the message it happened in
// and keeps the servers it supervises and their statuses, which a restart
// would stop and forget.
func Spawn(root *actor.RootContext, o Options) *actor.PID {
	return root.Spawn(serversProps(o))
}

// serversProps are the servers supervisor's, with opts added (a test's
// middleware).
func serversProps(o Options, opts ...actor.PropsOption) *actor.Props {
	log := o.Logger
	deps := serverDeps{
		mcp:      o.MCP,
		registry: o.Registry,
		log:      log,
		conns:    o.Conns,
		workers:  newWorkers(time.Minute),
		dial: func(ctx context.Context, alias string, srv config.Server, hooks connHooks) (*mcp.Conn, error) {
			var inProcess *sdk.Server
			if build := o.InProcess[alias]; build != nil {
				var err error
				if inProcess, err = build(); err != nil {
					return nil, fmt.Errorf("starting the built-in server: %w", err)
				}
			}
			return mcp.Dial(ctx, alias, srv, mcp.Options{
				Logger:            log.With("server", alias),
				ClientVersion:     o.Version,
				LookupEnv:         o.LookupEnv,
				Paths:             o.Paths,
				OnToolsChanged:    hooks.toolsChanged,
				OnResourceUpdated: hooks.resourceUpdated,
				OnEgress:          hooks.egress,
				InProcess:         inProcess,
				Policy:            o.Policy(),
				Exiting:           o.Exiting,
				OnSecrets:         o.AddSecrets,
			})
		},
		notLoaded:  o.NotLoaded,
		signIn:     o.SignIn.WithDefaults(),
		store:      o.Store,
		secrets:    o.Secrets,
		addSecrets: o.AddSecrets,
		cached:     o.Cached,
		saveTools:  o.SaveTools,
	}
	servers := o.Servers
	return actor.PropsFromProducer(
		func() actor.Actor { return newServers(servers, deps) },
		append([]actor.PropsOption{
			actor.WithSupervisor(actor.NewExponentialBackoffStrategy(time.Minute, 500*time.Millisecond)),
			actor.WithGuardian(Resume),
		}, opts...)...,
	)
}

// Resume is the supervision of a long-lived top-level actor whose state is
// right whatever one message did: a panic drops that message (logged by
// protoactor) and the actor carries on, the same object with the same
// watchers. For the registry, the servers supervisor and the log's writer.
var Resume = actor.NewOneForOneStrategy(0, 0, func(any) actor.Directive { return actor.ResumeDirective })
