package servers

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/store"
	"deckhand/tools"
)

// joinCatalog is a catalog of n servers (s0000, s0001, ...) of perServer
// tools each, and their aliases in the order they join.
func joinCatalog(n, perServer int) (*tools.Catalog, []string) {
	b := tools.NewBuilder(nil)
	aliases := make([]string, n)
	for i := range n {
		aliases[i] = fmt.Sprintf("s%04d", i)
		defs := make([]*sdk.Tool, perServer)
		for j := range defs {
			defs[j] = &sdk.Tool{Name: fmt.Sprintf("%s_tool_%d", aliases[i], j), Description: fmt.Sprintf("Tool %d of server %d.", j, i),
				InputSchema: map[string]any{"type": "object"}}
		}
		b.Set(aliases[i], tools.Source{Tools: defs})
	}
	return b.Catalog(), aliases
}

// BenchmarkPinsObserve pins the tools of n servers joining one by one (10
// tools each, as the registry observes each server when it joins), with
// the book swapped whole per server (new) and with the book it replaced,
// two maps under a mutex that observe scanned whole for each server
// (old). ns/join is the time of one server's join: flat in n for new.
func BenchmarkPinsObserve(b *testing.B) {
	for _, n := range benchServers {
		cat, aliases := joinCatalog(n, 10)
		b.Run(fmt.Sprintf("servers=%d/new", n), func(b *testing.B) {
			for b.Loop() {
				p, _ := NewPins(context.Background(), nil, func(store.Pin) {})
				for _, a := range aliases {
					p.observe(cat, []string{a})
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/join")
		})
		b.Run(fmt.Sprintf("servers=%d/old", n), func(b *testing.B) {
			for b.Loop() {
				p := &oldPins{pins: map[string]store.Pin{}, save: func(store.Pin) {}}
				for _, a := range aliases {
					p.observe(cat, []string{a})
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/join")
		})
	}
}

// oldPins is the book's observe as it was before it was swapped whole
// (commit 12448a8), kept here only to measure against.
type oldPins struct {
	mu   sync.Mutex
	pins map[string]store.Pin
	save func(store.Pin)
}

func (b *oldPins) observe(cat *tools.Catalog, listed []string) PinNews {
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

func (b *oldPins) pinLocked(t tools.Tool, p store.Pin) {
	def, err := json.Marshal(t.Raw)
	if err != nil {
		return
	}
	p.Tool, p.Hash, p.Definition, p.Time = t.Display, t.Hash, def, time.Now()
	b.saveLocked(p)
}

func (b *oldPins) saveLocked(p store.Pin) {
	b.pins[p.Tool] = p
	if b.save != nil {
		b.save(p)
	}
}

var benchServers = []int{100, 1000, 4400}
