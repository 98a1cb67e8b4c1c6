package gui

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"deckhand/actors"
	"deckhand/actors/conversation"
	"deckhand/actors/servers"
	"deckhand/actors/writer"
	"deckhand/config"
	"deckhand/gui/appview"
	"deckhand/gui/chat"
	"deckhand/gui/composer"
	"deckhand/gui/dialogs"
	serverspanel "deckhand/gui/servers"
	"deckhand/gui/sidebar"
	"deckhand/gui/tray"
	"deckhand/gui/widgets"
	"deckhand/store"
	"deckhand/tools"
	"deckhand/transcript"
	"deckhand/transport/llm"
)

// frame is how often the bridge hands changes to the window: at most one
// fyne.Do per frame, however many deltas arrived.
const frame = 16 * time.Millisecond

// Messages from the window to the bridge. The window never touches actor
// state; it asks.
type (
	uiSend          struct{ text string }
	uiStop          struct{}
	uiNewChat       struct{}
	uiOpenSession   struct{ id string }
	uiQuickPrompt   struct{ text string }
	uiQuickToMain   struct{}
	uiQuickRetryNow struct {
		run string
		try int
	}
	uiConfigChanged struct{ cfg *config.Config }
	uiRefresh       struct{} // sessions may have changed on disk
)

// Continuations of the bridge's own background work.
type (
	flushFrame     struct{}
	sessionsLoaded struct {
		list []store.Session
		err  error
	}
	sessionLoaded struct {
		id     string
		events []store.Event
		err    error
		reopen bool // a conversation that failed, read back to go on
		// breaks: where the session's record was changed outside
		// Deckhand (store.VerifySession).
		breaks []store.Break
		// tr is the session's transcript, built from events where they
		// were read, its tools' images read back from their files
		// (readBack): file reads stay out of the bridge's Receive.
		tr *transcript.Transcript
	}
	serverCommandFailed struct{ err error }
	// bridgeDo runs f in the bridge (tests: a message that panics).
	bridgeDo func(b *bridge, c actor.Context)
)

// convState is one open conversation as the window sees it.
type convState struct {
	id       string
	pid      *actor.PID
	tr       *transcript.Transcript
	running  bool
	title    string
	usage    store.Usage // from the log, plus runs finished since
	quick    bool        // the quick prompt's conversation
	answer   strings.Builder
	queued   []string // messages sent before the conversation started
	starting bool
	result   string         // how the last run ended, for the quick prompt
	retrying *tray.Retrying // the run waits to ask the model again (for the quick prompt); nil: it does not
	failure  string         // why its last run failed, for the quick prompt; "" when it did not
	behind   int            // messages queued behind the run (RunQueued), for the quick prompt
	lastRun  string         // the status of its last run here (store.RunRunning, …); "" before one
	failed   bool           // its actor failed: the next message reopens it from the log
	model    string         // the model of its run in progress (or last), for its answers' info
	// cut: the run's last answer broke off with text kept (the stream
	// dropped, stalled or ended early), until the run finishes.
	cut bool
	// silent: how long the model has sent nothing while it answers
	// (conversation.ModelSilent); 0 while it sends, or no answer streams.
	silent time.Duration
}

// unsent reports whether the person has not said anything in this
// conversation yet: it is not a session until they do.
func (cs *convState) unsent() bool {
	return cs.title == "" && len(cs.queued) == 0 && cs.tr.Len() == 0
}

