package actors

import (
	"github.com/asynkron/protoactor-go/actor"

	"deckhand/transport/mcp"
)

// mcpPaths is a resolver that never asks a login shell, so that tests do not
// depend on the developer's shell configuration.
func mcpPaths() mcp.PathResolver { return mcp.PathResolver{Shell: "/bin/false"} }

// propsFunc makes an actor that hands every message to f.
func propsFunc(f func(any)) *actor.Props {
	return actor.PropsFromFunc(func(c actor.Context) { f(c.Message()) })
}
