package writer

import (
	"context"
	"encoding/json"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/actors/conversation"
	"deckhand/actors/servers"
	"deckhand/approval"
	"deckhand/redact"
	"deckhand/store"
	"deckhand/tools"
)

// SyncLog asks the store actor to write everything it holds; the answer, a
// *Done, comes once it is on disk, or with the error that kept it off.
type SyncLog struct{}

// RevokeGrant asks the store actor to revoke tool's "always allow": it
// stops counting at once, in every conversation, and its row is deleted
// with the next batch (after any grant of the tool still on its way). The
// answer, a *servers.Done, comes once that is on disk. A tool without a
// grant is not an error.
type RevokeGrant struct{ Tool string }

// WatchLog asks the store actor to tell Watcher when the log cannot be
// written (LogFailed) and when it can again (LogRecovered).
type WatchLog struct{ Watcher *actor.PID }

// LogFailed says the log could not be written: Err (a full disk, a
// failing one), and how many rows wait in memory to be written when it
// can (Unsaved; beyond maxUnsaved the oldest are dropped, counted in
// Dropped). Until then nothing said since is kept.
type LogFailed struct {
	Err     error
	Unsaved int
	Dropped int
}

// LogRecovered says the log is written again, what waited included.
type LogRecovered struct{}

// LogTampered says the log holds grants or pins Deckhand did not write
// (Rows, each ignored), or was signed with another key (OtherKey). A
// watcher hears of each row once: when it starts watching (all found so
// far), then of each new one when the grants are read again.
type LogTampered struct {
	Rows     []store.Foreign
	OtherKey bool
}

// Text says it in plain words, for a warning line.
func (m *LogTampered) Text() string {
	var rows []string
	for _, r := range m.Rows {
		rows = append(rows, r.String())
	}
	text := ""
	if m.OtherKey {
		text = "the log was signed with another key than this install's (moved from another machine, or the key was lost): its grants and pins are not honoured. "
	}
	if len(rows) > 0 {
		text += "The log holds rows Deckhand did not write, ignored: " + strings.Join(rows, "; ") + ". Something with write access to Deckhand's data wrote them: see deckhand approvals, and deckhand logs --verify"
	}
	return strings.TrimSpace(text)
}

// Internal messages of the store actor.
type (
	flushTick    struct{}
	batchWritten struct {
		err   error
		batch *store.Batch
	}
	retryWrite   struct{}
	foreignFound struct{ rows []store.Foreign }
)

// While the log cannot be written, what was not written is kept for the
// next attempt (every retryEvery), up to maxUnsaved rows.
const (
	retryEvery = 2 * time.Second
	maxUnsaved = 50000
)

// Flush policy: a batch goes to disk when it is this big, this old, or a run
// ends.
const (
	flushEvents   = 256
	flushInterval = 200 * time.Millisecond
)

// storeActor is the only writer of the log in this process. It turns the
// conversations' events into rows, coalesces streamed text, removes secrets,
// and hands batches to one writer goroutine: while one batch is written the
// next one fills, so recording never holds up a conversation.
type storeActor struct {
	db      *store.DB
	log     *slog.Logger
	secrets redact.Secrets
	limit   int // cap on stored arguments
	owner   string
	always  *approval.Always
	cost    store.CostFunc
	unsaved map[string]bool // conversations opened whose session row waits for a first message

	batch   *store.Batch
	pending int // rows in batch
	deltas  map[string]*pendingDelta
	timer   *time.Timer
	writes  chan *store.Batch
	busy    bool // a batch is being written
	waiting []*actor.PID
	grants  []store.Grant // the grants and revocations in the batch being written, in order
	// reload asks the writer goroutine to read the grants again before
	// its next write (a run started: another process may have changed
	// them).
	reload  chan struct{}
	flushed sync.WaitGroup
	// failing is the last write's error while the log cannot be written;
	// unwritten what it could not write; dropped the rows given up.
	failing   error
	unwritten *store.Batch
	dropped   int
	watchers  []*actor.PID
	// foreign are the rows of the log's gate Deckhand did not write,
	// found so far (each told to the watchers once).
	foreign []store.Foreign
}

type pendingDelta struct {
	session, run string
	text         strings.Builder
	first        time.Time
}

