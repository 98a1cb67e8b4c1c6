package actors

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/store"
	"deckhand/tools"
)

// pinBook keeps the pinned definition of every tool (trust on first use):
// the first definition seen of a tool is pinned; a later, different one is
// a change, which no grant or rule covers until the person accepts it (or,
// for a trusted server, is accepted and logged). Kept in memory, loaded
// from the log at start and written to it by the store actor; safe for
// concurrent use (the registry pins, conversations check and accept).
type pinBook struct {
	mu   sync.Mutex
	pins map[string]store.Pin // by alias.tool
	save func(store.Pin)      // nil without a log
}

func newPinBook(ctx context.Context, db *store.DB, save func(store.Pin)) (*pinBook, error) {
	b := &pinBook{pins: map[string]store.Pin{}, save: save}
	if db == nil {
		return b, nil
	}
	pins, err := db.Pins(ctx)
	if err != nil {
		return b, err
	}
	b.pins = pins
	return b, nil
}

// observe pins the tools of a catalog seen for the first time, and accepts
// the changes of trusted servers. It returns the trusted changes (to log).
func (b *pinBook) observe(cat *tools.Catalog) (accepted []tools.Tool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, t := range cat.Tools() {
		p, ok := b.pins[t.Display]
		switch {
		case !ok:
			b.pinLocked(t)
		case p.Hash != t.Hash && t.Trusted:
			b.pinLocked(t)
			accepted = append(accepted, t)
		}
	}
	return accepted
}

// changed reports whether t differs from its pinned definition, and that
// definition (nil when unknown).
func (b *pinBook) changed(t tools.Tool) (bool, *sdk.Tool) {
	b.mu.Lock()
	p, ok := b.pins[t.Display]
	b.mu.Unlock()
	if !ok || p.Hash == t.Hash {
		return false, nil
	}
	var before sdk.Tool
	if json.Unmarshal(p.Definition, &before) != nil {
		return true, nil
	}
	return true, &before
}

// accept pins t's current definition: the person approved it as it is.
func (b *pinBook) accept(t tools.Tool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.pinLocked(t)
}

func (b *pinBook) pinLocked(t tools.Tool) {
	def, err := json.Marshal(t.Raw)
	if err != nil {
		return
	}
	p := store.Pin{Tool: t.Display, Hash: t.Hash, Definition: def, Time: time.Now()}
	b.pins[t.Display] = p
	if b.save != nil {
		b.save(p)
	}
}
