package servers

import (
	"net"
	"slices"

	"deckhand/sandbox"

	"github.com/asynkron/protoactor-go/actor"
)

// EgressDecided is one connection a sandboxed server whose network is a
// list of hosts asked Deckhand's proxy for, and whether its list allows
// it: an event for the log (capability.granted or capability.denied).
type EgressDecided struct {
	Server  string
	Target  string // host:port
	Allowed bool
	Rule    string // what decided: in or not in the list, or where the name led
}

// egressDecided carries the proxy's word (from its goroutine) to the
// server's actor.
type egressDecided struct {
	target  string
	allowed bool
	rule    string
}

// maxRefused bounds the refused hosts a server's status keeps.
const maxRefused = 5

// onEgress logs a connection the proxy decided and, when refused, shows
// the host in the server's status (the servers panel offers the setting
// that would allow it).
func (a *serverActor) onEgress(c actor.Context, m *egressDecided) {
	if a.deps.store != nil {
		c.Send(a.deps.store, &EgressDecided{Server: a.alias, Target: m.target, Allowed: m.allowed, Rule: m.rule})
	}
	if m.allowed {
		return
	}
	a.log.Warn("capability denied", "capability", "net", "target", m.target, "rule", m.rule)
	if m.rule != "" && m.rule != sandbox.RuleNotListed {
		// The name is on the list; where it led is not. Adding it again
		// would change nothing, so the panel does not offer it.
		return
	}
	host, _, err := net.SplitHostPort(m.target)
	if err != nil {
		host = m.target
	}
	if slices.Contains(a.status.Refused, host) {
		return
	}
	a.status.Refused = append(a.status.Refused, host)
	if len(a.status.Refused) > maxRefused {
		a.status.Refused = a.status.Refused[len(a.status.Refused)-maxRefused:]
	}
	st := a.status
	st.Refused = slices.Clone(a.status.Refused)
	c.Send(c.Parent(), &st)
}