// SaveCatalog asks the store actor to keep a server's tools for the next
// start (servers that connect on demand offer them until they connect).
type SaveCatalog struct {
	Alias string
	Tools []*sdk.Tool
}

// PinTool asks the store actor to keep a tool's pinned definition.
type PinTool struct{ Pin store.Pin }

// AddSecrets asks the store actor to redact values from now on.
type AddSecrets struct{ Values []string }

// Options configure [Spawn]. DB is required.
type Options struct {
	DB     *store.DB
	Logger *slog.Logger
	// Secrets are values never written to the log (more come with
	// AddSecrets).
	Secrets []string
	// MaxOutputBytes caps the tool arguments stored (config's
	// mcp.max_output_bytes).
	MaxOutputBytes int
	// Always, if set, are the "always allow" grants this actor writes and
	// refreshes from the log.
	Always *approval.Always
	// Cost prices a run's usage.
	Cost store.CostFunc
	// Foreign are the rows of the log's gate Deckhand did not write, as
	// found at start (store.DB.Foreign): watchers hear of them at once.
	Foreign []store.Foreign
}

// Spawn starts the store actor, the only writer of the log in this
// process.
//
// Restart policy: resume (servers.Resume). A panic drops the message it
// happened in; the actor keeps the rows not yet written, the secrets it
// was given since the start and its writer goroutine, all of which a fresh
// actor would lose (a restart would also leave the old writer waiting
// forever). What must survive Deckhand is in the log itself.
func Spawn(root *actor.RootContext, o Options) *actor.PID {
	return root.Spawn(actor.PropsFromProducer(func() actor.Actor {
		a := newStoreActor(o.DB, o.Logger, o.Secrets, o.MaxOutputBytes, o.Always, o.Cost)
		a.foreign = slices.Clone(o.Foreign)
		for _, r := range a.foreign {
			a.log.Info("the log holds a row Deckhand did not write; it is ignored", "table", r.Table, "tool", r.Tool)
		}
		return a
	}, actor.WithGuardian(servers.Resume)))
}

func newStoreActor(db *store.DB, log *slog.Logger, secrets []string, limit int, always *approval.Always, cost store.CostFunc) *storeActor {
	return &storeActor{
		db: db, log: log.With("actor", "store"), secrets: redact.New(secrets...), limit: limit, always: always, cost: cost,
		unsaved: map[string]bool{},
		owner:   store.Owner(),
		batch:   &store.Batch{},
		deltas:  map[string]*pendingDelta{},
	}
}

