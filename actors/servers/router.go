package servers

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/maphash"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/approval"
	"deckhand/store"
	"deckhand/toolcall"
	"deckhand/tools"
	"deckhand/transport/mcp"
)

// router routes tool calls to their servers without an actor in the way.
// The registry actor builds each catalog and swaps it in whole (routes is
// immutable once stored); callers resolve and dispatch on their own
// goroutine. A call to a server that is connected runs on that server's
// live connection (line.go) straight away; any other goes to the server's
// actor, which queues it for a connection under way or says why it cannot
// be made. Safe for concurrent use; a nil *Router routes nothing.
type Router struct {
	v atomic.Pointer[routes]
}

// routes is one catalog and where each of its servers is.
type routes struct {
	catalog *tools.Catalog // what the model is offered: disabled, quarantined and app-only tools left out
	full    *tools.Catalog // every listed tool
	// quarantined: tools of full kept from the model until the person has
	// released them (by display name; read only).
	quarantined map[string]bool
	servers     map[string]route
}

// route is one server, as the registry last saw it.
type route struct {
	pid      *actor.PID
	line     *serverLine // its live connection, when it has one
	disabled []string    // by the server's name for the tool
	listed   bool        // its tools have been listed (or come from its last connection)
}

var emptyRoutes = &routes{catalog: tools.NewCatalog(nil), full: tools.NewCatalog(nil)}

func (r *Router) load() *routes {
	if r == nil {
		return emptyRoutes
	}
	if v := r.v.Load(); v != nil {
		return v
	}
	return emptyRoutes
}

func (r *Router) store(v *routes) { r.v.Store(v) }

// Catalog is the catalog the model is offered now.
func (r *Router) Catalog() *tools.Catalog { return r.load().catalog }

// target is where a resolved call goes.
type target struct {
	route   route
	tool    string // the server's name for it
	display string
}

// resolve finds a call's server and tool. A call that cannot be made (an
// unknown or disabled tool, a definition changed since it was checked) is
// answered with res.
func (r *Router) resolve(m *CallTool) (t target, res *ToolResult) {
	rs := r.load()
	refuse := func(display string, err error) (target, *ToolResult) {
		return target{}, &ToolResult{ID: m.ID, Tool: display, Err: err}
	}
	if want := m.Resolved; want != nil {
		if rs.disabled(want.Server, want.Name) {
			return refuse(want.Display, errDisabled(want.Display))
		}
		if rs.quarantined[want.Display] {
			return refuse(want.Display, ErrQuarantined(want.Display))
		}
		// In the full catalog: an app-only tool, which the model is not
		// offered, is called by its views (the gate decides who may call
		// what, approval.Decide).
		cur, ok := rs.full.Lookup(want.Display)
		e, known := rs.servers[want.Server]
		if !ok || !known || cur.Server != want.Server || cur.Name != want.Name || !toolcall.Same(cur.Def, want.Def) {
			return refuse(want.Display, fmt.Errorf("%s: %w", want.Display, toolcall.ErrChanged))
		}
		return target{e, want.Name, want.Display}, nil
	}
	if cur, ok := rs.catalog.Lookup(m.Tool); ok {
		return target{rs.servers[cur.Server], cur.Name, cur.Display}, nil
	}
	if cur, ok := rs.full.Lookup(m.Tool); ok && rs.disabled(cur.Server, cur.Name) {
		return refuse(cur.Display, errDisabled(cur.Display))
	}
	if cur, ok := rs.full.Lookup(m.Tool); ok && rs.quarantined[cur.Display] {
		return refuse(cur.Display, ErrQuarantined(cur.Display))
	}
	if cur, ok := rs.full.Lookup(m.Tool); ok && !cur.Visibility.ForModel() {
		return refuse(cur.Display, ErrAppOnly(cur.Display))
	}
	alias, name, found := strings.Cut(m.Tool, ".")
	if found && rs.disabled(alias, name) {
		return refuse(m.Tool, errDisabled(m.Tool))
	}
	if e, ok := rs.servers[alias]; ok && found && !e.listed {
		// Not connected yet: the server actor says why, and calls a tool
		// it cannot check.
		return target{e, name, m.Tool}, nil
	}
	err := fmt.Errorf("unknown tool %q", m.Tool)
	if found {
		if _, ok := rs.servers[alias]; !ok {
			err = fmt.Errorf("unknown tool %q: no server named %q", m.Tool, alias)
		} else {
			err = fmt.Errorf("unknown tool %q: server %s has no tool named %q", m.Tool, alias, name)
		}
	}
	if s := rs.catalog.Suggest(m.Tool, 3); len(s) > 0 {
		err = fmt.Errorf("%w (did you mean %s?)", err, strings.Join(s, ", "))
	}
	return refuse(m.Tool, err)
}

