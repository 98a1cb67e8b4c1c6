package request

import (
	"maps"
	"slices"
)

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
