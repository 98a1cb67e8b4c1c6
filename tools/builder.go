package tools

import (
	"slices"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/clean"
)

// Builder keeps a catalog whose servers join, change and leave one at a
// time: each change works on that server's part and on the tools of other
// servers whose flags it can change, found through indexes (the words of
// every tool's texts, the skeletons of names, the aliases), never by a
// pass over the whole catalog. The catalogs it returns equal NewCatalog's
// for the same servers, flags and wire names included (TestBuilder checks
// it on random sequences), and share every server's part that did not
// change; each is immutable.
//
// A Builder is not safe for concurrent use: one actor owns it.
type Builder struct {
	memo    *Memo
	servers map[string]*builtServer
	ix      *nameIndex
	// Postings, from a word (lower case) to the tools of other servers
	// whose flags it may change: mentions holds every word of a tool's
	// texts (it may be an alias), named only the distinctive ones (they
	// name a tool whatever the text says of its server), wired the alias
	// of each alias__tool word, skels each tool by its name's skeleton.
	// A tool replaced stays in them, marked dead, until compact.
	// Keyed by wordKey: a word that shares its key only adds a tool to
	// re-check.
	mentions, named, wired, skels map[uint64][]*entry
	live, dead                    int
	// claims: the wire name each tool would have alone (plain, or with
	// the short hash suffix) → the tools claiming it; clashes counts the
	// names claimed twice. Without a clash every tool has its claim, as
	// NewCatalog would give; with one, wire names are assigned afresh
	// across the catalog (rare: it takes names that differ only in
	// characters a model API does not accept).
	claims  map[string][]*entry
	clashes int
	fresh   bool // the wire names were assigned afresh and may differ from the claims
	parts   partList
	changed []string
	mark    uint64
	cat     *Catalog
}

type builtServer struct {
	entries  []*entry // sorted by Name
	rejected []Rejected
}

// entry is one tool as the builder holds it: its Tool (flags and wire name
// kept current) and what its definition earned by itself.
type entry struct {
	t     Tool
	own   own
	claim string
	// shadow and alike are the checks across servers as last made (see
	// composeFlags): a change re-makes only the one it can touch.
	shadow string
	alike  []string
	dead   bool
	seen   uint64 // the change that last collected it
	// texts, names: what to re-make of it in this change (named by the
	// change's texts, or alike in name or alias).
	texts, names bool
}

// NewBuilder returns an empty Builder reading definitions' own flags from
// memo (nil: none kept beyond each server's own last listing).
func NewBuilder(memo *Memo) *Builder {
	return &Builder{memo: memo, servers: map[string]*builtServer{}, claims: map[string][]*entry{}, cat: &Catalog{parts: &partList{}}}
}

// Settle lets go of what only the next change reads: the name index and
// the postings (5,000 tools: about 3 MB of heap), made again from the
// entries by the next Set or Remove, at the cost of one pass over the
// catalog. For the owner to call once a burst of changes is over (every
// server ready after a start), not after each change.
func (b *Builder) Settle() {
	b.ix, b.mentions, b.named, b.wired, b.skels = nil, nil, nil, nil, nil
	b.dead = 0
}

// index makes the name index and the postings from the entries (new, or
// settled).
func (b *Builder) index() {
	b.ix = newNameIndex()
	n := b.live // after Settle: sized for the catalog's words, about one a tool
	b.mentions, b.named, b.wired, b.skels = make(map[uint64][]*entry, n), map[uint64][]*entry{}, map[uint64][]*entry{}, make(map[uint64][]*entry, n)
	for _, s := range b.servers {
		for _, e := range s.entries {
			b.ix.add(&e.t)
			b.post(e)
		}
	}
	b.dead = 0
}

// Catalog is the current catalog.
func (b *Builder) Catalog() *Catalog { return b.cat }

// Changed lists the servers whose tools (flags, wire names) the last Set
// or Remove changed, the server set or removed included.
func (b *Builder) Changed() []string { return b.changed }

// Remove takes a server's tools out and returns the new catalog.
func (b *Builder) Remove(alias string) *Catalog {
	if _, ok := b.servers[alias]; !ok {
		b.changed = b.changed[:0]
		return b.cat
	}
	b.Set(alias, Source{})
	delete(b.servers, alias)
	return b.cat
}

