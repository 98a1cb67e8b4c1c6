package actors

import (
	"testing"

	"deckhand/testutil"
)

// TestMain keeps every test away from the developer's own home folder,
// config and log: servers run sandboxed, with the workspace and state
// folders there.
func TestMain(m *testing.M) { testutil.RunIsolated(m) }
