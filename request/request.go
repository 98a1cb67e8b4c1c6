// Package request decides what a request to the model holds: the system
// prompt, which tools are offered (all, or tool_search and the ones found,
// for a large catalog), how much of the history fits the context budget, and
// what a request used when the server did not say.
//
// Who owns its state: the package keeps none. A Surface is an immutable
// value, made by Plan from one catalog and config (a conversation swaps a
// new one in whole, in the view its run reads, when either changes); a
// Summary is never changed once made. A Loaded set changes as a run uses
// it and is not safe for concurrent use: it belongs to one conversation,
// its actor between runs and its run during one. The rest are pure
// functions, safe anywhere.
package request

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"deckhand/config"
	"deckhand/tools"
	"deckhand/transport/llm"
)

// System is the short frame of every request: tools exist, how to
// use them, (when tools are lazy) how to find them and which servers have
// which, and (when enabled) the CMD: route for shell commands.
func System(shell bool, lazyIndex string) string {
	var b strings.Builder
	b.WriteString("You are Deckhand, an assistant that works on the user's computer with tools from MCP servers.\n")
	b.WriteString("- The tools you may call are in this request's tools field; a name like fs__read_file is the tool read_file of the server fs. Call one when it helps; its result comes back in the next message.\n")
	if lazyIndex != "" {
		b.WriteString("- Most tools are not in the tools field. Call tool_search with a few words (the action and what it acts on) to find one; the tools it finds can be called from your next step on. The servers and some of their tools:\n")
		b.WriteString(lazyIndex + "\n")
	}
	b.WriteString("- Every tool call needs the user's approval. If a call is denied, do not repeat it unchanged: explain, or ask what to do instead.\n")
	b.WriteString("- If a tool returns an error, read it, then correct the call or explain the problem.\n")
	if shell {
		b.WriteString("- To run a shell command, write it alone on a line that starts with CMD: (for example: CMD: ls -la). The user approves each one; it runs in the workspace folder, sandboxed (it can read the system and write only the workspace, with no network), and its output comes back to you. Prefer a tool when one fits.\n")
	}
	b.WriteString("- Be concise.")
	return b.String()
}

// ToolList turns a catalog into the request's tools field. Input schemas are
// passed as the server gave them, with "type":"object" added when missing
// (the API requires an object schema).
func ToolList(cat *tools.Catalog) []llm.Tool {
	out := make([]llm.Tool, 0, cat.Len())
	for _, t := range cat.Tools() {
		out = append(out, toolDef(t))
	}
	return out
}

// toolDef is t as a request's tools field gives it.
func toolDef(t tools.Tool) llm.Tool {
	return llm.Tool{Name: t.Wire, Description: toolDescription(t), Parameters: ObjectSchema(t.Def.InputSchema)}
}

// toolDescription is t's description, its title first when the
// description does not say it.
func toolDescription(t tools.Tool) string {
	desc := t.Def.Description
	if t.Def.Title != "" && !strings.Contains(desc, t.Def.Title) {
		desc = strings.TrimSpace(t.Def.Title + ". " + desc)
	}
	return desc
}

// catalogTokens is ToolTokens(ToolList(cat)), one tool at a time, each
// sized from its parts encoded into one buffer: neither the list, nor its
// JSON text, nor a tool's is made (a plan of 5,000 tools made 6 MB of them
// while the first request was built). What llm.Tool's MarshalJSON
// writes around the parts is counted here; the test holds the two equal.
func catalogTokens(cat *tools.Catalog) int {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf) // as json.Marshal encodes, with a newline after
	encoded := func(v any) []byte {
		buf.Reset()
		if enc.Encode(v) != nil {
			return nil
		}
		return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	}
	n := len("[]")
	for i, t := range cat.Tools() {
		if i > 0 {
			n += len(",")
		}
		n += len(`{"type":"function","function":{"name":`) + len(encoded(t.Wire))
		if desc := toolDescription(t); desc != "" {
			n += len(`,"description":`) + len(encoded(desc))
		}
		n += len(`,"parameters":`) + len(objectSchema(encoded(t.Def.InputSchema))) + len(`}}`)
	}
	return (n + 3) / 4
}

// ObjectSchema is schema as a request's tools field gives it: an object
// schema, "type":"object" and empty properties added when missing.
func ObjectSchema(schema any) json.RawMessage {
	data, err := json.Marshal(schema)
	if err != nil {
		return json.RawMessage(`{"type":"object","properties":{}}`)
	}
	return objectSchema(data)
}