func errDisabled(display string) error {
	return fmt.Errorf("tool %s is disabled (disabled_tools in the config)", display)
}

// ErrQuarantined says why a tool is not offered, and how to release it.
func ErrQuarantined(display string) error {
	return fmt.Errorf("tool %s is quarantined: its definition has high-risk flags and you have not offered it to the model (%s)", display, HowToRelease(display))
}

// ErrAppOnly says why the model may not call a tool an MCP App's server
// made for its views only.
func ErrAppOnly(display string) error {
	return fmt.Errorf("tool %s is for its server's views only (_meta.ui.visibility [\"app\"]): it is not offered to the model, and only a view may call it", display)
}

// AppTool is the tool a view may call by its display name (server.tool)
// that the model is not offered: an app-only tool of the full catalog,
// neither disabled nor quarantined. ok is false for any other.
func (r *Router) AppTool(display string) (t tools.Tool, ok bool) {
	rs := r.load()
	t, ok = rs.full.Lookup(display)
	if !ok || t.Display != display || t.Visibility.ForModel() || rs.disabled(t.Server, t.Name) || rs.quarantined[t.Display] {
		return tools.Tool{}, false
	}
	return t, true
}

// Withheld says why the model may not call name (a display or wire name)
// though its server listed the tool: the tool is quarantined, or the
// person unchecked it (disabled_tools, also of a server not listed yet).
// ok is false for a tool offered, unknown, or for its server's views only
// (the gate says so: approval.VisibilityError).
func (r *Router) Withheld(name string) (w toolcall.Withheld, ok bool) {
	rs := r.load()
	t, listed := rs.full.Lookup(name)
	if !listed {
		alias, tool, split := tools.SplitName(name)
		if split && rs.disabled(alias, tool) {
			return toolcall.Withheld{Held: toolcall.Unchecked, Server: alias, Tool: tool}, true
		}
		return toolcall.Withheld{}, false
	}
	switch {
	case rs.disabled(t.Server, t.Name): // the person's choice first
		return toolcall.Withheld{Held: toolcall.Unchecked, Server: t.Server, Tool: t.Name}, true
	case rs.quarantined[t.Display]:
		return toolcall.Withheld{Held: toolcall.Quarantined, Server: t.Server, Tool: t.Name}, true
	}
	return toolcall.Withheld{}, false
}

// HowToRelease says how a person releases a quarantined tool.
func HowToRelease(display string) string {
	return "run `deckhand mcp review " + display + "`, or press Offer it to the model on its page in the window's servers panel"
}

// Quarantined lists the tools kept from the model until the person has
// released them, by display name.
func (r *Router) Quarantined() []tools.Tool {
	rs := r.load()
	var out []tools.Tool
	for _, t := range rs.full.Tools() {
		if rs.quarantined[t.Display] {
			out = append(out, t)
		}
	}
	return out
}

// Full is every listed tool, quarantined and disabled ones included.
func (r *Router) Full() *tools.Catalog { return r.load().full }

// disabled reports whether the config disables the server's tool name.
func (rs *routes) disabled(alias, name string) bool {
	e, ok := rs.servers[alias]
	return ok && slices.Contains(e.disabled, name)
}

