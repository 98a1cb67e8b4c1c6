package actors

import (
	"context"
	"sync"
	"time"

	"deckhand/store"
)

// logAlways keeps the "always allow" grants of the log in memory: the gate
// asks it inside a conversation's Receive, which must never wait for the
// disk. It is loaded at start and refreshed by the store actor's writer
// (so that a grant revoked by another process stops counting within
// grantsRefresh); a new grant counts at once and is written by the store
// actor.
type logAlways struct {
	mu      sync.Mutex
	granted map[string]bool // as last read from the log
	pending map[string]bool // granted here, not yet read back
	send    func(tool, by string)
}

// grantsRefresh is how often the grants are read back from the log.
const grantsRefresh = 2 * time.Second

func (g *logAlways) Allowed(tool string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.granted[tool] || g.pending[tool]
}

func (g *logAlways) Grant(tool, by string) error {
	g.mu.Lock()
	if g.pending == nil {
		g.pending = map[string]bool{}
	}
	g.pending[tool] = true
	g.mu.Unlock()
	g.send(tool, by)
	return nil
}

// load reads the grants from the log. A grant made here that the log does
// not hold yet stays pending until it does.
func (g *logAlways) load(ctx context.Context, db *store.DB) error {
	list, err := db.Grants(ctx)
	if err != nil {
		return err
	}
	granted := make(map[string]bool, len(list))
	for _, gr := range list {
		granted[gr.Tool] = true
	}
	g.mu.Lock()
	g.granted = granted
	g.mu.Unlock()
	return nil
}

// confirm is called once a grant made here is on disk: from now on the
// log's copy counts (and its revocation too).
func (g *logAlways) confirm(tool string) {
	g.mu.Lock()
	if g.granted == nil {
		g.granted = map[string]bool{}
	}
	g.granted[tool] = true
	delete(g.pending, tool)
	g.mu.Unlock()
}
