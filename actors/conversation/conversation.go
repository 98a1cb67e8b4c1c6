package conversation

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/asynkron/protoactor-go/actor"

	"deckhand/actors/servers"
	"deckhand/approval"
	"deckhand/config"
	"deckhand/keys"
	"deckhand/policy"
	"deckhand/redact"
	"deckhand/replay"
	"deckhand/request"
	"deckhand/tools"
	"deckhand/toolserver"
	"deckhand/transport/llm"
)

// A conversation is one chat: an actor that keeps what outlives a run (the
// history, the versions of each message, the session's grants, the tools
// loaded, the model chosen), queues the person's messages, and starts and
// stops runs. Each run is one goroutine (run.go) that owns the run's state
// and reads top to bottom: request, stream, check the calls, ask the gate,
// wait for the person, dispatch, collect, repeat. The actor hands the run
// the history at its start and takes it back at its end (runEnded); while
// a run is in progress, nothing here touches it. Its events (events.go) go
// to the watchers: the user actor (window or terminal) and the store actor.

// Commands to a conversation, from its user actor.
type (
	// UserMessage starts a run, or waits for the current one to end.
	// Attachments go to the model with Text (see userMessage).
	UserMessage struct {
		Text        string
		Attachments []Attachment
		// Tool, when set, is a call the person runs by hand instead of a
		// message to the model (byhand.go); Text is not used.
		Tool *ToolRun
	}
	// SetModel makes the conversation ask model Name from its next run on
	// ("": the configured model, which new and reopened conversations
	// start with). A run in progress keeps the model it started with, so
	// that its log and cost name one model.
	SetModel struct{ Name string }
	// StopRun cancels the run: the model request, tool calls in flight and
	// pending approvals. Messages queued behind it still run.
	StopRun struct{}
	// RetryNow ends the wait of run Run of Conversation before it asks
	// the model again after a refusal that may pass (a 429, a 503, a
	// server not yet listening): the next try goes at once, in the wait's
	// place. Try is the try it asks for, as the retry's Notice said: it is
	// dropped when that run is over, stopping, or not waiting for that try
	// (a click on a notice whose try went never cuts the next wait short).
	RetryNow struct {
		Conversation, Run string
		Try               int
	}
	// RemoveRun takes a finished run (the person's message and all that
	// followed it; Run "" is the last) out of the conversation: the model
	// no longer sees it, the window no longer shows it, and the log keeps
	// it marked removed. Resend runs the same message again in its place
	// (Retry: a NewVersion). Refused (a Notice) while a run is in
	// progress.
	RemoveRun struct {
		Run    string
		Resend bool
	}
	// WatchConversation adds a watcher of the conversation's events.
	WatchConversation struct{ PID *actor.PID }
)

// Attachment is a file the person attached to a message, read when it was
// attached. A text file (valid UTF-8) goes to the model in the message's
// text, fenced and named; an image (Type image/png, image/jpeg, image/gif
// or image/webp) as an image part. The window checks the limits.
type Attachment struct {
	Name string // the file's base name, one clean line
	Type string // its media type: "text/plain; charset=utf-8", "image/png"
	Data []byte
}

// Image reports whether the attachment goes to the model as an image.
func (at Attachment) Image() bool { return strings.HasPrefix(at.Type, "image/") }

// Info is what the log and the window keep of the attachment.
func (at Attachment) Info() AttachmentInfo {
	sum := sha256.Sum256(at.Data)
	return AttachmentInfo{Name: at.Name, Type: at.Type, Size: len(at.Data), SHA256: hex.EncodeToString(sum[:])}
}

// ConversationOptions start a conversation.
type ConversationOptions struct {
	ID       string
	Watchers []*actor.PID
	// Resumed continues a conversation from the log: History is what it
	// said, Grants its "for this session" approvals.
	Resumed bool
	History []llm.Message
	Runs    []RunMark // where History's runs begin
	Grants  approval.Grants
	// Loaded are the lazy tools (alias.tool) whose schemas the conversation
	// already gets.
	Loaded []string
	// Summary stands in for the turns before its run in the model's view
	// (compaction); nil when the conversation was never compacted.
	Summary *request.Summary
	// Tree is how the runs hang together (nil: one after the other, as
	// Runs); Stash the messages of the runs not in History, by run.
	Tree  *replay.Tree
	Stash map[string]RunMessages
	// Run is a call the person runs by hand as the conversation's first
	// run (the servers panel's Run: a chat of its own).
	Run *ToolRun
	// Tasks are the calls of a reopened session whose tasks may still run
	// on their servers (tasks.go).
	Tasks []PendingTask
}