// dispatch starts a call; its ToolResult (and ToolProgress, to
// m.ProgressTo) goes to from. A call on a live connection runs in a worker
// goroutine and ends when ctx does; one that waits for its server's
// connection is cancelled with CancelCall. dispatch never blocks.
func (r *Router) Dispatch(ctx context.Context, root *actor.RootContext, m *CallTool, from *actor.PID) {
	t, res := r.resolve(m)
	if res != nil {
		root.Send(from, res)
		return
	}
	if l := t.route.line.live(); l != nil && l.start(ctx, root, from, m, t.tool) {
		return
	}
	root.RequestWithCustomSender(t.route.pid, &serverCall{req: m, tool: t.tool}, from)
}

// cancel cancels the call id (to tool, a display or wire name), whether it
// runs on a live connection or waits in its server's actor.
func (r *Router) Cancel(root *actor.RootContext, id, tool string) {
	rs := r.load()
	alias, _, _ := strings.Cut(tool, ".")
	if t, ok := rs.full.Lookup(tool); ok {
		alias = t.Server
	}
	e, ok := rs.servers[alias]
	if !ok {
		return
	}
	if l := e.line.live(); l != nil {
		l.cancel(id)
	}
	root.Send(e.pid, &CancelCall{ID: id, Tool: tool})
}

// Call runs req and waits for its result, for a caller that is not an
// actor (a terminal command, a test). On a connected server the call runs on
// the caller's goroutine; one that must wait for its server's connection
// goes through the server's actor. progress, if not nil, is called for each
// progress notification. Cancelling ctx cancels the call on the server.
func (r *Router) Call(ctx context.Context, root *actor.RootContext, req *CallTool, progress func(*ToolProgress)) (*ToolResult, error) {
	t, res := r.resolve(req)
	if res != nil {
		return res, nil
	}
	if l := t.route.line.live(); l != nil {
		var each func(mcp.Progress)
		if progress != nil {
			each = func(p mcp.Progress) { progress(&ToolProgress{ID: req.ID, Tool: t.display, Progress: p}) }
		}
		if res, ok := l.call(ctx, req, t.tool, each); ok {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			return res, nil
		}
	}
	in := newInbox(root.ActorSystem().ProcessRegistry, 16)
	defer in.close()
	if progress != nil {
		req.ProgressTo = in.pid
	}
	root.RequestWithCustomSender(t.route.pid, &serverCall{req: req, tool: t.tool}, in.pid)
	for {
		m, err := in.receive(ctx)
		if err != nil {
			r.Cancel(root, req.ID, req.Tool)
			return nil, err
		}
		switch m := m.(type) {
		case *ToolProgress:
			if progress != nil {
				progress(m)
			}
		case *ToolResult:
			return m, nil
		}
	}
}

// Live is the connection of the server alias while it has one, for
// commands that speak to one server directly (deckhand mcp task); nil
// otherwise.
func (r *Router) Live(alias string) *mcp.Conn {
	e, ok := r.load().servers[alias]
	if !ok {
		return nil
	}
	if l := e.line.live(); l != nil {
		return l.conn
	}
	return nil
}

// Has reports whether the router knows server alias (its route is made
// when the registry first hears of it).
func (r *Router) Has(alias string) bool {
	_, ok := r.load().servers[alias]
	return ok
}

// FollowTask follows task id of call (display: alias.tool), made before
// Deckhand last stopped, to its end: it waits for the server's connection
// (until ctx ends), polls the task there (AwaitTask) within the server's
// call timeout, and returns its result, secrets removed. An error wrapping
// mcp.ErrTaskExpired says the server no longer knows the task.
func (r *Router) FollowTask(ctx context.Context, call, display, id string) (*ToolResult, error) {
	alias, _, _ := strings.Cut(display, ".")
	e, ok := r.load().servers[alias]
	if !ok || e.line == nil {
		return nil, fmt.Errorf("server %s is not configured", alias)
	}
	for {
		l, err := e.line.next(ctx, nil)
		if err != nil {
			return nil, err
		}
		cctx, inflight, cancelTimeout, ok := l.begin(ctx, nil, &CallTool{ID: call, Tool: display}, display)
		if !ok {
			// Closed as it was read: wait for the next connection.
			if _, err := e.line.next(ctx, l); err != nil {
				return nil, err
			}
			continue
		}
		l.taskOf(inflight, id)
		res, err := l.conn.AwaitTask(cctx, &mcp.Task{ID: id}, nil)
		return l.end(cctx, inflight, cancelTimeout, res, err, display, time.Now()), nil
	}
}