// bridge is the window's user actor: it receives the conversations', the
// servers' and the registry's events, keeps the view state (transcripts,
// server states, the approval queue), and hands the changes to the window
// once a frame, on the UI goroutine. It never touches a widget.
type bridge struct {
	ui  *UI
	sys *actors.System
	db  *store.DB
	cfg *config.Config

	convs   map[string]*convState
	current string
	quick   string

	servers      map[string]servers.ServerStatus
	serversDirty bool
	catalog      *tools.Catalog
	catalogDirty bool
	sessions     []store.Session
	sessDirty    bool
	approvals    []*conversation.ApprovalRequested
	apprDirty    bool
	timedOut     []string // approvals gone from the list since the last frame because nobody answered in time
	reset        bool     // the current conversation changed: redraw all its rows
	statusDirty  bool
	quickDirty   bool
	notices      []string // errors to show the person once
	logFailing   bool     // the log cannot be written (LogFailed)

	deleting map[string]string // chats to delete once their run stops: their titles (sidebar_bridge.go)

	timer *time.Timer

	begun    bool // its first start is done: a restart keeps what it holds
	restarts int

	idle idleConvs       // for closing idle conversations (conversations_idle.go)
	side sidebarSearch   // the sidebar's search (sidebar_bridge.go)
	comp *composerBridge // the models chosen (composer_bridge.go)

	// What the window shows of the current conversation.
	shownRows    int
	shownRunning bool
	shownBusy    []string // the chats with a run going, as last told (quit.go)
}

func (b *bridge) Receive(c actor.Context) {
	b.ui.views.Hear(c.Message()) // the tools' views open follow their cards (gui/appview)
	switch m := c.Message().(type) {
	case *actor.Restarting:
		// A panic in a message: the supervisor restarts the bridge with
		// the same object. What it holds (the open chats, the servers'
		// states) is still right; only the message that panicked is lost.
		b.restarts++
	case *actor.Started:
		if b.begun {
			// Restarted: its watches still stand (same PID), and asking
			// again would deliver every event twice. Redraw everything.
			b.reset, b.serversDirty, b.catalogDirty, b.sessDirty, b.apprDirty, b.statusDirty = true, true, true, true, true, true
			b.notices = append(b.notices, "Something went wrong in the window (it was logged); the chats and servers carry on.")
			b.schedule(c)
			return
		}
		b.begun = true
		b.convs = map[string]*convState{}
		b.servers = map[string]servers.ServerStatus{}
		c.Send(b.sys.Servers, &servers.WatchServers{PID: c.Self()})
		c.Send(b.sys.Registry, &servers.WatchCatalog{PID: c.Self()})
		if b.sys.Store != nil {
			c.Send(b.sys.Store, &writer.WatchLog{Watcher: c.Self()})
		}
		b.loadSessions(c)
		b.newChat(c, false)
	case *flushFrame:
		b.timer = nil
		b.flush()
		return
	case bridgeDo:
		m(b, c)

	// From the window.
	case *uiSend:
		b.send(c, b.current, m.text)
	case *uiStop:
		if cs := b.convs[b.current]; cs != nil && cs.pid != nil {
			c.Send(cs.pid, &conversation.StopRun{})
		}
	case *uiNewChat:
		b.newChat(c, false)
	case *uiOpenSession:
		b.open(c, m.id)
	case *uiQuickPrompt:
		if b.quick == "" || b.convs[b.quick] == nil {
			b.quick = b.newChat(c, true)
		}
		cs := b.convs[b.quick]
		cs.answer.Reset()
		cs.failure = "" // the run before's, said no more under the new question
		b.quickDirty = true
		b.send(c, b.quick, m.text)
	case *uiQuickRetryNow:
		if cs := b.convs[b.quick]; cs != nil && cs.pid != nil {
			// The conversation drops it if that run no longer waits for
			// that try.
			c.Send(cs.pid, &conversation.RetryNow{Conversation: cs.id, Run: m.run, Try: m.try})
		}
	case *uiQuickToMain:
		if cs := b.convs[b.quick]; cs != nil {
			cs.quick = false // a session like the others now, in the sidebar
			b.show(b.quick)
			b.quick = "" // the next quick prompt starts a session of its own
		}
	case *chat.FindElsewhere:
		b.findElsewhere(c, m) // chat_bridge.go
	case *chat.Expand, *chat.Collapse, *chat.RunAction, *appview.ViewCall, *appview.ReadCard, *appview.Propose, *appview.Notice:
		b.chatMessage(c, m) // chat_bridge.go
	case serverspanel.Ask:
		b.serversAsk(c, m) // servers_bridge.go
	case *serverCommandFailed:
		b.notices = append(b.notices, m.err.Error())
	case *uiConfigChanged:
		b.cfg = m.cfg
		b.sys.UpdateConfig(m.cfg)
		// The open conversations hear of it from the bridge too, before any
		// message the person sends next: through the conversations'
		// supervisor alone, a message sent right after saving could reach
		// a conversation first and be answered with the old settings.
		for _, cs := range b.convs {
			if cs.pid != nil {
				c.Send(cs.pid, &conversation.ConfigChanged{Config: m.cfg})
			}
		}
		b.statusDirty = true
	case *uiRefresh:
		b.loadSessions(c)
	case sidebar.Ask:
		b.sidebarAsk(c, m)
	case sidebarMsg:
		m.handleSidebar(b, c)
	case settingsMsg:
		m.handle(b, c)
	case composerMsg:
		m.handleComposer(b, c)
	case *composer.SetModel:
		b.setModel(c, m) // composer_bridge.go
	case *servers.ResourceUpdated:
		b.resourceUpdated(m) // an attached resource changed (resources_bridge.go)
	case *dialogs.QuestionAnswer:
		answerQuestion(b, c, m) // elicit_bridge.go

	// Background work.
	case *sessionsLoaded:
		if m.err != nil {
			b.notices = append(b.notices, "Could not read the sessions: "+m.err.Error())
		} else {
			b.sessions, b.sessDirty = m.list, true
		}
	case *sessionLoaded:
		b.opened(c, m)
	case *conversation.ConversationStarted:
		b.started(c, m)
	case *conversation.ConversationOpened:
		b.composerOpened(c, m)
	case *conversation.RunStarted:
		b.composerRunStarted(c, m)

	// From the servers and the registry.
	case *servers.ServerStatus:
		if m.State == servers.StateStopped && m.Reason == "removed" {
			if _, configured := b.cfg.MCP.Servers[m.Alias]; configured {
				// Disconnected on request: it can be connected again.
				st := *m
				st.Reason = "disconnected"
				b.servers[m.Alias] = st
			} else {
				delete(b.servers, m.Alias)
			}
		} else {
			b.servers[m.Alias] = *m
		}
		b.serversDirty, b.statusDirty = true, true
	case *servers.CatalogChanged:
		b.catalog, b.catalogDirty = m.Catalog, true
	case *servers.ElicitationRequested, *servers.ElicitationClosed:
		b.elicitEvent(m) // servers' questions (elicit_bridge.go)

	default:
		b.conversationEvent(c, m)
	}
	b.closeIdle(c)
	b.schedule(c)
}

