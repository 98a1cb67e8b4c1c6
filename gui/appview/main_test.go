package appview

import (
	"testing"

	"deckhand/testutil"
)

// TestMain keeps the tests' log (and its key) away from the developer's
// own home folder.
func TestMain(m *testing.M) { testutil.RunIsolated(m) }