// What a call is checked against besides the route: the definition of its
// tool pinned when first seen. The gate asks the pin (Gate), the run marks
// a tool added lately (Fresh) and pins a change the person approved
// (Accept); the registry pins what it lists (observe).

// Pins keeps the pinned definition of every tool (trust on first use):
// the first definition seen of a tool is pinned; a later, different one is
// a change, which no grant or rule covers until the person accepts it (or,
// for a trusted server, is accepted and logged). Kept in memory, loaded
// from the log at start and written to it by the store actor; safe for
// concurrent use (the registry pins, conversations check and accept).
//
// It also keeps which definitions of quarantined tools the person has
// released (Review: read, and chose to offer; looking alone releases
// nothing): a tool with a high-risk flag is not offered to the model
// until then, and a changed definition is quarantined again. Reviews
// are events of the log (tool.reviewed), read back at start.
//
// The book is an immutable value swapped whole, by server: readers (Gate,
// Fresh and Changed on every call, Quarantined, Gone) load the current
// one (an atomic pointer) and read it with no lock; writers (observe and
// Review from the registry actor, Accept from a run or the client) are
// serialized by a lock of their own, and each makes the next book from
// the current one by copying the part of the one server it changes (and
// one shard of the index of parts), swapped in before it returns: the run
// that accepts a change sees it at its next call.
type Pins struct {
	book atomic.Pointer[pinBook]
	mu   sync.Mutex      // writers only: observe, Accept, Review
	save func(store.Pin) // nil without a log
	// saveReview logs a review (nil without a log).
	saveReview func(*ToolReviewed)
}

// pinBook is the book at one moment: never changed once stored. Its
// parts are indexed in shards, by a hash of the key (partOf), so that a
// writer copies the shards' array and one shard, not the whole index: one
// server's join costs the same with 100 servers or 4,400
// (BenchmarkPinsObserve).
type pinBook struct {
	shards [pinShards]map[string]*pinPart // by partOf
}

const pinShards = 256

var pinSeed = maphash.MakeSeed()

func shardOf(key string) uint64 { return maphash.String(pinSeed, key) % pinShards }

// part is the part kept under key, nil if none.
func (k *pinBook) part(key string) *pinPart { return k.shards[shardOf(key)][key] }

// with is the book with key's part replaced by s.
func (k *pinBook) with(key string, s *pinPart) *pinBook {
	next := *k
	i := shardOf(key)
	next.shards[i] = maps.Clone(k.shards[i])
	if next.shards[i] == nil {
		next.shards[i] = map[string]*pinPart{}
	}
	next.shards[i][key] = s
	return &next
}

// pinPart is one server's pins and reviews: never changed once stored
// (both maps non-nil).
type pinPart struct {
	pins     map[string]store.Pin // by alias.tool
	reviewed map[string]string    // by alias.tool: the hash of the definition released
}

// partOf is the part of the book that keeps a tool's pin: its server's
// alias (an alias has no "."), "" for a name without a "." (none that
// Deckhand writes).
func partOf(tool string) string {
	alias, _, ok := strings.Cut(tool, ".")
	if !ok {
		return ""
	}
	return alias
}

func (s *pinPart) pin(tool string) (store.Pin, bool) {
	if s == nil {
		return store.Pin{}, false
	}
	p, ok := s.pins[tool]
	return p, ok
}

