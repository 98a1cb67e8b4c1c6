// Package tools owns the merged tool catalog: the name a person sees
// (alias.tool), the name a model API accepts (the wire name), and the way back
// from either to the server and its own tool name. It flags what a
// definition says to steer the model or fool the person (warnings.go), and
// renders tool results as text.
//
// A Catalog is immutable once built, so one value can be shared by any number
// of goroutines and actors. NewCatalog builds one from every server's tools;
// a Builder (builder.go), owned by one actor, makes each next catalog from
// the last by one server's change, sharing the parts that did not change.
package tools

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/clean"
)

// MaxWireName is the longest function name model APIs accept (OpenAI:
// ^[a-zA-Z0-9_-]{1,64}$).
const MaxWireName = 64

// Tool is one tool of one server.
type Tool struct {
	Server  string // the server's alias
	Name    string // the server's own name for the tool
	Display string // alias.name, for people
	Wire    string // valid for model APIs, unique across the catalog
	// Def is the server's definition, with its title and description made
	// safe to show (package clean); never modified.
	Def *sdk.Tool
	// Trusted: the server's annotations are believed, not just hints.
	Trusted bool
	// ReadOnly: marked read-only in config, or readOnlyHint from a trusted
	// server. Read-only calls in one model turn may run in parallel.
	ReadOnly bool
	// Hash identifies the server's whole definition (name, title,
	// description, schemas, annotations), as sent: what a pin holds.
	Hash string
	// Raw is the definition as the server sent it (Def is cleaned).
	Raw *sdk.Tool
	// Flags say what in the definition looks like an attempt to steer the
	// model or fool a person (see warnings.go); a high-risk one keeps the
	// tool from the model until the person releases it (quarantine,
	// decided by the registry), the others are shown where it is.
	Flags []Flag
	// Cached: offered from its server's last connection, kept in the log;
	// the server has not connected (or listed its tools) yet, and a call
	// waits for it.
	Cached bool
	// Visibility: who may call it (an MCP App's _meta.ui.visibility).
	// The catalog holds every tool; what the model is offered leaves out
	// those hidden from it (the registry's catalog).
	Visibility Visibility
}

// Visibility says who may see and call a tool, as an MCP App's server
// declares it (_meta.ui.visibility: ["model"], ["app"], or both, the
// default). An app-only tool is left out of what the model is offered
// and refused at the gate when the model calls it; a model-only tool is
// refused to a view. The zero value is the default: both.
type Visibility struct {
	HiddenFromModel bool // "model" is not listed: only its server's views may call it
	HiddenFromApps  bool // "app" is not listed: views may not call it
}

// ForModel reports whether the model may be offered and call the tool.
func (v Visibility) ForModel() bool { return !v.HiddenFromModel }

// ForApps reports whether a view of the tool's server may call it.
func (v Visibility) ForApps() bool { return !v.HiddenFromApps }

// Source is one server's contribution to a catalog.
type Source struct {
	Tools   []*sdk.Tool
	Trusted bool
	// ReadOnly reports whether the config marks a tool (by the server's
	// name for it) read-only; nil means none is.
	ReadOnly func(name string) bool
	// Cached: the tools are those of the server's last connection (see
	// Tool.Cached).
	Cached bool
	// NotLoaded are the tools the server itself left out, and why
	// (Deckhand's built-in server: its definitions' mistakes); Server and
	// NotLoaded are set by the catalog.
	NotLoaded []Rejected
}

// Rejected is a tool left out of the catalog, and why.
type Rejected struct {
	Server string
	Name   string // quoted safely (clean.Quote)
	Reason string
	// NotLoaded: the server left it out itself (Source.NotLoaded), not
	// the catalog for breaking the MCP rules for names.
	NotLoaded bool
	// Off: the server left it out as the person's settings ask (the
	// built-in shell with shell commands off): no mistake, nothing to warn
	// of.
	Off bool
}

// notLoaded is src's NotLoaded as the catalog keeps them.
func notLoaded(alias string, src Source) []Rejected {
	out := make([]Rejected, 0, len(src.NotLoaded))
	for _, r := range src.NotLoaded {
		out = append(out, Rejected{Server: alias, Name: clean.Quote(r.Name), Reason: clean.Line(r.Reason), NotLoaded: true, Off: r.Off})
	}
	return out
}

// Catalog is the set of tools of every server, with lookups both ways.
type Catalog struct {
	// parts: a Builder's catalog is its servers' parts, each shared with
	// the catalogs before and after it that did not change that server;
	// the whole (tools and maps below) is put together on first use, so
	// that a catalog replaced before anyone looked at it costs one slice.
	parts *partList // nil for NewCatalog's
	once  sync.Once

	rejected  []Rejected
	tools     []Tool // sorted by Display
	byDisplay map[string]int
	byWire    map[string]int
	search    searcher
}

