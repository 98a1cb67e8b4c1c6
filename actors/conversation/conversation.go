package conversation

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"deckhand/actors/servers"
	"deckhand/approval"
	"deckhand/config"
	"deckhand/policy"
	"deckhand/redact"
	"deckhand/replay"
	"deckhand/request"
	"deckhand/toolcall"
	"deckhand/tools"
	"deckhand/toolserver"
	"deckhand/transport/llm"
)

// A conversation is the tool loop of one chat: it sends the history to the
// model (through a stream actor per request), puts each tool call the model
// asks for through the gate (asking its watchers when no rule or grant
// allows it), dispatches the allowed ones through the registry, and sends
// the results back to the model until it answers without calls. Its events
// (conversation_events.go) go to its watchers: the user actor (window or
// terminal) and the store actor. The decisions along the way are plain
// functions of packages request, toolcall and approval; this actor holds the
// state and the order of things. Runs are in conversation_run.go, calls in
// conversation_calls.go.

// Commands to a conversation, from its user actor.
type (
	// UserMessage starts a run, or waits for the current one to end.
	// Attachments go to the model with Text (see userMessage).
	UserMessage struct {
		Text        string
		Attachments []Attachment
	}
	// SetModel makes the conversation ask model Name from its next run on
	// ("": the configured model, which new and reopened conversations
	// start with). A run in progress keeps the model it started with, so
	// that its log and cost name one model.
	SetModel struct{ Name string }
	// StopRun cancels the run: the model request, tool calls in flight and
	// pending approvals. Messages queued behind it still run.
	StopRun struct{}
	// ApprovalAnswer answers an ApprovalRequested. Reason, if set, says
	// why no person answered ("--approve=auto"; for a deny, the model
	// hears it); "" or approval.Answered is a person's answer.
	ApprovalAnswer struct {
		ID     string
		Answer approval.Answer
		Reason approval.Reason
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

// Internal continuations.
type (
	approvalTimedOut struct{ run, id string }
	execDone         struct {
		run, call, output string
		failed            bool
	}
)

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
	// Tree is how the runs hang together (nil: one after the other, as
	// Runs); Stash the messages of the runs not in History, by run.
	Tree  *replay.Tree
	Stash map[string]RunMessages
}

// convDeps is what every conversation shares.
type convDeps struct {
	cfg       *config.Config
	client    func() (*llm.Client, error)
	lookupEnv func(string) (string, bool)
	// findKey finds the model's key (nil: keys.Resolve); client may
	// block on it (the keyring): only stream actors call client.
	findKey   KeyResolver
	registry  *actor.PID      // for the catalog's changes
	router    *servers.Router // where calls go
	validator *tools.Validator
	always    approval.Always
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
}

type conversationActor struct {
	id       string
	deps     convDeps
	log      *slog.Logger
	watchers []*actor.PID
	history  []llm.Message
	marks    []RunMark // where each run's messages begin in history
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
	loaded  map[string]bool  // lazy tools whose schemas are sent, by display name
	// pol is the capability policy of polFor (deps.cfg when it was made).
	pol    *policy.Policy
	polFor *config.Config
	queue  []UserMessage
	// model is the model chosen for this conversation (SetModel); "" is
	// the configured one.
	model string
	// attached are the attachments of the runs in history, for Retry.
	attached map[string][]Attachment
	run      *runState
	runs     int
	requests int // model requests so far: tags stream reports, so that a late one from a stopped run is dropped
	// hasCatalog: the registry's catalog has arrived; until then messages
	// wait, so that the first request offers every tool already known.
	hasCatalog bool
	resumed    bool
	failed     bool // an internal error ended it; it is stopping
}

// runState is the run in progress: from the person's message to the model's
// last answer.
type runState struct {
	id        string
	model     string          // what this run asks, from its start to its end
	ctx       context.Context // tool calls and commands; cancelled by StopRun
	cancel    context.CancelFunc
	depth     int // tool rounds so far
	requests  int
	usage     llm.Usage
	estimated bool // some usage was estimated
	// promptEstimate is the current request's estimated size, for when the
	// server reports no usage.
	promptEstimate int
	seq            int
	stream         *actor.PID // the model request in flight, if any
	text           strings.Builder
	lastText       string
	calls          []*callState // of the current turn, tool calls then CMD: lines
	segment        []*callState // being decided or run
	asking         *callState
}

// callState is one call of the current turn, from the model's request to
// its result.
type callState struct {
	id         string // the model's call id, or "cmd-N"
	tool       tools.Tool
	command    string // for CMD: lines
	args       json.RawMessage
	req        approval.Request
	decided    bool
	allowed    bool
	running    bool
	done       bool
	output     string
	media      *tools.Media  // the result's images and links, for the window
	inServer   time.Duration // ToolCallFinished.ServerElapsed
	isError    bool
	denied     bool
	askID      string
	denyReason approval.Reason // when not the person's own no: a timeout, no terminal
	local      bool            // Deckhand's own tool_search, answered in prepare
	// decisions are the capability policy's, made in prepare; a denied one
	// refuses the call before the gate.
	decisions []policy.Decision
	timer     *time.Timer
	start     time.Time
}

func (cs *callState) isCommand() bool { return cs.command != "" }

func newConversation(opts ConversationOptions, deps convDeps) *conversationActor {
	grants := opts.Grants
	if grants == nil {
		grants = approval.Grants{}
	}
	loaded := map[string]bool{}
	for _, name := range opts.Loaded {
		loaded[name] = true
	}
	return &conversationActor{
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
		resumed:  opts.Resumed,
	}
}

func (a *conversationActor) Receive(c actor.Context) {
	defer a.recoverFailure(c)
	if a.failed {
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
		a.catalog = m.Catalog
		a.surface = request.Plan(m.Catalog, a.deps.cfg)
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
		}
	case *ConfigChanged:
		a.deps.cfg = m.Config
		a.deps.client = modelClient(m.Config.Model, a.deps.lookupEnv, a.deps.findKey)
		a.surface = request.Plan(a.catalog, m.Config)
	case *UserMessage:
		switch {
		case a.run != nil:
			a.queue = append(a.queue, *m)
			a.emit(c, &RunQueued{Conversation: a.id, Text: m.Text, Position: len(a.queue)})
		case !a.hasCatalog:
			a.queue = append(a.queue, *m) // for a moment: see hasCatalog
		default:
			a.startRun(c, m.Text, m.Attachments)
		}
	case *SetModel:
		a.model = strings.TrimSpace(m.Name)
	case *StopRun:
		a.stop(c)
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
	case *streamText:
		if r := a.run; r != nil && m.seq == r.seq {
			r.text.WriteString(m.text)
			a.emit(c, &AssistantDelta{Conversation: a.id, Run: r.id, Text: m.text, Reasoning: m.reasoning})
		}
	case *streamRetrying:
		if r := a.run; r != nil && m.seq == r.seq {
			a.emit(c, &Notice{Conversation: a.id, Run: r.id, Text: retryNotice(m)})
		}
	case *streamDone:
		if r := a.run; r != nil && m.seq == r.seq {
			c.Stop(r.stream)
			r.stream = nil
			a.onTurn(c, m.turn, m.err)
		}
	case *ApprovalAnswer:
		reason := m.Reason
		if reason.IsAnswered() {
			reason = approval.Answered // what ApprovalClosed says
		}
		a.answered(c, m.ID, m.Answer, reason)
	case *approvalTimedOut:
		if r := a.run; r != nil && r.id == m.run {
			a.answered(c, m.id, approval.Deny, approval.TimedOut(a.deps.cfg.MCP.ApprovalTimeout))
		}
	case *servers.ToolProgress:
		if cs := a.callByResultID(m.ID); cs != nil {
			p := m.Progress
			p.Message = a.deps.secrets.Get().String(p.Message)
			a.emit(c, &ToolCallProgress{Conversation: a.id, Run: a.run.id, Call: cs.id, Tool: cs.req.Display, Progress: p})
		}
	case *servers.ToolResult:
		if cs := a.callByResultID(m.ID); cs != nil && cs.running {
			output, isError := toolcall.Output(m.Result, m.Err, toolcall.Limit(a.deps.cfg.MCP.MaxOutputBytes, a.deps.cfg.Model.MaxContextTokens))
			if m.Err == nil {
				cs.media = tools.ResultMedia(m.Result).Map(a.deps.secrets.Get().String)
			}
			cs.inServer = m.Elapsed
			a.finishCall(c, cs, a.deps.secrets.Get().String(output), isError, false)
			a.process(c)
		}
	case *execDone:
		if r := a.run; r != nil && r.id == m.run {
			for _, cs := range r.calls {
				if cs.id == m.call && cs.running {
					a.finishCall(c, cs, a.deps.secrets.Get().String(m.output), m.failed, false)
				}
			}
			a.process(c)
		}
	case *actor.Stopping:
		if a.run != nil {
			a.stop(c)
		}
	}
}