// released is the hash of tool's definition the person released ("":
// none).
func (s *pinPart) released(tool string) string {
	if s == nil {
		return ""
	}
	return s.reviewed[tool]
}

// ToolReviewed is the person having released a quarantined tool's
// definition (hash) to the model: an event for the log (tool.reviewed).
type ToolReviewed struct {
	Tool string // alias.tool
	Hash string
}

func NewPins(ctx context.Context, db *store.DB, save func(store.Pin)) (*Pins, error) {
	b := &Pins{save: save}
	book := &pinBook{} // filled in place: not shared yet
	part := func(tool string) *pinPart {
		key := partOf(tool)
		shard := &book.shards[shardOf(key)]
		if *shard == nil {
			*shard = map[string]*pinPart{}
		}
		s := (*shard)[key]
		if s == nil {
			s = &pinPart{pins: map[string]store.Pin{}, reviewed: map[string]string{}}
			(*shard)[key] = s
		}
		return s
	}
	defer func() { b.book.Store(book) }()
	if db == nil {
		return b, nil
	}
	pins, err := db.Pins(ctx)
	if err != nil {
		return b, err
	}
	for name, p := range pins {
		part(name).pins[name] = p
	}
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
			part(r.Tool).reviewed[r.Tool] = r.Hash
		}
	}
	return b, nil
}

// OnReview sets where reviews are logged (before the pins are shared).
func (b *Pins) OnReview(save func(*ToolReviewed)) { b.saveReview = save }

// Quarantined reports whether t is kept from the model: a high-risk flag
// on a definition the person has not released (a trusted server's tools
// never are: its definitions are accepted as they come).
func (b *Pins) Quarantined(t tools.Tool) bool {
	if b == nil || t.Trusted || !t.Risky() {
		return false
	}
	return b.book.Load().part(partOf(t.Display)).released(t.Display) != t.Hash
}

// Review records that the person has released t's definition as it is
// now: it is offered to the model from the next catalog on.
func (b *Pins) Review(t tools.Tool) {
	b.mu.Lock()
	w := b.write(partOf(t.Display))
	if w.from.released(t.Display) == t.Hash {
		b.mu.Unlock()
		return
	}
	w.part().reviewed[t.Display] = t.Hash
	w.publish()
	b.mu.Unlock()
	if b.saveReview != nil {
		b.saveReview(&ToolReviewed{Tool: t.Display, Hash: t.Hash})
	}
}

// partWrite is a writer's change to one part of the book (the writers'
// lock held): the part is copied at its first change, so that a look
// that changes nothing copies nothing, and the copy swapped in by publish.
type partWrite struct {
	b    *Pins
	key  string
	from *pinPart // the part in the book (nil: none yet)
	to   *pinPart // its copy, once changed
}

func (b *Pins) write(key string) *partWrite {
	return &partWrite{b: b, key: key, from: b.book.Load().part(key)}
}

// pin is what the part holds of a tool, with the changes so far.
func (w *partWrite) pin(tool string) (store.Pin, bool) {
	if w.to != nil {
		return w.to.pin(tool)
	}
	return w.from.pin(tool)
}

// part is the copy to change.
func (w *partWrite) part() *pinPart {
	if w.to == nil {
		if w.from == nil {
			w.to = &pinPart{pins: map[string]store.Pin{}, reviewed: map[string]string{}}
		} else {
			w.to = &pinPart{pins: maps.Clone(w.from.pins), reviewed: maps.Clone(w.from.reviewed)}
		}
	}
	return w.to
}

// pinned pins t's definition, keeping p's history (first seen, added).
func (w *partWrite) pinned(t tools.Tool, p store.Pin) {
	def, err := json.Marshal(t.Raw)
	if err != nil {
		return
	}
	p.Tool, p.Hash, p.Definition, p.Time = t.Display, t.Hash, def, time.Now()
	w.saved(p)
}

// saved puts p in the part and logs it. The part is written before the
// hook is called, as the book was written in place before it was swapped
// whole: a hook that panics loses the log's copy, not the book's (the
// writer publishes in a defer).
func (w *partWrite) saved(p store.Pin) {
	w.part().pins[p.Tool] = p
	if w.b.save != nil {
		w.b.save(p)
	}
}

