package writer

import (
	"context"
	"sync"
	"time"

	"deckhand/store"
)

// Always keeps the "always allow" grants of the log in memory: the gate
// asks it inside a conversation's Receive, which must never wait for the
// disk. It is loaded at start and refreshed by the store actor's writer
// (so that a grant revoked by another process stops counting within
// grantsRefresh); a new grant counts at once and is written by the store
// actor.
//
// Safe for concurrent use. Make one with [NewAlways].
type Always struct {
	mu      sync.Mutex
	granted map[string]bool // as last read from the log
	pending map[string]bool // granted here, not yet read back
	tell    func(msg any)   // sends to the store actor
	revoked int             // revocations so far: a read of the log that began before one is stale
}

// NewAlways makes the log's grants; tell sends a message to the store
// actor (which writes a new grant).
func NewAlways(tell func(msg any)) *Always { return &Always{tell: tell} }

// grantsRefresh is how often the grants are read back from the log.
const grantsRefresh = 2 * time.Second

func (g *Always) Allowed(tool string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.granted[tool] || g.pending[tool]
}

func (g *Always) Grant(tool, by string) error {
	g.mu.Lock()
	if g.pending == nil {
		g.pending = map[string]bool{}
	}
	g.pending[tool] = true
	g.mu.Unlock()
	g.tell(&grantAlways{tool: tool, by: by})
	return nil
}

// Load reads the grants from the log. A grant made here that the log does
// not hold yet stays pending until it does.
func (g *Always) Load(ctx context.Context, db *store.DB) error {
	g.mu.Lock()
	revoked := g.revoked
	g.mu.Unlock()
	list, err := db.Grants(ctx)
	if err != nil {
		return err
	}
	granted := make(map[string]bool, len(list))
	for _, gr := range list {
		granted[gr.Tool] = true
	}
	g.mu.Lock()
	if g.revoked == revoked { // else the next refresh reads the log after the revocation
		g.granted = granted
	}
	g.mu.Unlock()
	return nil
}

// Revoke stops tool's grant counting at once (the log's copy is deleted
// by the caller).
func (g *Always) Revoke(tool string) {
	g.mu.Lock()
	delete(g.granted, tool)
	delete(g.pending, tool)
	g.revoked++
	g.mu.Unlock()
}

// confirm is called once a grant made here is on disk: from now on the
// log's copy counts (and its revocation too).
func (g *Always) confirm(tool string) {
	g.mu.Lock()
	if g.granted == nil {
		g.granted = map[string]bool{}
	}
	g.granted[tool] = true
	delete(g.pending, tool)
	g.mu.Unlock()
}
