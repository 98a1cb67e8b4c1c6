package servers

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/config"
	"deckhand/redact"
	"deckhand/tools"
	"deckhand/transport/mcp"
)

// State is where a server's connection stands.
type State string

const (
	StateConnecting   State = "connecting"   // the first attempt is under way
	StateReady        State = "ready"        // connected; tools are callable
	StateFailed       State = "failed"       // never connected; retrying with backoff
	StateReconnecting State = "reconnecting" // the connection died; retrying with backoff
	StateStopped      State = "stopped"      // disabled, or disconnected on request
	StateIdle         State = "idle"         // connects on demand: not yet; its tools are those of its last connection
)

// ServerStatus is a snapshot of one server, sent to the servers supervisor
// on every change and passed on to watchers.
type ServerStatus struct {
	Alias           string
	State           State
	Reason          string      // why failed, reconnecting or stopped
	Failure         mcp.Failure // the kind of failure behind Reason, for advice
	Transport       string      // once connected: stdio, streamable, sse or json; before: as configured
	Endpoint        string      // URL or command line, without secrets
	ProtocolVersion string
	ServerName      string
	ServerVersion   string
	Tools           int
	Since           time.Time // when State last changed
	NextRetry       time.Time // zero unless a retry is scheduled
	Attempts        int       // failed attempts since the last success
	// Sign-in (OAuth; signin.go): whether the connection is signed in and,
	// when the server said, as whom; while signing in, the page opened in
	// the browser, to show and copy.
	SignedIn  bool
	Account   string
	SignInURL string
	// Refused are the last hosts a sandboxed server whose network is a
	// list of hosts asked for and was refused (network = [...] would
	// allow them).
	Refused []string
	// Stops counts the times its connection died unasked (the process
	// exited, the stream broke) since its actor started; LastStop is the
	// last of them. A server that comes back is ready again with nothing
	// else to show it is unstable.
	Stops    int
	LastStop Stop
}

// Stop is a connection that died unasked.
type Stop struct {
	At     time.Time // when it died
	Back   time.Time // when the server was ready again; zero until then
	Exit   string    // a process's exit status ("exit status 3", "signal: killed"), or ""
	Reason string    // why, as Reason said then (with stderr's last lines): one clean, bounded line
}

// Settled reports whether the first connection attempt has an outcome.
func (s ServerStatus) Settled() bool { return s.State != StateConnecting }

// CallTool asks for one tool call, by display name (alias.tool) or wire
// name; the answer, a *ToolResult, goes to the sender. Conversations hand
// it to the router (Router.Dispatch; agent.System.CallTool uses
// Router.Call); sent to the registry, it is routed the same way.
type CallTool struct {
	ID   string // the caller's id for this call, echoed in the answer
	Tool string // alias.tool or the wire name
	// Resolved, if set, is the definition the caller checked the call
	// against and showed: the call goes to exactly that server and tool,
	// and is refused (toolcall.ErrChanged) if the server has redefined the
	// tool since. Without it, Tool is looked up in the current catalog.
	Resolved   *tools.Tool
	Args       json.RawMessage // a JSON object; nil means {}
	Timeout    time.Duration   // 0: the server's configured timeout
	ProgressTo *actor.PID      // if set, receives *ToolProgress
	// Origin names the conversation, run and call that make the call
	// (zero for a command's): a question the server asks during the call
	// (elicitation) is shown and logged as theirs.
	Origin CallOrigin
	// NoWait: when the server makes a task of the call, answer at once
	// with the task (ToolResult.Task) rather than following it to its end.
	NoWait bool

	setting string // with Timeout: the setting it comes from, to name when it runs out
}

// CallOrigin is where a tool call comes from, when a conversation makes it.
type CallOrigin struct {
	Conversation, Run, Call string
}