// publish swaps in the book with the part changed, if it was.
func (w *partWrite) publish() {
	if w.to == nil {
		return
	}
	w.b.book.Store(w.b.book.Load().with(w.key, w.to))
	w.from, w.to = w.to, nil
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
// holds), and accepts the changes of trusted servers. It reads and copies
// only the parts of the servers in listed.
func (b *Pins) observe(cat *tools.Catalog, listed []string) PinNews {
	b.mu.Lock()
	defer b.mu.Unlock()
	var news PinNews
	now := time.Now()
	for _, alias := range listed {
		b.observeServer(cat, alias, now, &news)
	}
	slices.Sort(news.Added)
	slices.Sort(news.Gone)
	return news
}

// observeServer is observe's look at one server's listing.
func (b *Pins) observeServer(cat *tools.Catalog, alias string, now time.Time, news *PinNews) {
	prefix := alias + "."
	w := b.write(partOf(prefix)) // every alias.tool is there
	defer w.publish()
	var known bool
	if w.from != nil {
		for name := range w.from.pins {
			if strings.HasPrefix(name, prefix) {
				known = true
				break
			}
		}
	}
	present := map[string]bool{}
	for _, t := range cat.Server(alias) {
		present[t.Display] = true
		p, ok := w.pin(t.Display)
		switch {
		case !ok:
			p = store.Pin{FirstSeen: now, Added: known}
			if known {
				news.Added = append(news.Added, t.Display)
			}
			w.pinned(t, p)
		case p.Hash != t.Hash && t.Trusted:
			p.Gone = time.Time{}
			w.pinned(t, p)
			news.Accepted = append(news.Accepted, t.Display)
		case !p.Gone.IsZero():
			p.Gone = time.Time{}
			w.saved(p)
		}
	}
	if w.from == nil {
		return
	}
	var gone []string
	for name, p := range w.from.pins {
		if strings.HasPrefix(name, prefix) && !present[name] && p.Gone.IsZero() {
			gone = append(gone, name)
		}
	}
	slices.Sort(gone)
	for _, name := range gone {
		p, _ := w.pin(name)
		p.Gone = now
		w.saved(p)
		news.Gone = append(news.Gone, name)
	}
}

// pin is what the book holds of a tool, if anything.
func (b *Pins) pin(tool string) (store.Pin, bool) {
	return b.book.Load().part(partOf(tool)).pin(tool)
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
	book := b.book.Load()
	var out []store.Pin
	add := func(s *pinPart, prefix string) {
		if s == nil {
			return
		}
		for name, p := range s.pins {
			if !p.Gone.IsZero() && strings.HasPrefix(name, prefix) {
				out = append(out, p)
			}
		}
	}
	if alias == "" {
		for _, shard := range book.shards {
			for _, s := range shard {
				add(s, "")
			}
		}
	} else {
		add(book.part(partOf(alias+".")), alias+".")
	}
	slices.SortFunc(out, func(a, b store.Pin) int { return strings.Compare(a.Tool, b.Tool) })
	return out
}

// changed reports whether t differs from its pinned definition, and that
// definition (nil when unknown).
func (b *Pins) Changed(t tools.Tool) (bool, *sdk.Tool) {
	p, ok := b.pin(t.Display)
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
// The next Gate sees it: the book is swapped before Accept returns.
func (b *Pins) Accept(t tools.Tool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	w := b.write(partOf(t.Display))
	defer w.publish()
	p, ok := w.pin(t.Display)
	if !ok {
		p.FirstSeen = time.Now()
	}
	w.pinned(t, p)
}

// NewToolWarning says that a server already known added a tool at since.
func NewToolWarning(alias string, since time.Time) string {
	return fmt.Sprintf("new: %s added this tool on %s; it was not in the server's earlier listings", alias, since.Local().Format("2006-01-02 15:04"))
}
