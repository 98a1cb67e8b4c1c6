package apps

import (
	"context"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Views keeps the view of each tool definition: read from its server once
// per definition (the definition's hash names it) and kept, so that the
// view shown is the one fetched for the definition the gate checks; and
// the first view seen of each tool, pinned: a later definition whose view
// differs is a changed view, opened only once the person accepts it (as a
// changed definition is asked again at the gate). Safe for concurrent use.
// In memory: a restart reads each view again, and pins what it reads.
type Views struct {
	mu     sync.Mutex
	byDef  map[string]View   // tool + "\x00" + definition hash → its view
	pinned map[string]string // tool → the accepted view's Hash
}

// NewViews makes an empty book of views.
func NewViews() *Views {
	return &Views{byDef: map[string]View{}, pinned: map[string]string{}}
}

// Reader reads a resource of the tool's server.
type Reader func(ctx context.Context, uri string) ([]*sdk.ResourceContents, error)

// Get is the view of tool (alias.name) as defined by the definition of
// hash defHash naming uri: the one already read for that definition, else
// read now with read. changed reports that it differs from the view
// pinned for the tool (the first one seen, or the last accepted); the
// first view seen is pinned.
func (v *Views) Get(ctx context.Context, tool, defHash, uri string, read Reader) (view View, changed bool, err error) {
	key := tool + "\x00" + defHash
	v.mu.Lock()
	view, ok := v.byDef[key]
	v.mu.Unlock()
	if !ok {
		contents, err := read(ctx, uri)
		if err != nil {
			return View{}, false, err
		}
		if view, err = ReadView(uri, contents); err != nil {
			return View{}, false, err
		}
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if old, ok := v.byDef[key]; ok {
		view = old // read twice at once: the first kept wins
	} else {
		v.byDef[key] = view
	}
	pin, ok := v.pinned[tool]
	if !ok {
		v.pinned[tool] = view.Hash
		return view, false, nil
	}
	return view, pin != view.Hash, nil
}

// Accept pins view as the tool's view.
func (v *Views) Accept(tool string, view View) {
	v.mu.Lock()
	v.pinned[tool] = view.Hash
	v.mu.Unlock()
}