// ToolResult answers CallTool. Err is a failure to get a result at all (the
// server is down, the call timed out, the tool does not exist); a tool that
// ran and failed is a Result with IsError.
type ToolResult struct {
	ID      string
	Tool    string // alias.tool
	Result  *sdk.CallToolResult
	Err     error
	Elapsed time.Duration
	// Task is the task the server made of a NoWait call (Result is nil).
	Task *mcp.Task
}

// ToolProgress is a progress notification for a call in flight.
type ToolProgress struct {
	ID       string
	Tool     string
	Progress mcp.Progress
}

// CancelCall cancels a call in flight; its ToolResult says it was cancelled.
type CancelCall struct {
	ID   string
	Tool string // alias.tool, for routing
}

// RelistTools has a connected server's tools listed again, with what it
// left out (Options.NotLoaded): for an in-process server whose reasons
// changed while its tools did not, which announces nothing.
type RelistTools struct{ Alias string }

// ReconnectServer drops a server's connection (if any) and connects again
// at once.
type ReconnectServer struct{ Alias string }

// ConnectServer connects a server that waits for its first call (it
// connects on demand) at once, so that it lists its own tools; a server
// that is connected or connecting is left as it is, its calls untouched.
type ConnectServer struct {
	Alias string
	Why   string // shown in its status while it connects
}

// serverCall is CallTool routed to a server, with the server's own tool name.
type serverCall struct {
	req  *CallTool
	tool string // the server's name for it
}

// serverDeps is what a server actor needs from the system.
type serverDeps struct {
	mcp      config.MCP
	registry *actor.PID
	log      *slog.Logger
	conns    *sync.WaitGroup // connections and connection attempts not yet finished
	workers  *workers
	dial     func(ctx context.Context, alias string, srv config.Server, hooks connHooks) (*mcp.Conn, error)
	// cached are the tools of each server's last connection (from the log),
	// offered by servers that connect on demand until they do. Only the
	// servers actor reads it (a server is told how many its alias has at
	// spawn), and it drops a server's once the server has listed its own.
	cached map[string][]*sdk.Tool
	// saveTools keeps a server's tools for the next start; nil without a
	// log.
	saveTools func(alias string, tools []*sdk.Tool)
	// notLoaded are Options.NotLoaded.
	notLoaded map[string]func() []tools.Rejected
	// signIn configures OAuth sign-in (signin.go); addSecrets makes new
	// tokens secrets; store, if set, logs elicitations (elicit.go).
	signIn     *SignInOptions
	addSecrets func(...string)
	store      *actor.PID
	// secrets are removed from results, progress and errors as they
	// leave the server (line.go).
	secrets *redact.Set
}

// serverActor owns the connection to one server.
type serverActor struct {
	alias string
	srv   config.Server
	deps  serverDeps
	log   *slog.Logger
	// cachedTools: how many tools the server's last connection listed
	// (kept in the log), offered until it lists its own.
	cachedTools int

	// life ends when the actor stops; every connection is closed then.
	life    context.Context
	endLife context.CancelFunc

	status     ServerStatus
	conn       *tracked
	gen        int
	cancelDial context.CancelFunc
	retry      *time.Timer
	// line publishes live, the connection calls run on, to the router.
	line *serverLine
	live *liveConn
	// waiting are calls that came while an on-demand server was idle or
	// making its first connection; they go ahead once it is ready.
	waiting []waitingCall
	// listed is the last listing published; listing says one is under
	// way, relist that another announcement came meanwhile.
	listed          []*sdk.Tool
	notLoaded       []tools.Rejected // with listed
	listing, relist bool
	auth            authState // signing in (signin.go)
	// pending are resource and prompt requests waiting for a connection;
	// subs the subscribers of each watched resource (resources.go).
	pending []pendingRequest
	subs    map[string][]*actor.PID
}

// connHooks are what a connection calls back (from the SDK's goroutines).
type connHooks struct {
	toolsChanged    func()
	resourceUpdated func(uri string)
	egress          func(target string, allowed bool, rule string)
}

type waitingCall struct {
	sender *actor.PID
	call   *serverCall
}