// schedule asks for a frame, if none is pending.
func (b *bridge) schedule(c actor.Context) {
	if b.timer == nil {
		self, root := c.Self(), c.ActorSystem().Root
		b.timer = time.AfterFunc(frame, func() { root.Send(self, &flushFrame{}) })
	}
}

// conversationEvent applies one conversation's event to its transcript.
func (b *bridge) conversationEvent(c actor.Context, msg any) {
	now := time.Now()
	conv := func(id string) *convState {
		cs := b.convs[id]
		if cs != nil && id == b.current {
			b.statusDirty = true
		}
		b.quickDirty = b.quickDirty || cs != nil && cs.quick // its tool calls show there too
		return cs
	}
	switch m := msg.(type) {
	case *conversation.RunStarted:
		if cs := conv(m.Conversation); cs != nil {
			cs.running, cs.lastRun, cs.model = true, store.RunRunning, m.Model
			cs.failure = ""
			if cs.behind > 0 {
				cs.behind--
			}
			b.quickDirty = b.quickDirty || cs.quick
			b.sessDirty = true
			cs.tr.Calls()
			if m.Continues != "" {
				cs.tr.Continue(m.Run) // the answer goes on in place
				b.reset = b.reset || m.Conversation == b.current
				break
			}
			cs.tr.StartRun(m.Run)
			cs.tr.User(m.Text, now)
			if cs.title == "" {
				cs.title = store.TitleOf(m.Text)
				b.sessDirty = true
			}
		}
	case *conversation.RunQueued:
		if cs := conv(m.Conversation); cs != nil {
			cs.tr.Note(fmt.Sprintf("Waiting: %q runs after the current answer.", widgets.Shorten(m.Text, 60)), false)
			cs.behind++
			b.quickDirty = b.quickDirty || cs.quick
		}
	case *conversation.ModelSilent:
		if cs := conv(m.Conversation); cs != nil {
			cs.silent = 0
			if cs.running {
				cs.silent = m.For
			}
		}
	case *conversation.AssistantDelta:
		if cs := conv(m.Conversation); cs != nil {
			cs.silent = 0
			cs.tr.Delta(m.Text, now)
			if cs.quick {
				cs.answer.WriteString(m.Text)
				b.quickDirty = true
			}
		}
	case *conversation.AssistantMessage:
		if cs := conv(m.Conversation); cs != nil {
			cs.tr.Assistant(m.Text, now)
			cs.cut = m.Incomplete && m.Text != ""
			if m.Text != "" {
				cs.tr.SetInfo(cs.model, m.Usage.PromptTokens, m.Usage.CompletionTokens, m.Estimated, time.Time{}, now)
			}
			if cs.quick && cs.answer.String() != m.Text && m.Text != "" {
				cs.answer.Reset()
				cs.answer.WriteString(m.Text)
				b.quickDirty = true
			}
		}
	case *conversation.ToolCallRequested:
		if cs := conv(m.Conversation); cs != nil {
			cs.tr.ToolRequested(m.Call, m.Tool, m.Arguments)
		}
	case *conversation.ToolCallStarted:
		if cs := conv(m.Conversation); cs != nil {
			cs.tr.ToolStarted(m.Call, m.Tool, m.Arguments)
		}
	case *conversation.ToolCallProgress:
		if cs := conv(m.Conversation); cs != nil {
			cs.tr.ToolProgress(m.Call, m.Progress.Progress, m.Progress.Total, m.Progress.Message)
		}
	case *conversation.ToolCallFinished:
		if cs := conv(m.Conversation); cs != nil {
			cs.tr.ToolFinished(m.Call, m.Tool, m.Arguments, m.Output, m.IsError, m.Denied, m.Elapsed)
			cs.tr.ToolMedia(m.Call, m.Media)
			cs.tr.ToolCut(m.Call, m.Cut)
			cs.tr.ToolStructured(m.Call, m.Structured, m.Meta)
			if m.Cancelled {
				cs.tr.ToolCancelled(m.Call)
			}
		}
	case *conversation.ViewCallFinished:
		if cs := conv(m.Conversation); cs != nil && cs.tr.ViewCall(m.Call, m.Tool, m.Origin, m.Arguments, m.Output, m.IsError, m.Denied, m.Refused) {
			b.reset = b.reset || m.Conversation == b.current // the answer streaming moved down
		}
	case *conversation.RunRemoved:
		if cs := conv(m.Conversation); cs != nil {
			b.runRemoved(cs, m)
		}
	case *conversation.VersionChosen:
		if cs := conv(m.Conversation); cs != nil {
			b.versionChosen(cs, m)
		}
	case *conversation.ApprovalRequested:
		b.approvals = append(b.approvals, m)
		b.apprDirty = true
		if cs := conv(m.Conversation); cs != nil {
			cs.tr.ToolAsked(m.Request.ID) // its card says so if it then never runs
		}
	case *conversation.ApprovalClosed:
		// Every request ends with one, however it ended: answered (the
		// window's dialog replied to the run itself, from the UI
		// goroutine, and never tells the bridge), timed out or stopped.
		// It is what takes the request off the queue.
		if i := slices.IndexFunc(b.approvals, func(a *conversation.ApprovalRequested) bool { return a.ID == m.ID }); i >= 0 {
			if cs := conv(m.Conversation); cs != nil {
				cs.tr.ToolQuestionClosed(b.approvals[i].Request.ID, m.Reason)
			}
		}
		dropped := b.dropApproval(m.ID)
		if dropped && m.Reason.IsTimedOut() {
			b.timedOut = append(b.timedOut, m.ID) // its notification says so
		}
		if dropped && !m.Reason.IsAnswered() {
			if cs := conv(m.Conversation); cs != nil {
				// A timeout is the gate's deny; Stop (or a failed
				// conversation) denies no one's call: it just never runs.
				what := "the call was not run."
				if m.Reason.IsTimedOut() {
					what = "the call was denied."
				}
				cs.tr.Note("Approval closed: "+string(m.Reason)+"; "+what, false)
			}
		}
	case *conversation.Notice:
		if cs := conv(m.Conversation); cs != nil {
			if m.Retry {
				cs.tr.RetryWaiting(m.Run, m.Text, m.Try) // with Retry now
				cs.retrying = &tray.Retrying{Run: m.Run, Text: m.Text, Try: m.Try}
				b.quickDirty = b.quickDirty || cs.quick
			} else {
				cs.tr.Note(m.Text, false)
			}
		}
	case *writer.LogFailed:
		if !b.logFailing {
			b.notices = append(b.notices, fmt.Sprintf("Deckhand cannot write its log (%s): what is said from now on is NOT kept. %d %s in memory and %s written if room frees up before you quit.", m.Err, m.Unsaved, widgets.Plural(m.Unsaved, "entry waits", "entries wait"), widgets.Plural(m.Unsaved, "is", "are")))
			if cs := b.convs[b.current]; cs != nil {
				cs.tr.Note("The log cannot be written ("+m.Err.Error()+"): this conversation is not being kept.", true)
			}
		}
		b.logFailing = true
	case *writer.LogTampered:
		b.notices = append(b.notices, "Warning: "+m.Text())
	case *writer.LogRecovered:
		b.logFailing = false
		if cs := b.convs[b.current]; cs != nil {
			cs.tr.Note("The log is written again: this conversation is kept.", false)
		}
	case *conversation.ConversationFailed:
		if cs := conv(m.Conversation); cs != nil {
			cs.pid, cs.running, cs.failed = nil, false, true
			if b.logFailing {
				cs.tr.Note("This conversation stopped on an internal error ("+m.Err.Error()+"). The log cannot be written, so it is not kept.", true)
			} else {
				cs.tr.Note("This conversation stopped on an internal error ("+m.Err.Error()+"). Everything it recorded is kept; your next message reopens it from the log.", true)
			}
			b.sessDirty = true
			b.deleteStopped(c, cs) // Stop and delete (sidebar_bridge.go)
		}
	case *conversation.RetryStarted:
		if cs := conv(m.Conversation); cs != nil {
			cs.tr.Retried(m.Run, m.Text) // Retry now goes
			if cs.retrying != nil {
				cs.retrying = nil
				b.quickDirty = b.quickDirty || cs.quick
			}
		}
	case *conversation.RunFinished:
		if cs := conv(m.Conversation); cs != nil {
			cs.running = false
			cs.tr.Retried(m.Run, "") // stopped while it waited: Retry now goes
			cs.retrying = nil
			cs.usage.InputTokens += m.Usage.PromptTokens
			cs.usage.OutputTokens += m.Usage.CompletionTokens
			cs.usage.CostUSD += m.CostUSD
			cs.usage.Estimated = cs.usage.Estimated || m.Estimated
			switch {
			case m.Stopped:
				cs.tr.NoteAction("Stopped.", false, transcript.ActionContinue)
				cs.result, cs.lastRun = "Stopped.", store.RunStopped
			case m.Err != nil:
				action := transcript.ActionRetry
				switch fix := llm.FixFor(m.Err); {
				case fix == llm.FixKey:
					action = transcript.ActionKey // the key was refused: Settings, at the key
				case fix == llm.FixAddress:
					action = transcript.ActionAddress // a 404, or nothing listens: Settings, at the model's address
				case fix == llm.FixModel, errors.Is(m.Err, conversation.ErrNoModel):
					// The server does not know the model, or none is set
					// up (Retry or Edit in a past chat): Settings, at Model.
					action = transcript.ActionModel
				case cs.cut:
					// The answer broke off (the connection dropped, the
					// server stalled) and its text is kept, in the history
					// too: it can go on, as a stopped one does.
					action = transcript.ActionContinue
				}
				cs.tr.NoteAction(m.Err.Error(), true, action)
				cs.result, cs.lastRun, cs.failure = "Failed.", store.RunFailed, m.Err.Error()
			default:
				cs.result, cs.lastRun = "Done.", store.RunSucceeded
			}
			cs.cut = false
			b.sessDirty = true
			if cs.quick {
				b.quickDirty = true
			}
			b.refreshSoon(c)
			b.deleteStopped(c, cs) // Stop and delete (sidebar_bridge.go)
		}
	}
}

