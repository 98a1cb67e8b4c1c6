package replay

import "slices"

// Tree is how a session's runs hang together once a message has versions:
// each run follows its parent (the run before it in its branch; "" for the
// first), and the runs that share a parent are versions of one message
// (Edit and Retry start a new one beside the old, which keeps its answers
// and the runs that followed it). Path is the branch shown and sent to the
// model: from the first run, each parent's chosen child, by default its
// newest. A Tree belongs to one goroutine.
type Tree struct {
	parent map[string]string
	kids   map[string][]string // parent -> children, oldest first
	chosen map[string]string   // parent -> chosen child
}

// NewTree returns an empty tree.
func NewTree() *Tree {
	return &Tree{parent: map[string]string{}, kids: map[string][]string{}, chosen: map[string]string{}}
}

// Has reports whether run is in the tree.
func (t *Tree) Has(run string) bool {
	_, ok := t.parent[run]
	return ok
}

// Parent is the run run follows ("" for a first message).
func (t *Tree) Parent(run string) string { return t.parent[run] }

// Add puts run after parent, as its chosen child: a new version of the
// message parent's other children are versions of.
func (t *Tree) Add(run, parent string) {
	if t.Has(run) {
		return
	}
	if parent != "" && !t.Has(parent) {
		parent = ""
	}
	t.parent[run] = parent
	t.kids[parent] = append(t.kids[parent], run)
	t.chosen[parent] = run
}

// Remove takes run out (Delete): the runs that followed it follow its
// parent, in its place.
func (t *Tree) Remove(run string) {
	if !t.Has(run) {
		return
	}
	p := t.parent[run]
	kids := t.kids[run]
	i := slices.Index(t.kids[p], run)
	t.kids[p] = slices.Insert(slices.Delete(t.kids[p], i, i+1), i, kids...)
	for _, k := range kids {
		t.parent[k] = p
	}
	if t.chosen[p] == run {
		delete(t.chosen, p)
		if c := t.chosen[run]; c != "" {
			t.chosen[p] = c
		}
	}
	delete(t.parent, run)
	delete(t.kids, run)
	delete(t.chosen, run)
}

// Choose makes run the version shown, with the runs that followed it,
// and the versions it follows (a run found by a search may follow an
// earlier version of a message before it).
func (t *Tree) Choose(run string) {
	for seen := 0; t.Has(run) && seen <= len(t.parent); seen++ {
		t.chosen[t.parent[run]] = run
		run = t.parent[run]
	}
}

// Path is the branch shown: from the first run, each chosen child.
func (t *Tree) Path() []string {
	var path []string
	for at := ""; ; {
		kids := t.kids[at]
		if len(kids) == 0 {
			return path
		}
		next := t.chosen[at]
		if !slices.Contains(kids, next) {
			next = kids[len(kids)-1]
		}
		path = append(path, next)
		at = next
	}
}

// Versions are the versions of run's message (run among them), oldest
// first; nil when it has only one.
func (t *Tree) Versions(run string) []string {
	if !t.Has(run) {
		return nil
	}
	kids := t.kids[t.parent[run]]
	if len(kids) < 2 {
		return nil
	}
	return slices.Clone(kids)
}

// AllVersions are Versions of every run that has more than one.
func (t *Tree) AllVersions() map[string][]string {
	out := map[string][]string{}
	for run := range t.parent {
		if v := t.Versions(run); v != nil {
			out[run] = v
		}
	}
	return out
}
