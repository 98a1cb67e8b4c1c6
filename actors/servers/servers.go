package servers

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"deckhand/config"
)

// ListServers asks the servers supervisor for every server's status. The
// answer is a *ServerList. With WaitSettled, the answer waits until no server
// is still on its first connection attempt (bound it with the request's
// timeout).
type ListServers struct{ WaitSettled bool }

// ServerList answers ListServers, sorted by alias.
type ServerList struct{ Servers []ServerStatus }

// AddServer starts a server that was not in the config at start. The answer
// is a *Done; its Err is a *StartError (errors.Is ErrNotStarted) when the
// server's actor could not be started, and the server is then not added.
// A server of the same alias that was just removed is replaced once its
// actor has stopped (the answer waits for that).
type AddServer struct {
	Alias  string
	Server config.Server
}

// RemoveServer stops a server and forgets it. The answer is a *Done.
type RemoveServer struct{ Alias string }

// Done answers commands that have no other result.
type Done struct{ Err error }

// ErrNotStarted matches a *StartError: a server whose actor could not be
// started.
var ErrNotStarted = errors.New("the server's actor could not be started")

// StartError says why a server's actor could not be started.
type StartError struct {
	Alias string
	Err   error
}

func (e *StartError) Error() string {
	return fmt.Sprintf("server %s: starting its actor: %v", e.Alias, e.Err)
}

func (e *StartError) Unwrap() []error { return []error{ErrNotStarted, e.Err} }

// WatchServers subscribes PID to every *ServerStatus change; the current
// statuses are sent at once.
type WatchServers struct{ PID *actor.PID }

// serversActor supervises one server actor per configured server.
type serversActor struct {
	initial  map[string]config.Server
	deps     serverDeps
	children map[string]*actor.PID
	status   map[string]ServerStatus
	watchers []*actor.PID
	waiting  []*actor.PID // ListServers{WaitSettled} requests not yet answered
	// stopping are the actors of removed servers, by alias, until they
	// have stopped: their names are taken until then.
	stopping map[string]*actor.PID
	// replacing are AddServers of an alias still stopping, answered once
	// its actor has stopped and the new one is started.
	replacing map[string]pendingAdd
	elicit    elicitations // servers' questions to the person (elicit.go)
}

type pendingAdd struct {
	server config.Server
	sender *actor.PID
}

func newServers(servers map[string]config.Server, deps serverDeps) *serversActor {
	return &serversActor{initial: servers, deps: deps}
}

func (a *serversActor) Receive(c actor.Context) {
	switch m := c.Message().(type) {
	case *actor.Started:
		a.children = map[string]*actor.PID{}
		a.status = map[string]ServerStatus{}
		a.stopping = map[string]*actor.PID{}
		a.replacing = map[string]pendingAdd{}
		for alias, srv := range a.initial {
			a.spawn(c, alias, srv)
		}
		a.answerWaiting(c)
	case *ServerStatus:
		if _, known := a.status[m.Alias]; !known {
			return // a late status from a removed server
		}
		a.status[m.Alias] = *m
		if m.State == StateReady {
			// Its own tools are listed: those of its last connection
			// (5,000 definitions with 100 servers of 50) are not needed
			// again, and the registry has let go of its copy.
			delete(a.deps.cached, m.Alias)
		}
		for _, w := range a.watchers {
			c.Send(w, m)
		}
		a.answerWaiting(c)
	case *ListServers:
		if m.WaitSettled && !a.settled() {
			a.waiting = append(a.waiting, c.Sender())
			return
		}
		c.Respond(a.list())
	case *AddServer:
		if err := config.ValidAlias(m.Alias); err != nil {
			c.Respond(&Done{Err: fmt.Errorf("alias %q: %w", m.Alias, err)})
			return
		}
		if _, taken := a.status[m.Alias]; taken {
			c.Respond(&Done{Err: fmt.Errorf("a server named %q already exists", m.Alias)})
			return
		}
		if a.stopping[m.Alias] != nil {
			// The name is the old actor's until it has stopped.
			a.status[m.Alias] = ServerStatus{Alias: m.Alias, State: StateConnecting, Since: time.Now()}
			a.replacing[m.Alias] = pendingAdd{server: m.Server, sender: c.Sender()}
			return
		}
		c.Respond(&Done{Err: a.add(c, m.Alias, m.Server)})
	case *RemoveServer:
		if _, ok := a.status[m.Alias]; !ok {
			c.Respond(&Done{Err: fmt.Errorf("no server named %q", m.Alias)})
			return
		}
		if pid := a.children[m.Alias]; pid != nil {
			c.Stop(pid)
			a.stopping[m.Alias] = pid
		}
		if p, ok := a.replacing[m.Alias]; ok {
			delete(a.replacing, m.Alias)
			c.Send(p.sender, &Done{Err: fmt.Errorf("server %q was removed before it started", m.Alias)})
		}
		delete(a.children, m.Alias)
		delete(a.status, m.Alias)
		c.Send(a.deps.registry, &serverRemoved{alias: m.Alias})
		gone := ServerStatus{Alias: m.Alias, State: StateStopped, Reason: "removed", Since: time.Now()}
		for _, w := range a.watchers {
			c.Send(w, &gone)
		}
		c.Respond(&Done{})
	case *ReconnectServer:
		if pid := a.children[m.Alias]; pid != nil {
			c.Send(pid, m)
		}
	case *ConnectServer:
		if pid := a.children[m.Alias]; pid != nil {
			c.Send(pid, m)
		}
	case *RelistTools:
		if pid := a.children[m.Alias]; pid != nil {
			c.Send(pid, m)
		}
	case *WatchServers:
		// Once per watcher: one that asks again gets the statuses again,
		// and each change once.
		if !slices.ContainsFunc(a.watchers, m.PID.Equal) {
			a.watchers = append(a.watchers, m.PID)
			c.Watch(m.PID)
		}
		for _, st := range a.list().Servers {
			c.Send(m.PID, &st)
		}
	case *actor.Terminated:
		a.watchers = slices.DeleteFunc(a.watchers, func(p *actor.PID) bool { return p.Equal(m.Who) })
		a.stopped(c, m.Who)
	case *SignIn:
		if pid := a.children[m.Alias]; pid != nil {
			c.Forward(pid)
		} else if c.Sender() != nil {
			c.Respond(&ServerStatus{Alias: m.Alias, State: StateStopped, Reason: "no such server, or it is disabled"})
		}
	case *SignOut:
		if pid := a.children[m.Alias]; pid != nil {
			c.Forward(pid)
		} else if c.Sender() != nil {
			c.Respond(&Done{Err: fmt.Errorf("no server named %q is running", m.Alias)})
		}
	case *ElicitationRequested, *ElicitationAnswer, *elicitEnded:
		a.elicitReceive(c, m)
	case serverRequest:
		a.forwardRequest(c, m) // resources and prompts (resources.go)
	}
}

