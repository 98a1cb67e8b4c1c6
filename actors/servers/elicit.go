package servers

import (
	"context"
	"maps"
	"net/url"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/approval"
	"deckhand/clean"
	"deckhand/store"
	"deckhand/transport/mcp"
)

// Elicitation actions: what the person did with a server's question.
const (
	ElicitAccept  = "accept"  // answered (form) or agreed to open the page (url)
	ElicitDecline = "decline" // said no (and what no answer in time counts as)
	ElicitCancel  = "cancel"  // dismissed it without choosing
)

// ElicitationRequested is a server asking the person something (MCP
// elicitation): a form to fill in, or a page to open in the browser. It
// goes to the servers' watchers (the window's bridge, the terminal chat),
// which ask the person and send an ElicitationAnswer to agent.System.Servers; the
// first answer counts, and ElicitationClosed tells every watcher it is
// over. No answer by Deadline declines it.
//
// A server cannot flood the person: its questions are asked one at a
// time (the next waits until the one shown is closed), only during a tool
// call (one asked when none is in flight is declined unseen, and one shown
// or waiting is cancelled when its call ends), at most
// MaxQuestionsPerCall per call, and none once the person chose to stop
// its questions (ElicitationAnswer.Stop) for the session.
type ElicitationRequested struct {
	ID     string
	Server string // the alias of the server asking
	// Conversation, Run and Call are the tool call it came during, when
	// it is known (the server had exactly one call in flight).
	Conversation, Run, Call string
	Mode                    string // "form" or "url"
	Message                 string // the server's words, cleaned
	Form                    *mcp.Form
	URL                     string // url mode: the page, in full
	Host                    string // url mode: its host, to show beside it
	Deadline                time.Time

	reply    chan *sdk.ElicitResult
	callDone <-chan struct{} // closed when its call has ended
	closed   chan struct{}   // closed when it is answered or over
	shown    bool            // sent to the watchers (not only waiting its turn)
}

// ElicitationAnswer answers an ElicitationRequested. Content is the form's
// values (accept, form mode only).
type ElicitationAnswer struct {
	ID, Action string
	Content    map[string]any
	// Stop declines this question and every other of its server's for
	// the rest of the session: the person's "Stop asking".
	Stop bool
}

// ElicitationClosed ends an ElicitationRequested: answered, timed out, or
// abandoned by the server (its call was cancelled, its connection died).
// Fields names the fields answered, never their values.
type ElicitationClosed struct {
	ID, Server              string
	Conversation, Run, Call string
	Mode                    string
	Action                  string
	Reason                  approval.Reason // approval.Answered, or why it closed without an answer
	Fields                  []string
}

// Internal messages of elicitation.
type (
	// elicitAsk: a server's request, from the SDK's goroutine, to its
	// server actor (which knows the call in flight).
	elicitAsk struct {
		id     string
		params *sdk.ElicitParams
		reply  chan *sdk.ElicitResult
		open   *questionOpen
	}
	// elicitEnded: no answer within the deadline, or the server stopped
	// waiting.
	elicitEnded struct {
		id, action string
		reason     approval.Reason
	}
)

// elicitor answers the server's elicitation requests: on the SDK's
// goroutine, it sends the request to the server actor and waits on a
// channel (never in a Receive) for the person's answer, the deadline, or
// the request's end.
func (a *serverActor) elicitor(c actor.Context) func(context.Context, *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
	self, root, servers := c.Self(), c.ActorSystem().Root, c.Parent()
	return func(ctx context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
		id := store.NewID("elicit")
		reply := make(chan *sdk.ElicitResult, 1)
		open := &questionOpen{}
		defer open.end()
		root.Send(self, &elicitAsk{id: id, params: req.Params, reply: reply, open: open})
		select {
		case r := <-reply:
			return r, nil
		case <-ctx.Done():
			root.Send(servers, &elicitEnded{id: id, reason: "the server stopped waiting", action: ElicitCancel})
			return nil, ctx.Err()
		}
	}
}

// questionOpen ties a server's question to the clock of its call: held
// from when the question is tied to the call (hold) until the server has
// its answer or stops waiting (end), whichever order they come in.
type questionOpen struct {
	mu      sync.Mutex
	ended   bool
	release func()
}

// hold holds clock until end (at once released when end came first).
func (q *questionOpen) hold(clock *callClock) {
	if q == nil || clock == nil {
		return
	}
	release := clock.hold()
	q.mu.Lock()
	if q.ended {
		q.mu.Unlock()
		release()
		return
	}
	q.release = release
	q.mu.Unlock()
}

// end releases the clock held, if any.
func (q *questionOpen) end() {
	q.mu.Lock()
	q.ended = true
	release := q.release
	q.release = nil
	q.mu.Unlock()
	if release != nil {
		release()
	}
}