// dropApproval takes a request off the approval queue: its ApprovalClosed
// came (answered from the window, which replied to the run itself, timed
// out, or stopped), or its chat was deleted. It reports whether the
// request was still there.
func (b *bridge) dropApproval(id string) bool {
	i := slices.IndexFunc(b.approvals, func(a *conversation.ApprovalRequested) bool { return a.ID == id })
	if i < 0 {
		return false
	}
	b.approvals = slices.Delete(b.approvals, i, i+1)
	b.apprDirty = true
	return true
}

// update is one frame's changes, from the bridge to the window. Nil and
// zero fields did not change.
type update struct {
	conv    string // the conversation shown
	reset   bool   // a different conversation, or redraw all: rows holds every row
	rows    []transcript.Row
	n       int                    // the row count
	changed map[int]transcript.Row // rows changed since the last frame
	running bool

	status       string
	quiet        string // beside Stop: "nothing from the model for 20 s", or ""; with status
	servers      []servers.ServerStatus
	catalog      *tools.Catalog
	sessions     []sidebar.Item
	sessionsSet  bool
	title        string // the current conversation's, with sessions
	approvals    []*conversation.ApprovalRequested
	approvalsSet bool
	timedOut     []string // of those gone from approvals, the ones nobody answered in time
	quickConv    string   // the quick prompt's conversation
	quick        *tray.Update
	notices      []string
	// busy names the chats with a run going (busyNames), when that
	// changed: quitting asks first while there is one (quit.go).
	busy    []string
	busySet bool
}