// convDeps is what every conversation shares.
type convDeps struct {
	cfg       *config.Config
	client    *modelAccess
	lookupEnv func(string) (string, bool)
	// findKey finds the model's key after a refusal (nil: keys.Resolve);
	// it may block (the keyring): only runs call client.try.
	findKey KeyResolver
	// keyRead is told of a key read from the keyring or the key file.
	keyRead   func(keys.Key)
	registry  *actor.PID      // for the catalog's changes
	router    *servers.Router // where calls go
	validator *tools.Validator
	always    *approval.Always
	log       *slog.Logger
	// pins hold the tools' pinned definitions; nil: none are kept.
	pins *servers.Pins
	// secrets are removed from tool results: a tool that prints the model's
	// key or another server's token does not hand it to the model.
	secrets *redact.Set
	// onMessage, when set (by tests), sees each message first.
	onMessage func(any)
	// commands runs the CMD: route's commands, in sandboxes kept between
	// them (shared by every conversation).
	commands *toolserver.Runner
	// keep keeps a cut result whole for the person (Deps.KeepResult).
	keep func(conv, run, call, text string) error
	// keepImage keeps a result's image beside the log (Deps.KeepImage).
	keepImage func(conv string, data []byte) (string, error)
	// stream makes one model request (streamModel; a script in tests),
	// call one tool call (the router's Call; a stand-in in tests).
	stream streamFunc
	call   callFunc
}

type conversationActor struct {
	id       string
	deps     convDeps
	log      *slog.Logger
	watchers []*actor.PID
	// view is what a run reads of the actor's state as it changes (the
	// config, the catalog, the watchers): an immutable value, swapped whole.
	view    atomic.Pointer[view]
	history []llm.Message
	marks   []RunMark // where each run's messages begin in history
	// tree is how the runs hang together (versions.go; nil until needed);
	// stash holds the messages of the runs not on its path.
	tree  *replay.Tree
	stash map[string]RunMessages
	// conts are the runs that continued the answer of the run before
	// them (ContinueRun): they go with it.
	conts   map[string]bool
	grants  approval.Grants
	catalog *tools.Catalog
	surface *request.Surface // what of the catalog the model is offered
	loaded  *request.Loaded  // lazy tools whose schemas are sent, by display name
	summary *request.Summary // stands in for the first turns in the model's view (compaction)
	queue   []UserMessage
	// model is the model chosen for this conversation (SetModel); "" is
	// the configured one.
	model string
	// attached are the attachments of the runs in history, for Retry.
	attached map[string][]Attachment
	run      *runHandle // the run in progress; it owns history, grants and loaded until it ends
	runs     int
	// hasCatalog: the registry's catalog has arrived; until then messages
	// wait, so that the first request offers every tool already known.
	hasCatalog bool
	resumed    bool
	failed     bool       // an internal error ended it; it is stopping
	views      *viewCalls // calls from tools' views (viewcall.go); nil until one
	// tasks are the reopened session's tasks, followed once the catalog
	// has come (tasks.go); stopTasks ends their following.
	tasks     []PendingTask
	tasksCtx  context.Context
	stopTasks context.CancelFunc
}

// view is what a run reads of its conversation as it changes: never
// changed once published (the actor publishes a new one).
type view struct {
	cfg      *config.Config
	client   *modelAccess
	pol      *policy.Policy // the capability policy of cfg
	catalog  *tools.Catalog
	surface  *request.Surface
	watchers []*actor.PID
}

// runHandle is the actor's hold on the run in progress.
type runHandle struct {
	id       string
	cancel   context.CancelCauseFunc // nil: Stop; an error: the conversation failed
	failure  error                   // why the conversation failed, told once the run has ended
	now      chan int                // RetryNow, to the run's wait (buffer of one; the actor sends and drains)
	stopping bool                    // cancelled: its runEnded is on its way
}

// publish swaps in the view of the actor's state now.
func (a *conversationActor) publish() {
	v := &view{cfg: a.deps.cfg, client: a.deps.client, catalog: a.catalog, surface: a.surface, watchers: slices.Clone(a.watchers)}
	if old := a.view.Load(); old != nil && old.cfg == v.cfg {
		v.pol = old.pol
	} else {
		v.pol = policy.New(v.cfg, a.deps.lookupEnv)
	}
	a.view.Store(v)
}