// objectSchema is ObjectSchema of a schema's JSON text (nil when it could
// not be encoded); data itself when it has its type and properties.
func objectSchema(data []byte) json.RawMessage {
	if data == nil || string(data) == "null" {
		return json.RawMessage(`{"type":"object","properties":{}}`)
	}
	// Most schemas have both keys: their top level is read without
	// decoding what the keys hold (a tree of maps a tool, 11 MB for a
	// catalog of 5,000 at each plan).
	var keys map[string]skipped
	if json.Unmarshal(data, &keys) != nil {
		return json.RawMessage(`{"type":"object","properties":{}}`)
	}
	if _, ok := keys["type"]; ok {
		if _, ok := keys["properties"]; ok {
			return data
		}
	}
	var m map[string]any
	if json.Unmarshal(data, &m) != nil {
		return json.RawMessage(`{"type":"object","properties":{}}`)
	}
	changed := false
	if _, ok := m["type"]; !ok {
		m["type"], changed = "object", true
	}
	if _, ok := m["properties"]; !ok {
		m["properties"], changed = map[string]any{}, true
	}
	if !changed {
		return data
	}
	data, _ = json.Marshal(m)
	return data
}

// skipped is a JSON value left unread.
type skipped struct{}

func (*skipped) UnmarshalJSON([]byte) error { return nil }

// EstimateTokens guesses a text's token count: about four bytes a token for
// English and code. Good enough to keep requests inside a budget; the
// server's usage figures are the real count.
func EstimateTokens(s string) int { return (len(s) + 3) / 4 }

func MessageTokens(m llm.Message) int {
	n := 4 + EstimateTokens(m.Content)
	for _, c := range m.ToolCalls {
		n += 8 + EstimateTokens(c.Name) + EstimateTokens(c.Arguments)
	}
	return n
}

func ToolTokens(list []llm.Tool) int {
	data, _ := json.Marshal(list)
	return EstimateTokens(string(data))
}

// Fit returns the messages that fit in budget tokens, dropping the
// oldest first in whole units, so that an assistant message that calls
// tools never loses its tool results: first whole turns (a user message and
// everything up to the next), then, inside the current turn, the oldest
// units after its question. The current question and the latest unit are
// always kept. dropped counts the messages left out.
func Fit(history []llm.Message, budget int) (kept []llm.Message, dropped int) {
	total := 0
	for _, m := range history {
		total += MessageTokens(m)
	}
	if total <= budget {
		return history, 0
	}
	units := splitUnits(history)
	// Indices of the units that start a turn.
	var turns []int
	for i, u := range units {
		if u[0].Role == llm.RoleUser {
			turns = append(turns, i)
		}
	}
	start := 0
	for t := 1; t < len(turns) && total > budget; t++ {
		for _, u := range units[turns[t-1]:turns[t]] {
			total -= unitTokens(u)
		}
		start = turns[t]
	}
	keep := make([]bool, len(units))
	for i := start; i < len(units); i++ {
		keep[i] = true
	}
	// Still too big: drop units inside the current turn, after its question,
	// but never the last one.
	for i := start + 1; i < len(units)-1 && total > budget; i++ {
		keep[i] = false
		total -= unitTokens(units[i])
	}
	for i, u := range units {
		if keep[i] {
			kept = append(kept, u...)
		} else {
			dropped += len(u)
		}
	}
	return kept, dropped
}

// splitUnits groups messages so that an assistant message with tool calls
// and the tool messages answering it form one unit.
func splitUnits(history []llm.Message) [][]llm.Message {
	var units [][]llm.Message
	for i := 0; i < len(history); i++ {
		m := history[i]
		if m.Role == llm.RoleTool && len(units) > 0 {
			last := units[len(units)-1]
			if last[0].Role == llm.RoleAssistant && len(last[0].ToolCalls) > 0 {
				units[len(units)-1] = append(last, m)
				continue
			}
		}
		units = append(units, []llm.Message{m})
	}
	return units
}

func unitTokens(u []llm.Message) int {
	n := 0
	for _, m := range u {
		n += MessageTokens(m)
	}
	return n
}

// Usage is the usage of one request: the server's figures, or an
// estimate (prompt from the request's size, completion from what came back)
// when it sent none.
func Usage(turn llm.Turn, promptEstimate int) (llm.Usage, bool) {
	if turn.Usage != nil {
		return *turn.Usage, false
	}
	out := EstimateTokens(turn.Text) + EstimateTokens(turn.Reasoning)
	for _, tc := range turn.ToolCalls {
		out += EstimateTokens(tc.Name) + EstimateTokens(tc.Arguments)
	}
	return llm.Usage{PromptTokens: promptEstimate, CompletionTokens: out, TotalTokens: promptEstimate + out}, true
}