func (u *update) empty() bool {
	return u.conv == "" && u.status == "" && u.servers == nil && u.catalog == nil && !u.sessionsSet &&
		!u.approvalsSet && u.quick == nil && len(u.notices) == 0 && !u.busySet
}

// flush hands what changed since the last frame to the window, in one
// fyne.Do.
func (b *bridge) flush() {
	u := &update{}
	if cs := b.convs[b.current]; cs != nil {
		u.running = cs.running || cs.starting && len(cs.queued) > 0
		if b.reset {
			u.reset = true
			cs.tr.Changes()
			u.rows = make([]transcript.Row, cs.tr.Len())
			for i := range u.rows {
				u.rows[i] = cs.tr.Row(i)
			}
			b.reset = false
		} else {
			u.n, u.changed = cs.tr.Changes()
		}
		if u.reset || u.changed != nil || u.n != b.shownRows || u.running != b.shownRunning {
			u.conv = cs.id
			b.shownRows, b.shownRunning = u.n, u.running
			if u.reset {
				b.shownRows = len(u.rows)
			}
		}
	}
	if b.statusDirty {
		u.status = b.status()
		u.quiet = b.quiet()
		b.statusDirty = false
	}
	if b.serversDirty {
		u.servers = make([]servers.ServerStatus, 0, len(b.servers))
		for _, s := range b.servers {
			u.servers = append(u.servers, s)
		}
		slices.SortFunc(u.servers, func(x, y servers.ServerStatus) int { return strings.Compare(x.Alias, y.Alias) })
		b.serversDirty = false
	}
	if b.catalogDirty {
		u.catalog, b.catalogDirty = b.catalog, false
	}
	if b.sessDirty {
		u.sessions, u.sessionsSet = b.sidebar(), true
		u.title = b.title()
		b.sessDirty = false
	}
	u.quickConv = b.quick
	if b.apprDirty {
		u.approvals, u.approvalsSet, u.timedOut = slices.Clone(b.approvals), true, b.timedOut
		b.apprDirty, b.timedOut = false, nil
	}
	if b.quickDirty {
		if cs := b.convs[b.quick]; cs != nil {
			u.quick = &tray.Update{Text: cs.answer.String(), Running: cs.running || cs.starting, Status: cs.result, Retrying: cs.retrying,
				Failed: cs.failure, Behind: cs.behind > 0}
			u.quick.Asked, u.quick.Calls = tray.Calls(cs.tr)
		} else {
			u.quick = &tray.Update{Gone: true} // its chat was deleted
		}
		b.quickDirty = false
	}
	if busy := b.busyNames(); !slices.Equal(busy, b.shownBusy) {
		u.busy, u.busySet, b.shownBusy = busy, true, busy
	}
	u.notices, b.notices = b.notices, nil
	if u.empty() {
		return
	}
	b.ui.post(func() { b.ui.apply(u) })
}