func newServer(alias string, srv config.Server, deps serverDeps, line *serverLine) *serverActor {
	return &serverActor{
		alias: alias,
		srv:   srv,
		deps:  deps,
		log:   deps.log.With("actor", "server", "server", alias),
		line:  line,
		status: ServerStatus{
			Alias:     alias,
			State:     StateConnecting,
			Transport: srv.EffectiveTransport(),
			Endpoint:  srv.Endpoint(),
		},
	}
}

func (a *serverActor) Receive(c actor.Context) {
	switch m := c.Message().(type) {
	case *actor.Started:
		a.life, a.endLife = context.WithCancel(context.Background())
		// The tools of the last connection stand in until the server lists
		// its own: until its first call for one that connects on demand
		// (start-up waits for nothing), while it connects for any other.
		// (The servers supervisor gives the registry the same tools.)
		a.status.Tools = a.cachedTools
		if a.srv.Connect == config.ConnectOnDemand && a.cachedTools > 0 {
			a.setState(c, StateIdle, "connects at its first call")
			return
		}
		a.setState(c, StateConnecting, "")
		a.dial(c)
	case *dialed:
		a.onDialed(c, m)
	case *connLost:
		if m.gen == a.gen && a.conn != nil {
			a.onLost(c, m.err)
		}
	case *retryDial:
		if m.gen == a.gen && a.conn == nil {
			a.dial(c)
		}
	case *ConnectServer:
		if a.status.State == StateIdle && a.conn == nil {
			a.setState(c, StateConnecting, m.Why)
			a.dial(c)
		}
	case *ReconnectServer:
		a.failCalls(fmt.Errorf("server %s is reconnecting on request", a.alias))
		a.drop()
		a.status.Attempts = 0
		a.setState(c, StateReconnecting, "reconnecting on request")
		a.dial(c)
	case *serverCall:
		switch {
		case a.status.State == StateIdle:
			a.waiting = append(a.waiting, waitingCall{c.Sender(), m})
			a.setState(c, StateConnecting, "connecting for its first call")
			a.dial(c)
		case a.conn == nil && (a.status.State == StateConnecting || len(a.waiting) > 0):
			// Its first connection is under way: the call waits for it (at
			// most its connect timeout; CancelCall ends the wait).
			a.waiting = append(a.waiting, waitingCall{c.Sender(), m})
		default:
			a.startCall(c, c.Sender(), m)
		}
	case *CancelCall:
		if a.live != nil {
			a.live.cancel(m.ID)
		}
		a.cancelWaiting(c, m.ID)
	case *RelistTools:
		if a.conn != nil {
			a.listTools(c)
		}
	case *toolsChanged:
		m.pending.Store(false)
		if m.gen == a.gen && a.conn != nil {
			a.listTools(c)
		}
	case *relistNow:
		if m.gen == a.gen && a.conn != nil {
			a.listing = false
			if a.relist {
				a.relist = false
				a.listTools(c)
			}
		}
	case *toolsListed:
		if m.gen != a.gen || a.conn == nil {
			return
		}
		// The next listing waits for a pause after this one, whether it
		// was announced during this one or comes later: a flood costs
		// four listings a second at most, however fast the server lists.
		gen, self, root := a.gen, c.Self(), c.ActorSystem().Root
		time.AfterFunc(relistPause, func() { root.Send(self, &relistNow{gen: gen}) })
		if m.err != nil {
			a.log.Warn("refreshing tools", "err", m.err)
			return
		}
		a.publishTools(c, m.tools, m.notLoaded)
	case *SignIn, *SignOut, *signInURL, *signInNeeded, *signedOut, *elicitAsk:
		a.authReceive(c, m)
	case *actor.Restarting, *actor.Stopping:
		a.failWaiting(c, fmt.Errorf("server %s stopped", a.alias))
		a.failCalls(fmt.Errorf("server %s stopped", a.alias))
		a.drop()
		a.endLife()
	default:
		a.resourceReceive(c, m)
	}
}
