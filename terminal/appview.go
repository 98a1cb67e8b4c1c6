package terminal

import (
	"fmt"

	"deckhand/apps"
)

// viewHint says, under a tool's result, that the tool has a view (an MCP
// App) the terminal cannot show, and how to see it in the window; "" for
// a tool without one.
func (t *chat) viewHint(tool string) string {
	if t.catalog == nil {
		return ""
	}
	tl, ok := t.catalog.Lookup(tool)
	if !ok {
		return ""
	}
	def := tl.Raw
	if def == nil {
		def = tl.Def
	}
	if apps.ResourceURI(def) == "" {
		return ""
	}
	return fmt.Sprintf("▣ %s has a view (an MCP App) that only the window shows: run deckhand, open this session (%s) from the sidebar, and press Open view on this card.", tool, t.convID)
}