// ToolSearchName is the meta-tool a model calls to find lazy tools. It is
// Deckhand's own: it runs nothing but a search, so it passes no gate.
const (
	ToolSearchName    = "tool_search"
	ToolSearchDisplay = "local.tool_search"
)

// Surface is what a conversation offers the model of a catalog: the tools
// sent with every request and, when some are lazy, tool_search and an index
// of the servers for the system prompt.
type Surface struct {
	Lazy   map[string]bool // by display name
	Index  string          // the servers, a line each, for the system prompt; "" when nothing is lazy
	Tokens int             // the estimated size of the tools always sent
	eager  []llm.Tool      // sent always, in catalog order
	cat    *tools.Catalog  // where a lazy tool's definition is made when it is loaded
	order  map[string]int  // catalog order by wire name, to keep the tools field stable
}

// DefaultEager is the eager baseline when mcp.eager is not set: the
// built-in server's file and shell core, sent with every request however
// large the catalog (the lazy tool surface's "file/shell core"), so the
// model never searches for how to read a file. `eager = []` sends none.
var DefaultEager = []string{"local.files_list", "local.files_read", "local.files_search", "local.files_write", "local.shell"}

// Plan decides which tools are lazy, from mcp.lazy ("auto" turns lazy
// when every schema together would take more than mcp.lazy_share of the
// context budget), each server's lazy, and mcp.eager.
//
// Only the eager tools' definitions are made: a lazy one's is made when it
// is loaded (every tool's, kept, was 1.7 MB of a 5,000-tool catalog's
// conversation, and the list of them all, sized as one JSON text, several
// more at each plan).
func Plan(cat *tools.Catalog, cfg *config.Config) *Surface {
	s := &Surface{Lazy: map[string]bool{}, cat: cat, order: map[string]int{}}
	lazyAll := false
	switch cfg.MCP.Lazy {
	case config.LazyAlways:
		lazyAll = true
	case config.LazyAuto, "":
		share := cfg.MCP.LazyShare
		if share == 0 {
			share = config.DefaultLazyShare
		}
		lazyAll = float64(catalogTokens(cat)) > share*float64(cfg.Model.MaxContextTokens)
	}
	eager := cfg.MCP.Eager
	if eager == nil {
		eager = DefaultEager
	}
	for i, t := range cat.Tools() {
		s.order[t.Wire] = i
		lazy := lazyAll
		if srv, ok := cfg.MCP.Servers[t.Server]; ok && srv.Lazy != nil {
			lazy = *srv.Lazy
		}
		if slices.ContainsFunc(eager, func(p string) bool { return p == t.Display || p == t.Server+".*" }) {
			lazy = false
		}
		if lazy {
			s.Lazy[t.Display] = true
		} else {
			s.eager = append(s.eager, toolDef(t))
		}
	}
	s.Tokens = ToolTokens(s.eager)
	if len(s.Lazy) > 0 {
		s.Index = serverIndex(cat, s.Lazy)
		s.Tokens += ToolTokens([]llm.Tool{ToolSearchTool})
	}
	return s
}

