package servers

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/asynkron/protoactor-go/actor"
)

// Calls reach a server's actor only when they cannot run on its live
// connection (line.go) at once: while it connects (they wait), after it
// dropped a connection, or when it cannot connect (they are refused).

// startCall runs a call on the current connection, or refuses it.
func (a *serverActor) startCall(c actor.Context, sender *actor.PID, m *serverCall) {
	if a.live == nil || !a.live.start(context.Background(), c.ActorSystem().Root, sender, m.req, m.tool) {
		c.Send(sender, &ToolResult{ID: m.req.ID, Tool: a.alias + "." + m.tool, Err: a.unavailable()})
	}
}

// failCalls answers every call in flight with err, at once, and closes the
// live connection to new ones.
func (a *serverActor) failCalls(err error) {
	a.line.publish(nil)
	if a.live != nil {
		a.live.fail(err)
		a.live = nil
	}
}

// unavailable explains why a call cannot be made now.
func (a *serverActor) unavailable() error {
	msg := fmt.Sprintf("server %s is %s", a.alias, a.status.State)
	if a.status.State == StateNeedsSignIn {
		msg = fmt.Sprintf("server %s needs you to sign in (Servers, Sign in; or deckhand mcp login %s)", a.alias, a.alias)
	}
	if a.status.Reason != "" {
		msg += ": " + a.status.Reason
	}
	if !a.status.NextRetry.IsZero() {
		msg += fmt.Sprintf(" (next attempt in %v)", time.Until(a.status.NextRetry).Round(100*time.Millisecond))
	}
	return errors.New(msg)
}
