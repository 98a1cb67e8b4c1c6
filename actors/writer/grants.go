package writer

import (
	"context"
	"maps"
	"sync/atomic"

	"deckhand/store"
)

// Always keeps the "always allow" grants of the log in memory: the gate
// asks it on a run's goroutine, which must not wait for the disk. The
// store actor keeps it: it is loaded at start, and changes by message,
// never by polling:
//
//   - a grant (Grant, from the run whose person answered "always") counts
//     at once, here and in every conversation, and is written by the store
//     actor with its next batch;
//   - a revocation (the RevokeGrant message) stops counting at once and is
//     written with the store actor's next batch, after any grant of the
//     tool still on its way to the disk;
//   - grants given or revoked by another Deckhand process sharing the log
//     count from this process's next run start, when the store actor reads
//     them again (before it writes that run's first rows).
//
// Who owns its state: nobody holds a lock on it. Its state is an immutable
// value (a grantBook) swapped whole: a change copies the book, changes the
// copy and swaps it in (again, on the newest book, if another change came
// first), so a reader sees one book, before or after a change, never half
// of one. Safe for concurrent use. Make one with [NewAlways].
type Always struct {
	book atomic.Pointer[grantBook]
	tell func(msg any) // sends to the store actor
}

// grantBook is one state of the grants; never changed once stored.
type grantBook struct {
	granted  map[string]bool // as last read from the log, and confirmed since
	pending  map[string]bool // granted here, not yet on disk
	revoking map[string]int  // revoked here, not yet deleted on disk: a read of the log does not bring them back
}

// change applies f to a copy of the book and swaps the copy in.
func (g *Always) change(f func(b *grantBook)) {
	for {
		old := g.book.Load()
		next := &grantBook{granted: map[string]bool{}, pending: map[string]bool{}, revoking: map[string]int{}}
		if old != nil {
			next.granted, next.pending, next.revoking = maps.Clone(old.granted), maps.Clone(old.pending), maps.Clone(old.revoking)
		}
		f(next)
		if g.book.CompareAndSwap(old, next) {
			return
		}
	}
}

// NewAlways makes the log's grants; tell sends a message to the store
// actor (which writes a new grant).
func NewAlways(tell func(msg any)) *Always { return &Always{tell: tell} }

func (g *Always) Allowed(tool string) bool {
	b := g.book.Load()
	return b != nil && (b.granted[tool] || b.pending[tool])
}

// Grant counts tool at once and asks the store actor to write it. (It
// does not wait for the actor: the run that granted it may ask the gate
// again before the actor's turn.)
func (g *Always) Grant(tool, by string) error {
	g.change(func(b *grantBook) { b.pending[tool] = true })
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
	g.change(func(b *grantBook) {
		b.granted = make(map[string]bool, len(list))
		for _, gr := range list {
			if !gr.Foreign && b.revoking[gr.Tool] == 0 {
				b.granted[gr.Tool] = true
			}
		}
	})
	return nil
}

// revoke stops tool's grant counting at once; the store actor deletes the
// log's copy with its next batch (then revoked is called).
func (g *Always) revoke(tool string) {
	g.change(func(b *grantBook) {
		delete(b.granted, tool)
		delete(b.pending, tool)
		b.revoking[tool]++
	})
}

// revoked is called once a revocation made here is on disk.
func (g *Always) revoked(tool string) {
	g.change(func(b *grantBook) {
		if b.revoking[tool]--; b.revoking[tool] <= 0 {
			delete(b.revoking, tool)
		}
	})
}

// confirm is called once a grant made here is on disk: from now on the
// log's copy counts, unless a revocation made since is still on its way
// (the store actor calls confirm and revoked in the order of the log's
// rows).
func (g *Always) confirm(tool string) {
	g.change(func(b *grantBook) {
		if b.revoking[tool] > 0 {
			// A grant made before a revocation: the revocation cleared it
			// (and a grant since is pending, confirmed after the revocation).
			return
		}
		b.granted[tool] = true
		delete(b.pending, tool)
	})
}
