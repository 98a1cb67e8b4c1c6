package actors

import (
	"context"
	"time"

	"deckhand/policy"
	"deckhand/toolserver"
)

// runCommand runs one approved shell command: `program -c command`, stdin
// empty, stdout and stderr together, in its own process group (killed on
// cancel or timeout, children included), in the workspace, confined by the
// sandbox (the system to read, the workspace to write, no network), with
// the minimal environment. The result is the text the model gets: the
// command, its output capped at limit bytes, and how it ended. It is the
// built-in tools server's execution path (toolserver.Runner), shared.
func runCommand(ctx context.Context, pol *policy.Policy, program, command string, timeout time.Duration, limit int) (text string, failed bool) {
	return toolserver.RunShell(ctx, pol, program, command, timeout, limit)
}