func (a *storeActor) Receive(c actor.Context) {
	switch m := c.Message().(type) {
	case *actor.Started:
		a.writes = make(chan *store.Batch, 1)
		a.reload = make(chan struct{}, 1)
		self, root := c.Self(), c.ActorSystem().Root
		a.flushed.Add(1)
		go func() {
			defer a.flushed.Done()
			a.closeDeadRuns()
			a.findForeign(root, self)
			for {
				select {
				case b, ok := <-a.writes:
					if !ok {
						return
					}
					// A reload asked before this batch was handed over
					// is done first: a SyncLog after a run start answers
					// with the grants read again.
					select {
					case <-a.reload:
						a.refreshGrants()
						a.findForeign(root, self)
					default:
					}
					ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
					err := a.db.Write(ctx, b)
					cancel()
					root.Send(self, &batchWritten{err: err, batch: b})
				case <-a.reload:
					a.refreshGrants()
					a.findForeign(root, self)
				}
			}
		}()
	case *actor.Stopping:
		// The last batch is written before the process may exit. The writer
		// takes batches one at a time and the channel holds one, so when it
		// is busy there is room for this one.
		a.takeDeltas()
		if a.unwritten != nil {
			a.batch.Merge(a.unwritten)
			a.pending += a.unwritten.Rows()
		}
		if a.pending > 0 {
			a.writes <- a.batch
		}
		close(a.writes)
		a.flushed.Wait()
	case *flushTick:
		a.timer = nil
		a.flush(c)
	case *batchWritten:
		a.busy = false
		a.written(c, m)
		if a.pending > 0 {
			a.flush(c)
		} else {
			for _, w := range a.waiting {
				c.Send(w, &servers.Done{Err: m.err})
			}
			a.waiting = nil
		}
	case *WatchLog:
		if !slices.ContainsFunc(a.watchers, m.Watcher.Equal) { // once per watcher
			a.watchers = append(a.watchers, m.Watcher)
		}
		if a.failing != nil {
			c.Send(m.Watcher, &LogFailed{Err: a.failing, Unsaved: a.unsavedRows(), Dropped: a.dropped})
		}
		if len(a.foreign) > 0 || a.db.KeyMismatch() {
			c.Send(m.Watcher, &LogTampered{Rows: slices.Clone(a.foreign), OtherKey: a.db.KeyMismatch()})
		}
	case *foreignFound:
		var fresh []store.Foreign
		for _, r := range m.rows {
			if !slices.Contains(a.foreign, r) {
				fresh = append(fresh, r)
				a.foreign = append(a.foreign, r)
			}
		}
		if len(fresh) == 0 {
			return
		}
		for _, r := range fresh {
			a.log.Info("the log holds a row Deckhand did not write; it is ignored", "table", r.Table, "tool", r.Tool)
		}
		for _, w := range a.watchers {
			c.Send(w, &LogTampered{Rows: fresh})
		}
	case *retryWrite:
		a.flush(c)
	case *AddSecrets:
		a.secrets = a.secrets.With(m.Values...)
	case *SyncLog:
		a.takeDeltas()
		if a.pending == 0 && !a.busy && a.unwritten == nil {
			c.Respond(&servers.Done{})
			return
		}
		a.waiting = append(a.waiting, c.Sender())
		a.flush(c)
	case *SaveCatalog:
		raw, err := json.Marshal(m.Tools)
		if err != nil {
			a.log.Error("encoding a server's tools", "server", m.Alias, "err", err)
			return
		}
		a.batch.Catalogs = append(a.batch.Catalogs, store.ServerCatalog{Alias: m.Alias, Tools: raw, Time: time.Now()})
		a.pending++
		a.schedule(c)
	case *PinTool:
		a.batch.Pins = append(a.batch.Pins, m.Pin)
		a.pending++
		a.schedule(c)
	case *SaveGrant:
		a.batch.Grants = append(a.batch.Grants, store.Grant{ID: store.NewID("grant"), Tool: m.Grant.Tool, Scope: "always", By: m.Grant.By, Time: m.Grant.At})
		a.pending++
		a.flush(c)
	case *RevokeGrant:
		if a.always != nil {
			a.always.Revoke(m.Tool)
		}
		a.batch.Grants = append(a.batch.Grants, store.Grant{Tool: m.Tool, Revoke: true, Time: time.Now()})
		a.pending++
		if c.Sender() != nil {
			a.waiting = append(a.waiting, c.Sender()) // answered as a SyncLog is
		}
		a.flush(c)
	default:
		a.record(c, m)
	}
}

