package writer

import (
	"testing"

	"deckhand/testutil"
)

// TestMain keeps the tests' log key (and anything else of Deckhand's data
// folder) out of the developer's own home folder and keyring.
func TestMain(m *testing.M) { testutil.RunWithKeyFile(m) }