// status is the status line: the model, the servers (which are still
// connecting: a chat never waits for them, their tools join as they come),
// the session's tokens and cost.
func (b *bridge) status() string {
	model := b.statusModel() // the conversation's (composer_bridge.go)
	if !b.cfg.Model.Configured() {
		model = "no model set up"
	}
	parts := append([]string{model}, serverSummary(b.servers)...)
	if cs := b.convs[b.current]; cs != nil {
		u := cs.usage
		mark := ""
		if u.Estimated {
			mark = "~"
		}
		if u.InputTokens+u.OutputTokens > 0 {
			parts = append(parts, fmt.Sprintf("%s%s tokens in, %s%s out", mark, store.Count(u.InputTokens), mark, store.Count(u.OutputTokens)))
		}
		if c := costPart(b.cfg.Model, model, u); c != "" {
			parts = append(parts, c)
		}
		if cs.running {
			parts = append(parts, "working…")
		}
	}
	return strings.Join(parts, "  ·  ")
}

// costPart is the status line's cost of a chat's tokens u with the model
// named: the dollars, or, where no price is known (model.prices is set in
// Settings ▸ Advanced), the way to give one; nothing before any token, nor
// for a model on this computer.
func costPart(m config.Model, name string, u store.Usage) string {
	switch {
	case u.CostUSD > 0:
		return fmt.Sprintf("$%.4f", u.CostUSD)
	case u.InputTokens+u.OutputTokens == 0, m.PriceKnown(name), m.OnThisComputer():
		return ""
	}
	return "cost unknown: set a price in Settings"
}