// record turns one conversation event into rows.
func (a *storeActor) record(c actor.Context, msg any) {
	now := time.Now()
	ev := func(session, run, kind string, data any) {
		raw, err := json.Marshal(data)
		if err != nil {
			a.log.Error("encoding an event", "kind", kind, "err", err)
			return
		}
		a.batch.Events = append(a.batch.Events, store.Event{
			ID: store.NewID("ev"), SessionID: session, RunID: run, Time: now, Kind: kind, Data: a.redact(raw),
		})
		a.pending++
	}
	switch m := msg.(type) {
	case *conversation.ConversationOpened:
		// The session's row waits for its first message: a window opened
		// and closed without a word leaves nothing behind.
		if !m.Resumed {
			a.unsaved[m.Conversation] = true
		}
		return
	case *conversation.RunStarted:
		a.reloadGrants()
		if a.unsaved[m.Conversation] {
			delete(a.unsaved, m.Conversation)
			a.batch.NewSessions = append(a.batch.NewSessions, store.NewSession{ID: m.Conversation, Time: now, Model: m.Model})
			ev(m.Conversation, "", store.KindSessionCreated, map[string]any{"model": m.Model})
		}
		a.batch.NewRuns = append(a.batch.NewRuns, store.NewRun{ID: m.Run, SessionID: m.Conversation, Time: now, Model: m.Model, Owner: a.owner})
		a.batch.Titles = append(a.batch.Titles, store.Title{SessionID: m.Conversation, Title: string(a.redact([]byte(title(m.Text))))})
		data := map[string]any{"text": m.Text, "parent": m.Parent, "model": m.Model}
		if m.Continues != "" {
			data["continues"] = m.Continues
		}
		if len(m.Attachments) > 0 {
			// Names, types, sizes and digests: never the files' bytes.
			files := make([]map[string]any, len(m.Attachments))
			for i, at := range m.Attachments {
				files[i] = map[string]any{"name": at.Name, "type": at.Type, "size": at.Size, "sha256": at.SHA256}
			}
			data["attachments"] = files
		}
		ev(m.Conversation, m.Run, store.KindRunStarted, data)
	case *conversation.RunRemoved:
		ev(m.Conversation, m.Run, store.KindRunRemoved, map[string]any{"text": m.Text})
	case *conversation.VersionChosen:
		if m.Run != "" {
			ev(m.Conversation, m.Run, store.KindRunChosen, map[string]any{})
		}
	case *conversation.PromptBuilt:
		ev(m.Conversation, m.Run, store.KindPromptBuilt, map[string]any{
			"messages": m.Messages, "dropped": m.Dropped, "tools": m.Tools, "estimated_tokens": m.EstimatedTokens})
	case *conversation.AssistantDelta:
		if m.Text == "" {
			return
		}
		d := a.deltas[m.Run]
		if d == nil {
			d = &pendingDelta{session: m.Conversation, run: m.Run, first: now}
			a.deltas[m.Run] = d
		}
		d.text.WriteString(m.Text)
		a.schedule(c)
		return
	case *conversation.AssistantMessage:
		// The text streamed since the last flush goes first, as one row: the
		// log has the stream (coalesced) for every answer, fast or slow.
		a.takeDelta(m.Run)
		calls := make([]map[string]string, len(m.ToolCalls))
		for i, tc := range m.ToolCalls {
			calls[i] = map[string]string{"id": tc.ID, "name": tc.Name, "arguments": tools.Cap(tc.Arguments, a.limit)}
		}
		ev(m.Conversation, m.Run, store.KindAssistantMessage, map[string]any{
			"text": m.Text, "tool_calls": calls, "incomplete": m.Incomplete,
			"usage": map[string]int{"input_tokens": m.Usage.PromptTokens, "output_tokens": m.Usage.CompletionTokens}, "estimated": m.Estimated})
	case *conversation.ToolCallRequested:
		ev(m.Conversation, m.Run, store.KindToolRequested, withOrigin(map[string]any{"call": m.Call, "tool": m.Tool, "arguments": a.capped(m.Arguments)}, m.Origin))
	case *conversation.ApprovalRequested:
		ev(m.Conversation, m.Run, store.KindApprovalAsked, map[string]any{
			"id": m.ID, "call": m.Request.ID, "tool": m.Request.Display, "title": m.Request.Title,
			"trusted": m.Request.Trusted, "arguments": a.capped(m.Request.Arguments), "deadline": m.Deadline, "origin": m.Request.Origin})
	case *conversation.ViewCallFinished:
		kind := store.KindToolSucceeded
		if m.IsError {
			kind = store.KindToolFailed
		}
		ev(m.Conversation, "", kind, map[string]any{"call": m.Call, "tool": m.Tool, "origin": m.Origin,
			"arguments": a.capped(m.Arguments), "output": tools.Cap(m.Output, a.limit), "denied": m.Denied, "refused": m.Refused})
	case *conversation.ApprovalDecided:
		if m.Allowed {
			ev(m.Conversation, m.Run, store.KindApprovalGranted, map[string]any{"call": m.Call, "tool": m.Tool, "scope": m.Scope, "by": m.By})
		} else {
			ev(m.Conversation, m.Run, store.KindApprovalDenied, map[string]any{"call": m.Call, "tool": m.Tool, "by": m.By})
		}
	case *conversation.ToolCallStarted:
		ev(m.Conversation, m.Run, store.KindToolInvoked, withOrigin(map[string]any{"call": m.Call, "tool": m.Tool, "arguments": a.capped(m.Arguments), "parallel": m.Parallel}, m.Origin))
	case *conversation.ToolCallProgress:
		// A task's id and each change of its status (not each message):
		// what a reopened session needs to find the task again.
		if m.Progress.Task == "" {
			return
		}
		ev(m.Conversation, m.Run, store.KindToolTask, map[string]any{"call": m.Call, "tool": m.Tool, "task": m.Progress.Task, "status": m.Progress.Status})
	case *conversation.ToolCallFinished:
		kind := store.KindToolSucceeded
		switch {
		case m.IsError || m.Denied || m.Refused:
			kind = store.KindToolFailed
		}
		data := map[string]any{
			"call": m.Call, "tool": m.Tool, "output": tools.Cap(m.Output, a.limit), "denied": m.Denied, "refused": m.Refused, "elapsed_ms": m.Elapsed.Milliseconds()}
		if len(m.Structured) > 0 && (a.limit <= 0 || len(m.Structured) <= a.limit) { // as the output: no limit, no cap
			data["structured"] = m.Structured
		}
		if len(m.Meta) > 0 && (a.limit <= 0 || len(m.Meta) <= a.limit) {
			data["meta"] = m.Meta
		}
		if m.Media != nil && len(m.Media.Images) > 0 {
			imgs := make([]store.LoggedImage, len(m.Media.Images))
			for i, img := range m.Media.Images {
				imgs[i] = store.LoggedImage{MIME: img.MIME, Size: img.Size, SHA256: img.SHA256}
			}
			data["images"] = imgs // the bytes are kept beside the log (store.KeepImage)
		}
		if m.Cut.Whole > 0 {
			data["cut_kept"], data["cut_whole"] = m.Cut.Kept, m.Cut.Whole
			if m.Cut.Saved {
				data["cut_saved"] = true // the whole result is kept beside the log (store.KeepResult)
			}
		}
		if m.Cancelled {
			data["cancelled"] = true // the person's Stop ended it; absent: not cancelled
		}
		ev(m.Conversation, m.Run, kind, withOrigin(data, m.Origin))
	case *conversation.Notice:
		data := map[string]any{"text": m.Text}
		if m.Retry {
			data["retry"] = true
		}
		ev(m.Conversation, m.Run, store.KindNotice, data)
	case *conversation.RetryStarted:
		// The retry's notice as the person last saw it: "tried again at",
		// in place of "trying again in" (replay.Notice).
		ev(m.Conversation, m.Run, store.KindNotice, map[string]any{"text": m.Text, "retry": true, "tried": true})
	case *conversation.CapabilityDecided:
		kind := store.KindCapabilityGranted
		if !m.Decision.Allowed {
			kind = store.KindCapabilityDenied
		}
		ev(m.Conversation, m.Run, kind, map[string]any{"call": m.Call, "tool": m.Tool, "capability": m.Decision.Capability,
			"target": m.Decision.Target, "rule": m.Decision.Rule})
	case *servers.EgressDecided:
		kind, rule := store.KindCapabilityGranted, "in the server's network list"
		if !m.Allowed {
			kind, rule = store.KindCapabilityDenied, "not in the server's network list"
		}
		if m.Rule != "" {
			rule = m.Rule // a name refused for where it led says so
		}
		ev("", "", kind, map[string]any{"server": m.Server, "capability": "net", "target": m.Target, "rule": rule})
	case *servers.ToolReviewed:
		ev("", "", store.KindToolReviewed, map[string]any{"tool": m.Tool, "hash": m.Hash})
	case *conversation.ToolDefinitionChanged:
		ev(m.Conversation, m.Run, store.KindToolChanged, map[string]any{"call": m.Call, "tool": m.Tool, "change": m.Change})
	case *conversation.ToolsLoaded:
		ev(m.Conversation, m.Run, store.KindToolsLoaded, map[string]any{"loaded": m.Tools, "by": m.By})
	case *conversation.ToolsUnloaded:
		ev(m.Conversation, m.Run, store.KindToolsUnloaded, map[string]any{"unloaded": m.Tools, "reason": m.Why})
	case *conversation.ContextCompacted:
		ev(m.Conversation, m.Run, store.KindContextCompacted, map[string]any{"turns": m.Turns, "tokens_before": m.Before,
			"tokens_after": m.After, "summary": m.Summary, "from": m.From})
	case *servers.ElicitationRequested:
		ev(m.Conversation, m.Run, store.KindElicitationAsked, elicitAskedData(m))
	case *servers.ElicitationClosed:
		ev(m.Conversation, m.Run, store.KindElicitationAnswered, elicitClosedData(m))
	case *conversation.RunFinished:
		a.takeDelta(m.Run)
		status, kind := store.RunSucceeded, store.KindRunSucceeded
		data := map[string]any{"text": m.Text, "requests": m.Requests, "input_tokens": m.Usage.PromptTokens,
			"output_tokens": m.Usage.CompletionTokens, "cost_usd": m.CostUSD, "estimated": m.Estimated}
		var errText string
		switch {
		case m.Stopped:
			status, kind = store.RunStopped, store.KindRunStopped
		case m.Err != nil:
			status, kind = store.RunFailed, store.KindRunFailed
			errText = string(a.redact([]byte(m.Err.Error())))
			data["error"] = errText
		}
		ev(m.Conversation, m.Run, kind, data)
		a.batch.Finished = append(a.batch.Finished, store.FinishedRun{
			ID: m.Run, SessionID: m.Conversation, Time: now, Status: status, Error: errText, Requests: m.Requests,
			Usage: store.Usage{InputTokens: m.Usage.PromptTokens, OutputTokens: m.Usage.CompletionTokens, CostUSD: m.CostUSD, Estimated: m.Estimated},
		})
		a.flush(c) // the end of a run is on disk at once
		return
	default:
		return // events the log does not keep (RunQueued, ApprovalClosed, progress)
	}
	if a.pending >= flushEvents {
		a.flush(c)
	} else {
		a.schedule(c)
	}
}