// add starts a server that was not there: a *StartError if its actor could
// not be started, and then the server is forgotten.
func (a *serversActor) add(c actor.Context, alias string, srv config.Server) error {
	if err := a.spawn(c, alias, srv); err != nil {
		delete(a.status, alias)
		return err
	}
	return nil
}

// stopped takes the end of a removed server's actor: an AddServer of its
// alias that waited for the name starts now.
func (a *serversActor) stopped(c actor.Context, who *actor.PID) {
	for alias, pid := range a.stopping {
		if !pid.Equal(who) {
			continue
		}
		delete(a.stopping, alias)
		if p, ok := a.replacing[alias]; ok {
			delete(a.replacing, alias)
			delete(a.status, alias)
			c.Send(p.sender, &Done{Err: a.add(c, alias, p.server)})
		}
	}
}

// spawn starts a server's actor; its status says how that went (a
// *StartError too).
func (a *serversActor) spawn(c actor.Context, alias string, srv config.Server) error {
	st := ServerStatus{
		Alias:     alias,
		State:     StateConnecting,
		Transport: srv.EffectiveTransport(),
		Endpoint:  srv.Endpoint(),
		Tools:     len(a.deps.cached[alias]), // offered from its last connection meanwhile
		Since:     time.Now(),
	}
	if srv.Disabled {
		st.State, st.Reason = StateStopped, "disabled in config"
		a.status[alias] = st
		return nil
	}
	a.status[alias] = st
	deps, line := a.deps, &serverLine{}
	cachedTools := len(a.deps.cached[alias])
	// The registry is told of the server before its actor runs (OnInit is
	// called within the spawn, before the actor's mailbox starts): what the
	// server sends it, its tools first, then always comes after. Told once
	// the spawn returned, it could hear first from a server that connects
	// in milliseconds (an in-process one) while this goroutine waited for
	// a core, and dropped its tools as a removed server's: the catalog
	// never had them. The tools of its last connection are offered until it
	// lists its own: a slow start loses no call (a call waits for the
	// connection). (The props keep register for the actor's life: it
	// looks them up rather than hold them.)
	register := func(child actor.Context) {
		c.Send(a.deps.registry, &serverSpawned{alias: alias, server: srv, pid: child.Self(), line: line, cached: a.deps.cached[alias]})
	}
	pid, err := c.SpawnNamed(actor.PropsFromProducer(func() actor.Actor {
		s := newServer(alias, srv, deps, line)
		s.cachedTools = cachedTools
		return s
	}, actor.WithOnInit(register)), alias)
	if err != nil {
		serr := &StartError{Alias: alias, Err: err}
		st.State, st.Reason = StateFailed, "starting its actor: "+err.Error()
		a.status[alias] = st
		return serr
	}
	a.children[alias] = pid
	return nil
}

func (a *serversActor) settled() bool {
	for _, st := range a.status {
		if !st.Settled() {
			return false
		}
	}
	return true
}

func (a *serversActor) answerWaiting(c actor.Context) {
	if len(a.waiting) == 0 || !a.settled() {
		return
	}
	list := a.list()
	for _, w := range a.waiting {
		c.Send(w, list)
	}
	a.waiting = nil
}

func (a *serversActor) list() *ServerList {
	out := make([]ServerStatus, 0, len(a.status))
	for _, st := range a.status {
		out = append(out, st)
	}
	slices.SortFunc(out, func(x, y ServerStatus) int { return strings.Compare(x.Alias, y.Alias) })
	return &ServerList{Servers: out}
}
