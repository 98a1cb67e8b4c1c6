package writer

import (
	"context"
	"sync"

	"deckhand/store"
)

// Always keeps the "always allow" grants of the log in memory: the gate
// asks it inside a conversation's Receive, which must never wait for the
// disk. The store actor owns it: it is loaded at start, and changes by
// message, never by polling:
//
//   - a grant (Grant, from the conversation whose person answered "always")
//     counts at once, here and in every conversation, and is written by
//     the store actor with its next batch;
//   - a revocation (the RevokeGrant message) stops counting at once and is
//     written with the store actor's next batch, after any grant of the
//     tool still on its way to the disk;
//   - grants given or revoked by another Deckhand process sharing the log
//     count from this process's next run start, when the store actor reads
//     them again (before it writes that run's first rows).
//
// Safe for concurrent use. Make one with [NewAlways].
type Always struct {
	mu       sync.Mutex
	granted  map[string]bool // as last read from the log, and confirmed since
	pending  map[string]bool // granted here, not yet on disk
	revoking map[string]int  // revoked here, not yet deleted on disk: a read of the log does not bring them back
	tell     func(msg any)   // sends to the store actor
}

// NewAlways makes the log's grants; tell sends a message to the store
// actor (which writes a new grant).
func NewAlways(tell func(msg any)) *Always { return &Always{tell: tell} }

func (g *Always) Allowed(tool string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.granted[tool] || g.pending[tool]
}

// Grant counts tool at once and asks the store actor to write it. (It
// does not wait for the actor: the conversation that granted it may ask
// the gate again before the actor's turn.)
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

// Load reads the grants from the log: at start, and then only in the
// store actor's writer goroutine, between two writes. A grant made here
// that the log does not hold yet stays pending until it does; a grant
// revoked here that the log still holds stays revoked; a row Deckhand did
// not write (store.Grant.Foreign) never counts.
func (g *Always) Load(ctx context.Context, db *store.DB) error {
	list, err := db.Grants(ctx)
	if err != nil {
		return err
	}
	granted := make(map[string]bool, len(list))
	g.mu.Lock()
	for _, gr := range list {
		if !gr.Foreign && g.revoking[gr.Tool] == 0 {
			granted[gr.Tool] = true
		}
	}
	g.granted = granted
	g.mu.Unlock()
	return nil
}

// revoke stops tool's grant counting at once; the store actor deletes the
// log's copy with its next batch (then revoked is called).
func (g *Always) revoke(tool string) {
	g.mu.Lock()
	delete(g.granted, tool)
	delete(g.pending, tool)
	if g.revoking == nil {
		g.revoking = map[string]int{}
	}
	g.revoking[tool]++
	g.mu.Unlock()
}

// revoked is called once a revocation made here is on disk.
func (g *Always) revoked(tool string) {
	g.mu.Lock()
	if g.revoking[tool]--; g.revoking[tool] <= 0 {
		delete(g.revoking, tool)
	}
	g.mu.Unlock()
}

// confirm is called once a grant made here is on disk: from now on the
// log's copy counts, unless a revocation made since is still on its way
// (the store actor calls confirm and revoked in the order of the log's
// rows).
func (g *Always) confirm(tool string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.revoking[tool] > 0 {
		// A grant made before a revocation: the revocation cleared it
		// (and a grant since is pending, confirmed after the revocation).
		return
	}
	if g.granted == nil {
		g.granted = map[string]bool{}
	}
	g.granted[tool] = true
	delete(g.pending, tool)
}