// elicitAsked names the call the request came during and passes it to the
// servers supervisor.
func (a *serverActor) elicitAsked(c actor.Context, m *elicitAsk) {
	p := m.params
	r := &ElicitationRequested{ID: m.id, Server: a.alias, Mode: p.Mode, Message: clean.Text(p.Message), reply: m.reply}
	if r.Mode == "" {
		r.Mode = "form"
		if p.URL != "" {
			r.Mode = "url"
		}
	}
	switch r.Mode {
	case "form":
		form, err := mcp.ParseForm(p.RequestedSchema)
		if err != nil {
			a.log.Warn("elicitation with a form Deckhand cannot show: declined", "err", err)
			m.reply <- &sdk.ElicitResult{Action: ElicitDecline}
			return
		}
		if form == nil {
			form = &mcp.Form{}
		}
		r.Form = form
	case "url":
		u, err := url.Parse(p.URL)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			a.log.Warn("elicitation with a URL that is not a web page: declined")
			m.reply <- &sdk.ElicitResult{Action: ElicitDecline}
			return
		}
		r.URL, r.Host = p.URL, u.Host
	default:
		m.reply <- &sdk.ElicitResult{Action: ElicitDecline}
		return
	}
	call, done, err := a.live.question(relatedTask(p.Meta))
	if err != nil {
		// A question with no call to belong to (the call has ended), or one
		// too many during it: declined before anyone sees it.
		a.log.Warn("elicitation declined unseen", "why", err.Error(), "mode", r.Mode, "fields", r.Form.Names())
		m.reply <- &sdk.ElicitResult{Action: ElicitDecline}
		return
	}
	if call != nil {
		r.Conversation, r.Run, r.Call = callOrigin(call)
		// The call's time stops while the question waits for the person
		// (its own deadline is approval_timeout); a question that cannot
		// be tied to one call leaves every clock as it is.
		m.open.hold(call.clock)
	}
	r.callDone, r.closed = done, make(chan struct{})
	c.Send(c.Parent(), r)
}

// relatedTask is the task a request says it is about (the 2025-11-25
// tasks' io.modelcontextprotocol/related-task), "" when none. The server
// says it: it can only name one of its own calls.
func relatedTask(meta sdk.Meta) string {
	rel, _ := meta["io.modelcontextprotocol/related-task"].(map[string]any)
	id, _ := rel["taskId"].(string)
	return id
}

// callOrigin is the conversation, run and call of a tool call, when a
// conversation made it (CallTool.Origin).
func callOrigin(call *inflight) (conv, run, id string) {
	o := call.req.Origin
	return o.Conversation, o.Run, o.Call
}

// elicitations is the servers supervisor's book of open requests.
type elicitations struct {
	open    map[string]*ElicitationRequested   // shown or waiting their turn, by id
	asking  map[string]*ElicitationRequested   // the question shown, by server
	waiting map[string][]*ElicitationRequested // the next ones, by server, oldest first
	stopped map[string]bool                    // servers whose questions the person stopped
}

// elicitReceive handles elicitation at the servers supervisor: it asks the
// watchers, and answers the server with the first answer, the deadline's
// decline, or nothing when the server stopped waiting.
func (a *serversActor) elicitReceive(c actor.Context, msg any) {
	e := &a.elicit
	if e.open == nil {
		e.open = map[string]*ElicitationRequested{}
		e.asking = map[string]*ElicitationRequested{}
		e.waiting = map[string][]*ElicitationRequested{}
		e.stopped = map[string]bool{}
	}
	switch m := msg.(type) {
	case *ElicitationRequested:
		switch {
		case len(a.watchers) == 0:
			// Nobody to ask (a command without a person): no.
			m.reply <- &sdk.ElicitResult{Action: ElicitDecline}
			a.deps.log.Info("elicitation declined: nobody to ask", "server", m.Server)
			return
		case e.stopped[m.Server]:
			m.reply <- &sdk.ElicitResult{Action: ElicitDecline}
			a.deps.log.Info("elicitation declined unseen: the person stopped this server's questions", "server", m.Server)
			return
		case ended(m.callDone):
			m.reply <- &sdk.ElicitResult{Action: ElicitDecline}
			a.deps.log.Warn("elicitation declined unseen", "server", m.Server, "why", ErrNoCall.Error())
			return
		}
		if m.closed == nil {
			m.closed = make(chan struct{})
		}
		e.open[m.ID] = m
		// Its call's end cancels it, shown or waiting.
		self, root, id, done, closed := c.Self(), c.ActorSystem().Root, m.ID, m.callDone, m.closed
		go func() {
			select {
			case <-done:
				root.Send(self, &elicitEnded{id: id, reason: "its tool call ended", action: ElicitCancel})
			case <-closed:
			}
		}()
		if e.asking[m.Server] != nil {
			e.waiting[m.Server] = append(e.waiting[m.Server], m)
			return
		}
		a.showElicitation(c, m)
	case *ElicitationAnswer:
		r := e.open[m.ID]
		if r == nil {
			return // answered already, or over
		}
		res := &sdk.ElicitResult{Action: m.Action}
		switch m.Action {
		case ElicitAccept:
			if r.Mode == "form" {
				content, err := r.Form.Check(m.Content)
				if err != nil {
					// The window and the terminal check before they answer;
					// an answer that is still wrong is not sent as if right.
					a.deps.log.Warn("elicitation answer does not fit the form: declined", "err", err)
					res.Action = ElicitDecline
				} else {
					res.Content = content
				}
			}
		case ElicitDecline, ElicitCancel:
		default:
			res.Action = ElicitCancel
		}
		// The SDK applies the schema's defaults to the content it is
		// given, on its own goroutine: the log's field names come from a
		// copy taken before.
		answered := maps.Clone(res.Content)
		r.reply <- res
		if m.Stop {
			a.stopElicitations(c, r.Server)
		}
		a.closeElicitation(c, r, res.Action, approval.Answered, answered)
	case *elicitEnded:
		r := e.open[m.id]
		if r == nil {
			return
		}
		r.reply <- &sdk.ElicitResult{Action: m.action}
		a.closeElicitation(c, r, m.action, m.reason, nil)
	}
}