// part is one server's share of a catalog, immutable once made.
type part struct {
	alias    string
	tools    []Tool // sorted by Name, flags and wire names set
	rejected []Rejected
}

// load puts a Builder's catalog together, once.
func (c *Catalog) load() {
	if c.parts == nil {
		return
	}
	c.once.Do(func() {
		n := c.parts.tools
		c.tools = make([]Tool, 0, n)
		c.byDisplay, c.byWire = make(map[string]int, n), make(map[string]int, n)
		c.parts.all(func(p *part) {
			c.rejected = append(c.rejected, p.rejected...)
			for _, t := range p.tools {
				c.byDisplay[t.Display], c.byWire[t.Wire] = len(c.tools), len(c.tools)
				c.tools = append(c.tools, t)
			}
		})
	})
}

// NewCatalog builds a catalog from each server's tools, by alias. Aliases
// must be valid config aliases (no "." and no "__"), which keeps wire names
// unique.
func NewCatalog(servers map[string]Source) *Catalog { return NewCatalogMemo(servers, nil) }

// NewCatalogMemo is NewCatalog reading what it can of each definition's
// flags from memo (and keeping there what it works out): for a registry
// that rebuilds its catalog whenever one server's tools change.
func NewCatalogMemo(servers map[string]Source, memo *Memo) *Catalog {
	c := &Catalog{byDisplay: map[string]int{}, byWire: map[string]int{}}
	for alias, src := range servers {
		for _, d := range src.Tools {
			t, rej, ok := newTool(alias, src, d)
			if ok {
				c.tools = append(c.tools, t)
			} else if rej != nil {
				c.rejected = append(c.rejected, *rej)
			}
		}
		c.rejected = append(c.rejected, notLoaded(alias, src)...)
	}
	// Stable: of two definitions with one name, the server's first is kept.
	slices.SortStableFunc(c.tools, func(a, b Tool) int { return strings.Compare(a.Display, b.Display) })
	c.tools = slices.CompactFunc(c.tools, func(a, b Tool) bool { return a.Display == b.Display })
	sortRejected(c.rejected)

	c.flag(memo)

	// Plain wire names first, so that a hashed name can never take the place
	// of a plain one, whatever the order of the tools.
	var lossy []int
	for i := range c.tools {
		t := &c.tools[i]
		c.byDisplay[t.Display] = i
		wire, exact := plainWireName(t.Server, t.Name)
		if _, taken := c.byWire[wire]; exact && !taken {
			t.Wire = wire
			c.byWire[wire] = i
			continue
		}
		lossy = append(lossy, i)
	}
	for _, i := range lossy {
		t := &c.tools[i]
		t.Wire = hashedWireName(t.Server, t.Name, t.Display, c.byWire)
		c.byWire[t.Wire] = i
	}
	return c
}

// Rejected lists the tools left out because their names break the MCP
// specification's rules, and those their servers left out (NotLoaded), by
// server then name.
func (c *Catalog) Rejected() []Rejected {
	if c == nil {
		return nil
	}
	c.load()
	return c.rejected
}

func sortRejected(r []Rejected) {
	slices.SortStableFunc(r, func(a, b Rejected) int {
		return cmp.Or(aliasOrder(a.Server, b.Server), strings.Compare(a.Name, b.Name))
	})
}

// cleanDef returns d, or when its title or description holds anything
// unsafe to show, a copy with them cleaned (schemas are JSON, shown only
// as escaped JSON).
func cleanDef(d *sdk.Tool) *sdk.Tool {
	title := ""
	if d.Annotations != nil {
		title = d.Annotations.Title
	}
	// CRLF line ends are how Windows servers write: shown as plain line
	// ends, and nothing to warn of (see hiddenIn).
	desc := strings.ReplaceAll(d.Description, "\r\n", "\n")
	if clean.Line(d.Title) == d.Title && clean.Text(desc) == d.Description && clean.Line(title) == title {
		return d
	}
	c := *d
	c.Title, c.Description = clean.Line(d.Title), clean.Text(desc)
	if d.Annotations != nil {
		a := *d.Annotations
		a.Title = clean.Line(a.Title)
		c.Annotations = &a
	}
	return &c
}

var unsafeWire = regexp.MustCompile(`[^a-zA-Z0-9_-]`)