// schedule makes sure a flush comes within flushInterval.
func (a *storeActor) schedule(c actor.Context) {
	if a.timer == nil {
		self, root := c.Self(), c.ActorSystem().Root
		a.timer = time.AfterFunc(flushInterval, func() { root.Send(self, &flushTick{}) })
	}
}

// written takes the writer's outcome. A batch the disk had no room for
// (or failed to write) is kept for the next attempt, and the watchers are
// told at once, so that the window and the terminal say the conversation
// is not being kept; when a write goes through again, they are told that
// too. A batch the log refuses for another reason is dropped, said.
func (a *storeActor) written(c actor.Context, m *batchWritten) {
	if m.err == nil {
		for _, g := range a.grants {
			switch {
			case a.always == nil:
			case g.Revoke:
				a.always.Deleted(g.Tool)
			default:
				a.always.Saved(g.Tool)
			}
		}
		a.grants = nil
		if a.failing != nil {
			a.failing, a.dropped = nil, 0
			a.log.Info("the log is written again")
			for _, w := range a.watchers {
				c.Send(w, &LogRecovered{})
			}
		}
		return
	}
	a.grants = nil
	if !store.IsFull(m.err) {
		a.log.Error("writing the log", "err", m.err, "rows dropped", m.batch.Rows())
		return
	}
	first := a.failing == nil
	a.failing = m.err
	m.batch.Merge(a.unwrittenOr())
	a.unwritten = m.batch
	if over := a.unwritten.Rows() - maxUnsaved; over > 0 && over <= len(a.unwritten.Events) {
		// Memory is bounded: the oldest events go first.
		a.unwritten.Events = a.unwritten.Events[over:]
		a.dropped += over
	}
	if first {
		a.log.Error("the log cannot be written; what follows is kept in memory until it can", "err", m.err)
	}
	for _, w := range a.watchers {
		c.Send(w, &LogFailed{Err: m.err, Unsaved: a.unsavedRows(), Dropped: a.dropped})
	}
	self, root := c.Self(), c.ActorSystem().Root
	time.AfterFunc(retryEvery, func() { root.Send(self, &retryWrite{}) })
}

