package conversation

import (
	"log/slog"

	"github.com/asynkron/protoactor-go/actor"

	"deckhand/actors/servers"
	"deckhand/approval"
	"deckhand/config"
	"deckhand/keys"
	"deckhand/redact"
	"deckhand/tools"
	"deckhand/toolserver"
)

// Deps are what every conversation shares, given by the tree that starts
// them ([Spawn]). Config, Registry, Router and Always are required.
type Deps struct {
	Config *config.Config
	// LookupEnv reads the model's api_key_env (nil: os.LookupEnv).
	LookupEnv func(string) (string, bool)
	// FindKey finds the model's API key once the model refused a request
	// without one (nil: keys.Resolve, the environment then the keyring).
	// It may block; it is called off the conversations' Receive.
	FindKey KeyResolver
	// KeyRead, if set, is told of a key read from the keyring or the key
	// file (after a refusal), so that it joins the secrets.
	KeyRead  func(keys.Key)
	Registry *actor.PID      // watched for the catalog's changes
	Router   *servers.Router // where calls go
	// Pins hold the tools' pinned definitions; nil: none are kept.
	Pins *servers.Pins
	// Secrets are removed from tool results: a tool that prints the
	// model's key or another server's token does not hand it to the model.
	Secrets *redact.Set
	// Always are the "always allow" grants every conversation shares.
	Always *approval.Always
	// Commands runs the CMD: route's commands, in sandboxes kept between
	// them (shared by every conversation).
	Commands *toolserver.Runner
	Logger   *slog.Logger
	// Log, if set, is the store actor: it watches every conversation.
	Log *actor.PID
	// KeepResult, if set, keeps a call's whole result (secrets removed)
	// for the person when the result limit cut what the model was given
	// (store.DB.KeepResult): a card offers to save it. Nil: only the part
	// the model saw is kept, and the card says so.
	KeepResult func(conv, run, call, text string) error
	// KeepImage, if set, keeps an image of a call's result beside the log
	// and returns its hex SHA-256 (store.DB.KeepImage), for a chat read
	// back from the log to show it. Nil: the log names it alone.
	KeepImage func(conv string, data []byte) (string, error)
	// OnMessage, when set (by tests), sees every message of every
	// conversation first.
	OnMessage func(any)
}

// Spawn starts the conversations supervisor (one-for-one): it opens a
// conversation for each StartConversation and passes ConfigChanged on.
//
// Restart policies. A conversation is stopped, never restarted: one that
// panics fails its run visibly and stops itself (recoverFailure), and the
// supervisor stops any that fails otherwise; a restart would forget the
// history and pretend nothing happened, while the log holds every event to
// reopen it from. A panic on a run's goroutine (a bug) is
// recovered there and ends the run with the error (run.loop), which fails
// the conversation. The supervisor itself resumes
// (servers.Resume): a panic drops that message and keeps the open
// conversations, which a restart would stop.
func Spawn(root *actor.RootContext, d Deps) *actor.PID {
	cd := convDeps{
		secrets:   d.Secrets,
		pins:      d.Pins,
		cfg:       d.Config,
		client:    modelClient(d.Config.Model, d.LookupEnv, d.FindKey, d.KeyRead),
		lookupEnv: d.LookupEnv,
		findKey:   d.FindKey,
		keyRead:   d.KeyRead,
		registry:  d.Registry,
		router:    d.Router,
		validator: tools.NewValidator(1024),
		always:    d.Always,
		log:       d.Logger,
		onMessage: d.OnMessage,
		commands:  d.Commands,
		keep:      d.KeepResult,
		keepImage: d.KeepImage,
		stream:    streamModel,
	}
	store := d.Log
	return root.Spawn(actor.PropsFromProducer(
		func() actor.Actor { return &conversationsActor{deps: cd, log: store} },
		actor.WithSupervisor(actor.NewOneForOneStrategy(0, 0, func(any) actor.Directive { return actor.StopDirective })),
		actor.WithGuardian(servers.Resume),
	))
}