func newConversation(opts ConversationOptions, deps convDeps) *conversationActor {
	grants := opts.Grants
	if grants == nil {
		grants = approval.Grants{}
	}
	loaded := request.NewLoaded(opts.Loaded...)
	a := &conversationActor{
		id:       opts.ID,
		deps:     deps,
		log:      deps.log.With("actor", "conversation", "conversation", opts.ID),
		watchers: slices.Clone(opts.Watchers),
		history:  slices.Clone(opts.History),
		marks:    slices.Clone(opts.Runs),
		tree:     opts.Tree,
		stash:    opts.Stash,
		grants:   grants,
		catalog:  tools.NewCatalog(nil),
		surface:  request.Plan(tools.NewCatalog(nil), deps.cfg),
		loaded:   loaded,
		summary:  opts.Summary,
		resumed:  opts.Resumed,
		tasks:    slices.Clone(opts.Tasks),
	}
	if opts.Run != nil {
		// It waits for the catalog, as a message does (hasCatalog).
		a.queue = append(a.queue, UserMessage{Tool: opts.Run})
	}
	a.publish()
	return a
}

func (a *conversationActor) Receive(c actor.Context) {
	defer a.recoverFailure(c)
	if a.failed {
		if m, ok := c.Message().(*runEnded); ok && a.run != nil && a.run.id == m.id {
			// The run failed with the conversation, and said so: now the
			// conversation is gone.
			a.emit(c, &ConversationFailed{Conversation: a.id, Err: a.run.failure})
			a.run = nil
			c.Stop(c.Self())
		}
		return
	}
	if a.deps.onMessage != nil {
		a.deps.onMessage(c.Message())
	}
	switch m := c.Message().(type) {
	case *actor.Started:
		c.Send(a.deps.registry, &servers.WatchCatalog{PID: c.Self()})
		a.emit(c, &ConversationOpened{Conversation: a.id, Model: a.deps.cfg.Model.Name, Resumed: a.resumed})
	case *servers.CatalogChanged:
		a.followTasks(c) // a reopened session's tasks, once their servers are known
		a.catalog = m.Catalog
		a.surface = request.Plan(m.Catalog, a.deps.cfg)
		a.publish()
		if !a.hasCatalog {
			// Messages that came before the first catalog waited for it.
			a.hasCatalog = true
			a.startQueued(c)
			for i, m := range a.queue {
				a.emit(c, &RunQueued{Conversation: a.id, Text: m.Text, Position: i + 1})
			}
		}
	case *WatchConversation:
		// Once per watcher: watching again (a window's bridge after a
		// restart) must not deliver every event twice.
		if !slices.ContainsFunc(a.watchers, m.PID.Equal) {
			a.watchers = append(a.watchers, m.PID)
			a.publish()
		}
	case *ConfigChanged:
		a.deps.cfg = m.Config
		a.deps.client = modelClient(m.Config.Model, a.deps.lookupEnv, a.deps.findKey, a.deps.keyRead)
		a.surface = request.Plan(a.catalog, m.Config)
		a.publish()
	case *UserMessage:
		switch {
		case a.run != nil:
			a.queue = append(a.queue, *m)
			// A stopped run is over for the person: the message is next,
			// as it would be had the run ended at once.
			if pos := a.queued(); pos > 0 {
				a.emit(c, &RunQueued{Conversation: a.id, Text: m.Text, Position: pos})
			}
		case !a.hasCatalog:
			a.queue = append(a.queue, *m) // for a moment: see hasCatalog
		case m.Tool != nil:
			a.startToolRun(c, m)
		default:
			a.startRun(c, m.Text, m.Attachments)
		}
	case *SetModel:
		a.model = strings.TrimSpace(m.Name)
	case *StopRun:
		a.stop()
	case *RetryNow:
		a.retryNow(m)
	case *RemoveRun:
		if m.Resend {
			a.newVersion(c, m.Run, "")
			break
		}
		a.removeRun(c, m.Run)
	case *NewVersion:
		a.newVersion(c, m.Run, m.Text)
	case *ChooseVersion:
		a.chooseVersion(c, m.Run)
	case *ContinueRun:
		a.continueRun(c)
	case *CallFromView:
		a.callFromView(c, m)
	case *viewGranted:
		a.viewGrant(m)
	case *runEnded:
		a.ended(c, m)
	case *taskFollowed:
		a.taskEnded(c, m)
	case *actor.Stopping:
		if a.stopTasks != nil {
			a.stopTasks()
		}
		a.stopViewCalls()
		a.stop()
	}
}