func (a *storeActor) unwrittenOr() *store.Batch {
	if a.unwritten == nil {
		return &store.Batch{}
	}
	return a.unwritten
}

func (a *storeActor) unsavedRows() int { return a.unwrittenOr().Rows() + a.pending }

// flush hands the batch to the writer, unless it is busy (the batch keeps
// filling and goes when the writer is done). Rows that could not be
// written before go first.
func (a *storeActor) flush(c actor.Context) {
	a.takeDeltas()
	if a.unwritten != nil && !a.busy {
		a.batch.Merge(a.unwritten)
		a.pending += a.unwritten.Rows()
		a.unwritten = nil
	}
	if a.busy || a.pending == 0 {
		return
	}
	if a.timer != nil {
		a.timer.Stop()
		a.timer = nil
	}
	a.grants = append(a.grants, a.batch.Grants...)
	a.busy = true
	a.writes <- a.batch
	a.batch, a.pending = &store.Batch{}, 0
}

// takeDeltas turns streamed text held so far into one assistant.delta row
// per run: coalesced, never a row per token.
func (a *storeActor) takeDeltas() {
	for run := range a.deltas {
		a.takeDelta(run)
	}
}

// takeDelta turns one run's streamed text held so far into its
// assistant.delta row, if there is any.
func (a *storeActor) takeDelta(run string) {
	d := a.deltas[run]
	if d == nil {
		return
	}
	delete(a.deltas, run)
	raw, _ := json.Marshal(map[string]string{"text": d.text.String()})
	a.batch.Events = append(a.batch.Events, store.Event{
		ID: store.NewID("ev"), SessionID: d.session, RunID: run, Time: d.first, Kind: store.KindAssistantDelta, Data: a.redact(raw),
	})
	a.pending++
}