// plainWireName is alias__name with unsafe characters replaced; exact reports
// whether nothing was replaced or cut, in which case the name maps back
// unambiguously (aliases never contain "__").
func plainWireName(alias, name string) (wire string, exact bool) {
	raw := alias + "__" + name
	wire = raw
	if strings.ContainsFunc(raw, func(r rune) bool { return !isAlnum(byte(r)) && r != '_' && r != '-' || r >= utf8.RuneSelf }) {
		wire = unsafeWire.ReplaceAllString(raw, "_") // the regexp runs only on names it changes
	}
	return wire, wire == raw && len(wire) <= MaxWireName && name != ""
}

// hashedWireName shortens or disambiguates a name with a suffix derived from
// the display name, lengthening the suffix on the (astronomically rare)
// collision.
func hashedWireName(alias, name, display string, taken map[string]int) string {
	sum := sha256.Sum256([]byte(display))
	hash := hex.EncodeToString(sum[:])
	base, _ := plainWireName(alias, name)
	for n := 8; ; n++ {
		suffix := "_" + hash[:min(n, len(hash))]
		b := base
		if len(b)+len(suffix) > MaxWireName {
			b = b[:MaxWireName-len(suffix)]
		}
		if _, ok := taken[b+suffix]; !ok || n >= len(hash) {
			return b + suffix
		}
	}
}

// Lookup finds a tool by display name (alias.tool) or wire name.
func (c *Catalog) Lookup(name string) (Tool, bool) {
	if c == nil {
		return Tool{}, false
	}
	c.load()
	if i, ok := c.byDisplay[name]; ok {
		return c.tools[i], true
	}
	if i, ok := c.byWire[name]; ok {
		return c.tools[i], true
	}
	return Tool{}, false
}

// LeftOut finds why a tool that is not in the catalog was left out, by
// display name (alias.tool) or wire name (alias__tool), the first reason
// when there are several.
func (c *Catalog) LeftOut(name string) (Rejected, bool) {
	alias, tool, ok := SplitName(name)
	if !ok {
		return Rejected{}, false
	}
	q := clean.Quote(tool)
	for _, r := range c.Rejected() {
		if r.Server == alias && r.Name == q {
			return r, true
		}
	}
	return Rejected{}, false
}

// SplitName splits a wire name (alias__tool) or a display name
// (alias.tool) into the server's alias and its name for the tool, as a
// name not in the catalog would be (aliases hold neither "__" nor ".").
func SplitName(name string) (alias, tool string, ok bool) {
	if alias, tool, ok = strings.Cut(name, "__"); ok {
		return alias, tool, true
	}
	return strings.Cut(name, ".")
}

// Tools returns every tool, sorted by display name. The slice is shared:
// callers must not modify it.
func (c *Catalog) Tools() []Tool {
	if c == nil {
		return nil
	}
	c.load()
	return c.tools
}

// Len is the number of tools.
func (c *Catalog) Len() int {
	if c == nil {
		return 0
	}
	if c.parts != nil {
		return c.parts.tools
	}
	return len(c.tools)
}

// Server returns the tools of one server, sorted by name.
func (c *Catalog) Server(alias string) []Tool {
	if c != nil && c.parts != nil {
		// Without putting the whole catalog together: the registry asks
		// this of every server that changes.
		if p := c.parts.get(alias); p != nil {
			return slices.Clone(p.tools)
		}
		return nil
	}
	var out []Tool
	for _, t := range c.Tools() {
		if t.Server == alias {
			out = append(out, t)
		}
	}
	return out
}

// Suggest returns up to n display names that look like name (a close
// spelling, or one containing the other), best first, for "unknown tool"
// errors.
func (c *Catalog) Suggest(name string, n int) []string {
	type scored struct {
		name string
		dist int
	}
	want := strings.ToLower(name)
	wantAlias, wantTool, hasAlias := strings.Cut(want, ".")
	if !hasAlias {
		wantTool, wantAlias = want, ""
	}
	var all []scored
	for _, t := range c.Tools() {
		tool := strings.ToLower(t.Name)
		d := editDistance(wantTool, tool)
		if strings.Contains(tool, wantTool) || strings.Contains(wantTool, tool) {
			d = min(d, 1)
		}
		if d > max(2, len(wantTool)/3) {
			continue
		}
		if wantAlias != "" && wantAlias != strings.ToLower(t.Server) {
			d++ // same tool name on another server: a little further away
		}
		all = append(all, scored{t.Display, d})
	}
	slices.SortStableFunc(all, func(a, b scored) int { return a.dist - b.dist })
	out := make([]string, 0, n)
	for _, s := range all[:min(n, len(all))] {
		out = append(out, s.name)
	}
	return out
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