// queued is the position of the last queued message once the run in
// progress is over (0: it starts next, after a stopped run).
func (a *conversationActor) queued() int {
	if a.run != nil && a.run.stopping {
		return len(a.queue) - 1
	}
	return len(a.queue)
}

func (a *conversationActor) emit(c actor.Context, msg any) {
	for _, w := range a.watchers {
		c.Send(w, msg)
	}
}

// recoverFailure turns a panic in Receive (a bug) into a visible failure:
// the run in flight is stopped, the watchers hear that the conversation is
// gone, and it stops. A silent restart would lose the history and pretend
// nothing happened; the log still holds every event recorded before, so
// the person can reopen the session from it.
func (a *conversationActor) recoverFailure(c actor.Context) {
	p := recover()
	if p == nil {
		return
	}
	err := fmt.Errorf("internal error in the conversation: %v", p)
	a.log.Error("conversation failed", "err", err, "stack", string(debug.Stack()))
	a.fail(c, err)
}

// fail ends the conversation on an internal error (its own, or its
// run's). A run in progress fails with it first (its RunFinished carries
// the error): the watchers hear ConversationFailed once it has ended.
func (a *conversationActor) fail(c actor.Context, err error) {
	a.failed = true
	if r := a.run; r != nil {
		r.failure = err
		r.cancel(err)
		return
	}
	a.emit(c, &ConversationFailed{Conversation: a.id, Err: err})
	c.Stop(c.Self())
}

// cost is what usage costs at the price configured for model, input read
// from or written to the prompt cache at its own price (config.Price.CostCached).
func cost(cfg *config.Config, model string, u llm.Usage) float64 {
	return cfg.Model.PriceFor(model).CostCached(u.PromptTokens, u.CompletionTokens, u.CacheReadTokens, u.CacheWriteTokens)
}

// modelName is the model the next run asks: the one chosen for this
// conversation, else the configured one.
func (a *conversationActor) modelName() string {
	if a.model != "" {
		return a.model
	}
	return a.deps.cfg.Model.Name
}

// ErrNoModel is the answer to a message when no model is configured.
var ErrNoModel = errors.New("no model is configured: set [model] base_url and name in the config (see the README)")

// markOf is the index in marks of run id ("": the last run); when it is
// gone, the person is told so and ok is false.
func (a *conversationActor) markOf(c actor.Context, id string) (i int, ok bool) {
	i = len(a.marks) - 1
	if id != "" {
		i = slices.IndexFunc(a.marks, func(m RunMark) bool { return m.Run == id })
	}
	if i < 0 {
		a.emit(c, &Notice{Conversation: a.id, Text: "That message is no longer in this conversation."})
		return 0, false
	}
	return i, true
}

// removeRun takes run id (or the last run) out of the history.
func (a *conversationActor) removeRun(c actor.Context, id string) {
	if a.run != nil || len(a.queue) > 0 {
		a.emit(c, &Notice{Conversation: a.id, Text: "A message cannot be removed while an answer is being written: stop it first."})
		return
	}
	i, ok := a.markOf(c, id)
	if !ok {
		return
	}
	t := a.versions() // made from the marks before they change
	// The run goes, and with it the runs that continued its answer.
	for first := true; i < len(a.marks) && (first || a.conts[a.marks[i].Run]); first = false {
		m := a.marks[i]
		end := len(a.history)
		if i+1 < len(a.marks) {
			end = a.marks[i+1].At
		}
		a.history = slices.Delete(a.history, min(m.At, len(a.history)), min(end, len(a.history)))
		a.marks = slices.Delete(a.marks, i, i+1)
		for j := i; j < len(a.marks); j++ {
			a.marks[j].At -= end - m.At
		}
		t.Remove(m.Run)
		a.emit(c, &RunRemoved{Conversation: a.id, Run: m.Run, Text: m.Text})
		delete(a.attached, m.Run)
	}
	// What followed it follows its parent now; a branch of versions that
	// hung on it may come to show.
	if path := t.Path(); !slices.Equal(path, runsOf(a.marks)) {
		a.relay(path)
		a.emit(c, &VersionChosen{Conversation: a.id, Path: path, Versions: t.AllVersions()})
	}
}

func runsOf(marks []RunMark) []string {
	out := make([]string, len(marks))
	for i, m := range marks {
		out[i] = m.Run
	}
	return out
}