// reloadGrants has the writer goroutine read the grants again before its
// next write (another Deckhand process sharing the log may have given or
// revoked one): at each run start, in place of polling.
func (a *storeActor) reloadGrants() {
	if a.always == nil {
		return
	}
	select {
	case a.reload <- struct{}{}:
	default: // one is asked already
	}
}

// refreshGrants reads the "always allow" grants back from the log (another
// process may have given or revoked one). It runs in the writer goroutine.
func (a *storeActor) refreshGrants() {
	if a.always == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := LoadGrants(ctx, a.db, a.always); err != nil {
		a.log.Warn("reading the grants", "err", err)
	}
}

// findForeign looks for grants and pins Deckhand did not write, and tells
// the actor what it found. It runs in the writer goroutine.
func (a *storeActor) findForeign(root *actor.RootContext, self *actor.PID) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	rows, err := a.db.Foreign(ctx)
	if err != nil {
		a.log.Warn("checking the log's grants and pins", "err", err)
		return
	}
	if len(rows) > 0 {
		root.Send(self, &foreignFound{rows: rows})
	}
}

// closeDeadRuns closes the runs a process that is gone left running,
// counting the usage their events show. It runs off the actor, in the
// writer goroutine's turn, before any batch of this process.
func (a *storeActor) closeDeadRuns() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if n, err := a.db.CloseDeadRuns(ctx, a.cost); err != nil {
		a.log.Error("closing interrupted runs", "err", err)
	} else if n > 0 {
		a.log.Info("closed runs left by a Deckhand that stopped", "runs", n)
	}
}

// redact removes secrets (API keys, bearer tokens, values of auth_env and
// api_key_env variables) from an event's JSON, in plain and escaped form.
func (a *storeActor) redact(raw []byte) []byte { return a.secrets.Bytes(raw) }

// capped is arguments as sent, cut at the output limit when huge.
func (a *storeActor) capped(args json.RawMessage) any {
	if !json.Valid(args) {
		// What the model sent is kept even when it is not JSON (a call cut
		// off mid-arguments): as text, since it cannot be embedded as JSON.
		return tools.Cap(string(args), a.limit)
	}
	if len(args) <= a.limit || a.limit <= 0 {
		return args
	}
	return tools.Cap(string(args), a.limit)
}

// title shortens a first message to a session title (one line).
func title(text string) string { return store.TitleOf(text) }

// elicitLog is what the log keeps of an elicitation: never the answer's
// values (they may be secret), only which fields were asked and answered.
func elicitAskedData(m *servers.ElicitationRequested) map[string]any {
	d := map[string]any{"id": m.ID, "server": m.Server, "call": m.Call, "mode": m.Mode, "message": m.Message, "deadline": m.Deadline}
	if m.Mode == "url" {
		d["host"] = m.Host
	} else {
		d["fields"] = m.Form.Names()
	}
	return d
}

func elicitClosedData(m *servers.ElicitationClosed) map[string]any {
	return map[string]any{"id": m.ID, "server": m.Server, "call": m.Call, "mode": m.Mode, "action": m.Action, "reason": m.Reason, "fields": m.Fields}
}

// withOrigin adds a call's origin to its log entry when it is not the
// model's (a call run by hand): the log says who made each call.
func withOrigin(data map[string]any, origin string) map[string]any {
	if origin != "" {
		data["origin"] = origin
	}
	return data
}