func (a *conversationActor) emit(c actor.Context, msg any) {
	for _, w := range a.watchers {
		c.Send(w, msg)
	}
}

// recoverFailure turns a panic in Receive (a bug) into a visible failure:
// the run in flight fails with the error, the watchers hear that the
// conversation is gone, and it stops. A silent restart would lose the
// history and pretend nothing happened; the log still holds every event
// recorded before, so the person can reopen the session from it.
func (a *conversationActor) recoverFailure(c actor.Context) {
	p := recover()
	if p == nil {
		return
	}
	a.failed = true
	err := fmt.Errorf("internal error in the conversation: %v", p)
	a.log.Error("conversation failed", "err", err, "stack", string(debug.Stack()))
	if r := a.run; r != nil {
		a.run = nil
		r.cancel()
		if r.stream != nil {
			c.Stop(r.stream)
		}
		if cs := r.asking; cs != nil && cs.timer != nil {
			cs.timer.Stop()
			a.emit(c, &ApprovalClosed{Conversation: a.id, ID: cs.askID, Answer: approval.Deny, Reason: "the conversation failed"})
		}
		for _, cs := range r.calls {
			if cs.running && !cs.isCommand() {
				a.deps.router.Cancel(c.ActorSystem().Root, r.id+"/"+cs.id, cs.tool.Display)
			}
		}
		a.emit(c, &RunFinished{Conversation: a.id, Run: r.id, Text: r.lastText, Err: err, Usage: r.usage,
			Estimated: r.estimated, Requests: r.requests, CostUSD: a.cost(r.model, r.usage)})
	}
	a.emit(c, &ConversationFailed{Conversation: a.id, Err: err})
	c.Stop(c.Self())
}

// cost is what usage costs at the price configured for model, input read
// from or written to the prompt cache at its own price (config.Price.CostCached).
func (a *conversationActor) cost(model string, u llm.Usage) float64 {
	return a.deps.cfg.Model.PriceFor(model).CostCached(u.PromptTokens, u.CompletionTokens, u.CacheReadTokens, u.CacheWriteTokens)
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
