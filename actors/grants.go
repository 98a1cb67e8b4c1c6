package actors

import (
	"context"
	"errors"
	"sync"
	"time"

	"deckhand/approval"
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
	revoked int // revocations so far: a read of the log that began before one is stale
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

// revoke stops tool's grant counting at once (the log's copy is deleted
// by the caller).
func (g *logAlways) revoke(tool string) {
	g.mu.Lock()
	delete(g.granted, tool)
	delete(g.pending, tool)
	g.revoked++
	g.mu.Unlock()
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

// Grants lists the "always allow" grants, by tool: the log's, or this
// process's when there is no log.
func (s *System) Grants(ctx context.Context) ([]store.Grant, error) {
	switch a := s.always.(type) {
	case *logAlways:
		// A grant just given may not be on disk yet.
		if err := s.SyncLog(ctx); err != nil {
			return nil, err
		}
		return s.db.Grants(ctx)
	case *approval.MemoryAlways:
		var out []store.Grant
		for _, g := range a.List() {
			out = append(out, store.Grant{Tool: g.Tool, Scope: "always", By: g.By, Time: g.At})
		}
		return out, nil
	}
	return nil, nil
}

// RevokeGrant removes tool's "always allow": the next call of the tool is
// asked again, in every conversation, without a restart. A tool without a
// grant is not an error.
func (s *System) RevokeGrant(ctx context.Context, tool string) error {
	switch a := s.always.(type) {
	case *logAlways:
		// A grant still on its way to the disk would come back after the
		// delete: let it land first.
		if err := s.SyncLog(ctx); err != nil {
			return err
		}
		if _, err := s.db.RevokeGrant(ctx, tool); err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
		a.revoke(tool)
	case *approval.MemoryAlways:
		a.Revoke(tool)
	}
	return nil
}