// showElicitation asks the watchers r, the server's one question shown.
func (a *serversActor) showElicitation(c actor.Context, r *ElicitationRequested) {
	a.elicit.asking[r.Server] = r
	r.shown = true
	timeout := a.deps.mcp.ApprovalTimeout
	if timeout <= 0 {
		timeout = 2 * time.Minute
	}
	r.Deadline = time.Now().Add(timeout)
	self, root, id := c.Self(), c.ActorSystem().Root, r.ID
	time.AfterFunc(timeout, func() {
		root.Send(self, &elicitEnded{id: id, reason: approval.TimedOut(timeout), action: ElicitDecline})
	})
	a.deps.log.Info("elicitation asked", "server", r.Server, "mode", r.Mode, "fields", r.Form.Names())
	if a.deps.store != nil && r.Conversation != "" {
		c.Send(a.deps.store, r)
	}
	for _, w := range a.watchers {
		c.Send(w, r)
	}
}

// stopElicitations refuses the rest of server's questions for the
// session: those waiting their turn are declined now, later ones unseen.
func (a *serversActor) stopElicitations(c actor.Context, server string) {
	e := &a.elicit
	e.stopped[server] = true
	waiting := e.waiting[server]
	delete(e.waiting, server)
	a.deps.log.Info("the person stopped a server's questions for this session", "server", server, "declined", len(waiting))
	for _, r := range waiting {
		r.reply <- &sdk.ElicitResult{Action: ElicitDecline}
		a.closeElicitation(c, r, ElicitDecline, "the person stopped this server's questions", nil)
	}
}

// ended reports whether ch is closed.
func ended(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// closeElicitation forgets r and tells the watchers (those that saw it) it
// is over; the server's next question waiting, if any, is shown.
func (a *serversActor) closeElicitation(c actor.Context, r *ElicitationRequested, action string, reason approval.Reason, content map[string]any) {
	e := &a.elicit
	delete(e.open, r.ID)
	close(r.closed)
	if w := e.waiting[r.Server]; !r.shown {
		e.waiting[r.Server] = slices.DeleteFunc(w, func(x *ElicitationRequested) bool { return x == r })
		a.deps.log.Info("elicitation closed before it was shown", "server", r.Server, "action", action, "reason", reason)
		return
	}
	if e.asking[r.Server] == r {
		delete(e.asking, r.Server)
		defer a.nextElicitation(c, r.Server)
	}
	fields := make([]string, 0, len(content))
	for k := range content {
		fields = append(fields, k)
	}
	sort.Strings(fields)
	closed := &ElicitationClosed{ID: r.ID, Server: r.Server, Conversation: r.Conversation, Run: r.Run, Call: r.Call,
		Mode: r.Mode, Action: action, Reason: reason, Fields: fields}
	a.deps.log.Info("elicitation closed", "server", r.Server, "action", action, "reason", reason, "fields", fields)
	if a.deps.store != nil && r.Conversation != "" {
		c.Send(a.deps.store, closed)
	}
	for _, w := range a.watchers {
		c.Send(w, closed)
	}
}

// nextElicitation shows server's next question waiting, if any; those
// whose call has ended meanwhile are cancelled unseen.
func (a *serversActor) nextElicitation(c actor.Context, server string) {
	e := &a.elicit
	for {
		w := e.waiting[server]
		if len(w) == 0 {
			delete(e.waiting, server)
			return
		}
		r := w[0]
		e.waiting[server] = w[1:]
		if !ended(r.callDone) {
			a.showElicitation(c, r)
			return
		}
		r.reply <- &sdk.ElicitResult{Action: ElicitCancel}
		a.closeElicitation(c, r, ElicitCancel, "its tool call ended", nil)
	}
}