// Set puts in (or replaces) a server's tools and returns the new catalog.
// As for NewCatalog, aliases must be valid config aliases.
func (b *Builder) Set(alias string, src Source) *Catalog {
	if b.ix == nil {
		b.index()
	}
	old := b.servers[alias]
	if old == nil {
		old = &builtServer{}
		b.servers[alias] = old
	}
	kept := make(map[string]own, len(old.entries))
	for _, e := range old.entries {
		kept[e.t.Hash] = e.own
	}
	var entries []*entry
	var rejected []Rejected
	for _, d := range src.Tools {
		t, rej, ok := newTool(alias, src, d)
		if !ok {
			if rej != nil {
				rejected = append(rejected, *rej)
			}
			continue
		}
		entries = append(entries, &entry{t: t})
	}
	inParallel(len(entries), func(i int) {
		e := entries[i]
		if o, ok := kept[e.t.Hash]; ok {
			e.own = o
		} else {
			e.own = b.memo.own(&e.t)
		}
	})
	slices.SortStableFunc(entries, func(x, y *entry) int { return strings.Compare(x.t.Name, y.t.Name) })
	entries = slices.CompactFunc(entries, func(x, y *entry) bool { return x.t.Name == y.t.Name })
	rejected = append(rejected, notLoaded(alias, src)...)
	sortRejected(rejected)

	for _, e := range old.entries {
		b.ix.remove(&e.t)
		b.unclaim(e)
		e.dead = true
		b.live--
		b.dead++
	}
	for _, e := range entries {
		b.ix.add(&e.t)
		b.post(e)
		b.claimWire(e)
		b.live++
	}

	// The tools of other servers whose flags this change may change: those
	// whose texts name the alias (as a word, or as alias__tool), or
	// distinctively one of its tools' names, old or new; those whose names
	// look like one of them; the tools of servers whose aliases look like
	// this one.
	b.mark++
	var affected []*entry
	touch := func(list []*entry, texts bool) {
		for _, e := range list {
			if e.dead || e.t.Server == alias {
				continue
			}
			if e.seen != b.mark {
				e.seen, e.texts, e.names = b.mark, false, false
				affected = append(affected, e)
			}
			if texts {
				e.texts = true
			} else {
				e.names = true
			}
		}
	}
	touch(b.mentions[wordKey(alias)], true)
	touch(b.wired[wordKey(alias)], true)
	for _, list := range [][]*entry{old.entries, entries} {
		for _, e := range list {
			touch(b.named[wordKey(e.t.Name)], true)
			touch(b.skels[wordKey(skeleton(e.t.Name))], false)
		}
	}
	for _, a := range b.ix.aliasSkel[skeleton(alias)] {
		if s := b.servers[a]; a != alias && s != nil {
			touch(s.entries, false)
		}
	}

	dirty := map[string]bool{alias: true}
	for _, e := range entries {
		e.shadow, e.alike = shadowing(&e.t, e.own, b.ix), b.ix.alike(&e.t)
		e.t.Flags = composeFlags(e.own, e.shadow, e.alike)
	}
	for _, e := range affected {
		if e.texts {
			e.shadow = shadowing(&e.t, e.own, b.ix)
		}
		if e.names {
			e.alike = b.ix.alike(&e.t)
		}
		if f := composeFlags(e.own, e.shadow, e.alike); !slices.Equal(f, e.t.Flags) {
			e.t.Flags = f
			dirty[e.t.Server] = true
		}
	}
	old.entries, old.rejected = entries, rejected
	if b.clashes > 0 || b.fresh {
		b.assignWires(dirty)
		b.fresh = b.clashes > 0
	} else {
		for _, e := range entries {
			e.t.Wire = e.claim
		}
	}
	if b.dead > b.live/4+256 {
		// Each dead entry holds a whole replaced definition (its flags,
		// its texts): every server's cached tools replaced by its listing
		// left as many dead as live (5,000 tools: 5 MB kept) under the
		// bound live+1024. A compaction re-posts the live entries, paid
		// for by the quarter as many that died since the last.
		b.compact()
	}

	b.changed = b.changed[:0]
	parts := b.parts
	for a := range dirty {
		b.changed = append(b.changed, a)
		s := b.servers[a]
		if len(s.entries) == 0 && len(s.rejected) == 0 {
			parts = parts.with(a, nil)
			continue
		}
		p := &part{alias: a, tools: make([]Tool, len(s.entries)), rejected: s.rejected}
		for j, e := range s.entries {
			p.tools[j] = e.t
		}
		parts = parts.with(a, p)
	}
	slices.SortFunc(b.changed, aliasOrder)
	b.parts = parts
	b.cat = &Catalog{parts: &parts}
	return b.cat
}