// quiet is the note beside Stop while the current conversation's model
// sends nothing: "" while it sends, or no answer streams.
func (b *bridge) quiet() string {
	if cs := b.convs[b.current]; cs != nil && cs.running && cs.silent > 0 {
		return fmt.Sprintf("nothing from the model for %d s", int(cs.silent.Round(time.Second)/time.Second))
	}
	return ""
}

// serverSummary says how the servers are, for the status line: how many
// are ready, then the names of those connecting and of those down.
// Servers disconnected on request are not mentioned.
func serverSummary(list map[string]servers.ServerStatus) []string {
	if len(list) == 0 {
		return []string{"no MCP servers"}
	}
	ready := 0
	var connecting, down []string
	for alias, s := range list {
		switch s.State {
		case servers.StateReady, servers.StateIdle: // idle: connects when used
			ready++
		case servers.StateConnecting:
			connecting = append(connecting, alias)
		case servers.StateFailed, servers.StateReconnecting:
			down = append(down, alias)
		}
	}
	noun := "servers"
	if ready == 1 {
		noun = "server"
	}
	out := []string{fmt.Sprintf("%d %s ready", ready, noun)}
	if len(connecting) > 0 {
		out = append(out, "connecting: "+names(connecting))
	}
	if len(down) > 0 {
		out = append(out, "down: "+names(down))
	}
	return out
}

// names lists a few aliases, in order, and counts the rest.
func names(aliases []string) string {
	const shown = 3
	slices.Sort(aliases)
	if len(aliases) <= shown {
		return strings.Join(aliases, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(aliases[:shown], ", "), len(aliases)-shown)
}
