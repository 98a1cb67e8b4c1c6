package conversation

import (
	"context"
	"time"

	"deckhand/policy"
	"deckhand/toolserver"
)

// runCommand runs one approved shell command: `program -c command`, stdin
// empty, stdout and stderr together, in the workspace, confined by the
// sandbox (the system to read, the workspace to write, no network, a PID
// namespace of its own, killed on cancel or timeout with everything it
// started), with the minimal environment. The result is the text the
// model gets: the command, its output capped at limit bytes, and how it
// ended. It is the built-in tools server's execution path
// (toolserver.Runner), shared by every conversation.
func runCommand(ctx context.Context, r *toolserver.Runner, pol *policy.Policy, program, command string, timeout time.Duration, limit int) (text string, failed bool) {
	return r.Shell(ctx, pol, program, command, timeout, limit)
}