// newTool makes d a tool of alias's, or says why it is left out (rej nil:
// no definition at all).
func newTool(alias string, src Source, d *sdk.Tool) (t Tool, rej *Rejected, ok bool) {
	if d == nil {
		return Tool{}, nil, false
	}
	if err := clean.Name(d.Name); err != nil {
		return Tool{}, &Rejected{Server: alias, Name: clean.Quote(d.Name), Reason: err.Error()}, false
	}
	raw := d
	d = cleanDef(d)
	readOnly := src.ReadOnly != nil && src.ReadOnly(d.Name) ||
		src.Trusted && d.Annotations != nil && d.Annotations.ReadOnlyHint
	return Tool{Server: alias, Name: d.Name, Display: alias + "." + d.Name, Def: d, Raw: raw, Hash: Hash(raw), Trusted: src.Trusted, ReadOnly: readOnly, Cached: src.Cached,
		Visibility: VisibilityOf(raw)}, nil, true
}

// post adds e to the postings of its texts' words and its name.
func (b *Builder) post(e *entry) {
	add := func(m map[uint64][]*entry, key uint64) {
		list := m[key]
		if n := len(list); n > 0 && list[n-1] == e {
			return // e's words are posted together: a repeated word is last
		}
		m[key] = append(list, e)
	}
	for _, f := range e.own.texts {
		for i, j := range wordSpans(f.text) {
			w := f.text[i:j]
			key := wordKey(w)
			add(b.mentions, key)
			if strings.ContainsAny(w, "_-") || hasInnerUpper(w) {
				add(b.named, key)
			}
			if n := strings.Index(w, "__"); n >= 0 {
				add(b.wired, wordKey(w[:n]))
			}
		}
	}
	add(b.skels, wordKey(skeleton(e.t.Name)))
}

// compact drops the dead entries from the postings.
func (b *Builder) compact() {
	for _, m := range []map[uint64][]*entry{b.mentions, b.named, b.wired, b.skels} {
		clear(m)
	}
	for _, s := range b.servers {
		for _, e := range s.entries {
			b.post(e)
		}
	}
	b.dead = 0
}

// wireClaim is the wire name t would have with no other tool about: its
// plain name when exact, else the plain name with the shortest hash suffix.
func wireClaim(t *Tool) string {
	if wire, exact := plainWireName(t.Server, t.Name); exact {
		return wire
	}
	return hashedWireName(t.Server, t.Name, t.Display, nil)
}

func (b *Builder) claimWire(e *entry) {
	e.claim = wireClaim(&e.t)
	list := append(b.claims[e.claim], e)
	b.claims[e.claim] = list
	if len(list) == 2 {
		b.clashes++
	}
}

func (b *Builder) unclaim(e *entry) {
	list := slices.DeleteFunc(b.claims[e.claim], func(x *entry) bool { return x == e })
	if len(list) == 1 {
		b.clashes--
	}
	if len(list) == 0 {
		delete(b.claims, e.claim)
		return
	}
	b.claims[e.claim] = list
}

// assignWires gives every tool its wire name as NewCatalog does (plain
// names first, then hashed ones in display order), marking dirty the
// servers where one changed.
func (b *Builder) assignWires(dirty map[string]bool) {
	aliases := make([]string, 0, len(b.servers))
	for a := range b.servers {
		aliases = append(aliases, a)
	}
	slices.SortFunc(aliases, aliasOrder)
	taken := map[string]int{}
	var lossy []*entry
	for _, a := range aliases {
		for _, e := range b.servers[a].entries {
			wire, exact := plainWireName(e.t.Server, e.t.Name)
			if _, ok := taken[wire]; exact && !ok {
				b.setWire(e, wire, dirty)
				taken[wire] = 0
				continue
			}
			lossy = append(lossy, e)
		}
	}
	for _, e := range lossy {
		wire := hashedWireName(e.t.Server, e.t.Name, e.t.Display, taken)
		b.setWire(e, wire, dirty)
		taken[wire] = 0
	}
}

func (b *Builder) setWire(e *entry, wire string, dirty map[string]bool) {
	if e.t.Wire != wire {
		e.t.Wire = wire
		dirty[e.t.Server] = true
	}
}
