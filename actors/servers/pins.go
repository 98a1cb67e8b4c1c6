package servers

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/approval"
	"deckhand/store"
	"deckhand/tools"
)

// Pins keeps the pinned definition of every tool (trust on first use):
// the first definition seen of a tool is pinned; a later, different one is
// a change, which no grant or rule covers until the person accepts it (or,
// for a trusted server, is accepted and logged). Kept in memory, loaded
// from the log at start and written to it by the store actor; safe for
// concurrent use (the registry pins, conversations check and accept).
//
// It also keeps which definitions of quarantined tools the person has
// looked at (Review): a tool with a high-risk flag is not offered to the
// model until then, and a changed definition is quarantined again. Reviews
// are events of the log (tool.reviewed), read back at start.
type Pins struct {
	mu       sync.Mutex
	pins     map[string]store.Pin // by alias.tool
	reviewed map[string]string    // by alias.tool: the hash of the definition looked at
	save     func(store.Pin)      // nil without a log
	// saveReview logs a review (nil without a log).
	saveReview func(*ToolReviewed)
}

// ToolReviewed is the person having looked at a quarantined tool's
// definition (hash): an event for the log (tool.reviewed).
type ToolReviewed struct {
	Tool string // alias.tool
	Hash string
}

func NewPins(ctx context.Context, db *store.DB, save func(store.Pin)) (*Pins, error) {
	b := &Pins{pins: map[string]store.Pin{}, reviewed: map[string]string{}, save: save}
	if db == nil {
		return b, nil
	}
	pins, err := db.Pins(ctx)
	if err != nil {
		return b, err
	}
	b.pins = pins
	events, err := db.Events(ctx, store.Filter{Servers: true})
	if err != nil {
		return b, fmt.Errorf("reading the tools reviewed: %w", err)
	}
	for _, e := range events {
		if e.Kind != store.KindToolReviewed || e.Foreign {
			continue // a review Deckhand did not write releases nothing
		}
		var r struct{ Tool, Hash string }
		if json.Unmarshal(e.Data, &r) == nil && r.Tool != "" {
			b.reviewed[r.Tool] = r.Hash
		}
	}
	return b, nil
}

// OnReview sets where reviews are logged (before the pins are shared).
func (b *Pins) OnReview(save func(*ToolReviewed)) { b.saveReview = save }