// Tools is the request's tools field: tool_search when anything is lazy,
// then the eager tools and those loaded, in catalog order.
func (s *Surface) Tools(loaded map[string]bool) []llm.Tool {
	if len(s.Lazy) == 0 {
		return s.eager
	}
	out := []llm.Tool{ToolSearchTool}
	var names []string
	for name := range loaded {
		if s.Lazy[name] {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return append(out, s.eager...)
	}
	list := slices.Clone(s.eager)
	for _, name := range names {
		list = append(list, s.def(name))
	}
	slices.SortStableFunc(list, func(a, b llm.Tool) int { return s.order[a.Name] - s.order[b.Name] })
	return append(out, list...)
}

// LoadedTokens is the estimated size of the loaded lazy tools' schemas.
func (s *Surface) LoadedTokens(loaded map[string]bool) int {
	var list []llm.Tool
	for name := range loaded {
		if s.Lazy[name] {
			list = append(list, s.def(name))
		}
	}
	if len(list) == 0 {
		return 0
	}
	return ToolTokens(list)
}

// def is a lazy tool's definition, by display name (one of s.Lazy's).
func (s *Surface) def(name string) llm.Tool {
	t, _ := s.cat.Lookup(name)
	return toolDef(t)
}

// ToolSearchTool is tool_search's definition.
var ToolSearchTool = llm.Tool{
	Name: ToolSearchName,
	Description: "Find tools by what you want done. Most tools are not listed in this request. Describe the task in a " +
		"few plain words: the action and what it acts on, with the product or service when you know it (\"list open pull " +
		"requests on github\", \"send an email\", \"scale a kubernetes deployment\"). Don't guess tool names. For several " +
		"needs, separate the searches with ';' (\"read a file; write a file\"); when unsure of the words tools use, say one " +
		"need two or three ways, also separated by ';' (\"delete a file; remove a document\"). If nothing fits, try other " +
		"words. The tools found can be called from your next step on, by the name given. It runs no tool itself.",
	Parameters: json.RawMessage(`{"type":"object","properties":{` +
		`"query":{"type":"string","description":"What you want done, in plain words; several searches separated by ';'"},` +
		`"domain":{"type":"string","description":"Only tools of this server (its alias); all (the default) for every server"},` +
		`"includeLoaded":{"type":"boolean","description":"Also list tools you can call already (default true)"},` +
		`"limit":{"type":"integer","description":"How many tools to return (default 5, at most 20)"}},` +
		`"required":["query"]}`),
}

// Loaded is the lazy tools a conversation has loaded (their schemas go with
// every request), each with the model request it was last used in: loaded
// by tool_search, or called. Requests are counted from when the
// conversation was opened; a conversation reopened counts its loaded tools
// as used at its first request. The run that holds it alone uses it.
type Loaded struct {
	last     map[string]int // by display name
	requests int
}

// NewLoaded is a set of loaded tools, as a conversation reopens with them.
func NewLoaded(names ...string) *Loaded {
	l := &Loaded{last: map[string]int{}}
	for _, n := range names {
		l.last[n] = 0
	}
	return l
}

// Set is the tools loaded, for Surface.Tools and Search.
func (l *Loaded) Set() map[string]bool {
	out := make(map[string]bool, len(l.last))
	for n := range l.last {
		out[n] = true
	}
	return out
}

// Has reports whether a tool is loaded.
func (l *Loaded) Has(name string) bool {
	_, ok := l.last[name]
	return ok
}

// Use loads a tool, or says it was called: its idle count starts again.
func (l *Loaded) Use(name string) { l.last[name] = l.requests }

// Request counts a model request about to be made.
func (l *Loaded) Request() { l.requests++ }

// Idle unloads the tools that were offered in the last after requests
// without being called, and returns them sorted; after 0 unloads none.
// A tool used in request k was offered in requests k+1 to n-1 when request
// n is about to be made.
func (l *Loaded) Idle(after int) []string {
	if after <= 0 {
		return nil
	}
	var out []string
	for n, k := range l.last {
		if l.requests-1-k >= after {
			out = append(out, n)
		}
	}
	return l.drop(out)
}

// Reset unloads every tool (compaction: the model's view starts again from
// the eager tools) and returns them sorted.
func (l *Loaded) Reset() []string { return l.drop(slices.Collect(maps.Keys(l.last))) }

func (l *Loaded) drop(names []string) []string {
	slices.Sort(names)
	for _, n := range names {
		delete(l.last, n)
	}
	return names
}

// serverIndex is the system prompt's map of the lazy tools: each server's
// alias, how many tools it has, and the first of their names.
func serverIndex(cat *tools.Catalog, lazy map[string]bool) string {
	byServer := map[string][]string{}
	var aliases []string
	for _, t := range cat.Tools() {
		if !lazy[t.Display] {
			continue
		}
		if _, ok := byServer[t.Server]; !ok {
			aliases = append(aliases, t.Server)
		}
		byServer[t.Server] = append(byServer[t.Server], t.Name)
	}
	slices.Sort(aliases)
	var b strings.Builder
	for _, alias := range aliases {
		names := byServer[alias]
		line := fmt.Sprintf("- %s (%d %s): %s", alias, len(names), plural(len(names), "tool", "tools"), strings.Join(names, ", "))
		if len(line) > 140 {
			// Cut after the last whole name that fits; a first name longer
			// than the line (tool names run to 128 characters) is cut itself.
			cut := strings.LastIndex(line[:137], ",")
			if cut < 0 {
				cut = 137
			}
			line = line[:cut] + ", …"
		}
		b.WriteString(line + "\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// SearchAnswer is a tool_search call's answer: the text the model reads,
// the same in the lazy tool surface's shape (structuredContent: what was
// loaded before, each match with its status, what is loaded after, and
// what to do next), and the lazy tools it loaded.
type SearchAnswer struct {
	Text       string
	Structured *SearchResult
	Newly      []string
}

// SearchResult is tool_search's structured answer, in the lazy tool
// surface's shape (SfToolSearchResult). Names are display names
// (alias.tool); a match's name is what the model calls it by.
type SearchResult struct {
	Query           string        `json:"query"`
	LoadedBefore    []string      `json:"loadedBefore"`
	Matches         []SearchMatch `json:"matches"`
	LoadedAfter     []string      `json:"loadedAfter"`
	NextInstruction string        `json:"nextInstruction"`
}

// SearchMatch is one tool found. Status is "loaded" (offered before this
// search: eager, or found earlier) or "available_lazy" (loaded by this
// search). Domain is the tool's server; Risk is read, write, destructive
// or unknown, with ", external" when it reaches outside the machine.
type SearchMatch struct {
	Name          string `json:"name"`
	CanonicalName string `json:"canonicalName"`
	Status        string `json:"status"`
	Title         string `json:"title,omitempty"`
	Description   string `json:"description"`
	Domain        string `json:"domain"`
	Risk          string `json:"risk"`
	SchemaPreview string `json:"schemaPreview"`
}

// Search runs a tool_search call. Its input is the lazy tool surface's
// ({"query", "domain", "includeLoaded", "limit"}; "server" is a synonym
// of "domain", which is a server's alias, or "all" or "mcp" for every
// server): the matches for the model, and the lazy tools among them that
// were not loaded yet. includeLoaded false leaves out the tools already
// offered.
func Search(cat *tools.Catalog, s *Surface, loaded map[string]bool, args json.RawMessage) (SearchAnswer, error) {
	var in struct {
		Query         string `json:"query"`
		Server        string `json:"server"`
		Domain        string `json:"domain"`
		IncludeLoaded *bool  `json:"includeLoaded"`
		Limit         int    `json:"limit"`
	}
	if err := json.Unmarshal(args, &in); err != nil || strings.TrimSpace(in.Query) == "" {
		return SearchAnswer{}, fmt.Errorf(`tool_search wants {"query": "what the tool should do"}`)
	}
	server := in.Server
	switch d := strings.TrimSpace(in.Domain); d {
	case "", "all", "mcp":
	default:
		if server != "" && server != d {
			return SearchAnswer{}, fmt.Errorf("tool_search: domain %q and server %q disagree; give one", d, server)
		}
		server = d
	}
	if server != "" && len(cat.Server(server)) == 0 {
		return SearchAnswer{}, fmt.Errorf("tool_search: no server (domain) named %q; the servers are %s", server, strings.Join(serverAliases(cat), ", "))
	}
	offered := func(display string) bool { return !s.Lazy[display] || loaded[display] }
	before := loadedNames(s, loaded)
	limit := min(max(in.Limit, 0), 20)
	matches := cat.Search(in.Query, server, limit)
	if in.IncludeLoaded != nil && !*in.IncludeLoaded {
		matches = slices.DeleteFunc(slices.Clone(matches), func(m tools.Match) bool { return offered(m.Tool.Display) })
	}
	ans := SearchAnswer{Structured: &SearchResult{Query: in.Query, LoadedBefore: before, Matches: []SearchMatch{}}}
	after := maps.Clone(loaded)
	if after == nil {
		after = map[string]bool{}
	}
	for _, m := range matches {
		status := "loaded"
		if !offered(m.Tool.Display) {
			status = "available_lazy"
			ans.Newly = append(ans.Newly, m.Tool.Display)
			after[m.Tool.Display] = true
		}
		ans.Structured.Matches = append(ans.Structured.Matches, SearchMatch{
			Name: m.Tool.Wire, CanonicalName: m.Tool.Display, Status: status, Title: m.Tool.Def.Title,
			Description: m.Tool.Def.Description, Domain: m.Tool.Server, Risk: m.Risk, SchemaPreview: m.Preview,
		})
	}
	ans.Structured.LoadedAfter = loadedNames(s, after)
	if len(matches) == 0 {
		ans.Structured.NextInstruction = "Nothing matched: search again with other words for the action and what it acts on, or several searches separated by ';'."
	} else {
		ans.Structured.NextInstruction = "Call the tools found by their name (" + matches[0].Tool.Wire + " …) from your next step; they stay loaded for this conversation."
	}
	ans.Text = tools.RenderMatches(in.Query, matches)
	return ans, nil
}

// serverAliases are the catalog's servers, sorted.
func serverAliases(cat *tools.Catalog) []string {
	var out []string
	for _, t := range cat.Tools() {
		if !slices.Contains(out, t.Server) {
			out = append(out, t.Server)
		}
	}
	slices.Sort(out)
	return out
}

// loadedNames are the lazy tools loaded, sorted.
func loadedNames(s *Surface, loaded map[string]bool) []string {
	out := []string{}
	for name := range loaded {
		if loaded[name] && s.Lazy[name] {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// plural is one when n is 1, else many.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