// Quarantined reports whether t is kept from the model: a high-risk flag
// on a definition the person has not looked at (a trusted server's tools
// never are: its definitions are accepted as they come).
func (b *Pins) Quarantined(t tools.Tool) bool {
	if b == nil || t.Trusted || !t.Risky() {
		return false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.reviewed[t.Display] != t.Hash
}

// Review records that the person has looked at t's definition as it is
// now: it is offered to the model from the next catalog on.
func (b *Pins) Review(t tools.Tool) {
	b.mu.Lock()
	if b.reviewed[t.Display] == t.Hash {
		b.mu.Unlock()
		return
	}
	b.reviewed[t.Display] = t.Hash
	b.mu.Unlock()
	if b.saveReview != nil {
		b.saveReview(&ToolReviewed{Tool: t.Display, Hash: t.Hash})
	}
}

// newFor is how long a tool added to a known server is marked new.
const newFor = 7 * 24 * time.Hour

// PinNews is what one look at the catalog found: tools added to servers
// already known, tools gone from their server's listing, and changes a
// trusted server made (accepted).
type PinNews struct {
	Added, Gone, Accepted []string // alias.tool
}

// observe pins the tools of a catalog seen for the first time, marks those
// that appear on a server already known as added, notes the tools missing
// from the listing of a server in listed (aliases whose listing the catalog
// holds), and accepts the changes of trusted servers.
func (b *Pins) observe(cat *tools.Catalog, listed []string) PinNews {
	b.mu.Lock()
	defer b.mu.Unlock()
	var news PinNews
	now := time.Now()
	for _, alias := range listed {
		known := false
		prefix := alias + "."
		for name := range b.pins {
			if strings.HasPrefix(name, prefix) {
				known = true
				break
			}
		}
		present := map[string]bool{}
		for _, t := range cat.Server(alias) {
			present[t.Display] = true
			p, ok := b.pins[t.Display]
			switch {
			case !ok:
				p = store.Pin{FirstSeen: now, Added: known}
				if known {
					news.Added = append(news.Added, t.Display)
				}
				b.pinLocked(t, p)
			case p.Hash != t.Hash && t.Trusted:
				p.Gone = time.Time{}
				b.pinLocked(t, p)
				news.Accepted = append(news.Accepted, t.Display)
			case !p.Gone.IsZero():
				p.Gone = time.Time{}
				b.saveLocked(p)
			}
		}
		for name, p := range b.pins {
			if strings.HasPrefix(name, prefix) && !present[name] && p.Gone.IsZero() {
				p.Gone = now
				b.saveLocked(p)
				news.Gone = append(news.Gone, name)
			}
		}
	}
	slices.Sort(news.Added)
	slices.Sort(news.Gone)
	return news
}

// pin is what the book holds of a tool, if anything.
func (b *Pins) pin(tool string) (store.Pin, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	p, ok := b.pins[tool]
	return p, ok
}

// fresh reports whether a tool was added to a server already known, less
// than newFor ago, and when.
func (b *Pins) Fresh(tool string) (bool, time.Time) {
	p, ok := b.pin(tool)
	if !ok || !p.Added || p.FirstSeen.IsZero() || time.Since(p.FirstSeen) > newFor {
		return false, time.Time{}
	}
	return true, p.FirstSeen
}

// gone lists the pinned tools of alias (every alias when "") missing from
// their server's last listing, by name.
func (b *Pins) Gone(alias string) []store.Pin {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []store.Pin
	for name, p := range b.pins {
		if !p.Gone.IsZero() && (alias == "" || strings.HasPrefix(name, alias+".")) {
			out = append(out, p)
		}
	}
	slices.SortFunc(out, func(a, b store.Pin) int { return strings.Compare(a.Tool, b.Tool) })
	return out
}

// changed reports whether t differs from its pinned definition, and that
// definition (nil when unknown).
func (b *Pins) Changed(t tools.Tool) (bool, *sdk.Tool) {
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

// Gate is what the gate compares a tool with (approval.Pin): the hash and
// definition pinned for it now; the zero Pin for a tool never pinned, and
// a nil Definition when the pinned one cannot be read back.
func (b *Pins) Gate(tool string) approval.Pin {
	p, ok := b.pin(tool)
	if !ok {
		return approval.Pin{}
	}
	out := approval.Pin{Hash: p.Hash}
	var def sdk.Tool
	if json.Unmarshal(p.Definition, &def) == nil {
		out.Definition = &def
	}
	return out
}

// accept pins t's current definition: the person approved it as it is.
func (b *Pins) Accept(t tools.Tool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	p, ok := b.pins[t.Display]
	if !ok {
		p.FirstSeen = time.Now()
	}
	b.pinLocked(t, p)
}

// pinLocked pins t's definition, keeping p's history (first seen, added).
func (b *Pins) pinLocked(t tools.Tool, p store.Pin) {
	def, err := json.Marshal(t.Raw)
	if err != nil {
		return
	}
	p.Tool, p.Hash, p.Definition, p.Time = t.Display, t.Hash, def, time.Now()
	b.saveLocked(p)
}

func (b *Pins) saveLocked(p store.Pin) {
	b.pins[p.Tool] = p
	if b.save != nil {
		b.save(p)
	}
}

// NewToolWarning says that a server already known added a tool at since.
func NewToolWarning(alias string, since time.Time) string {
	return fmt.Sprintf("new: %s added this tool on %s; it was not in the server's earlier listings", alias, since.Local().Format("2006-01-02 15:04"))
}
