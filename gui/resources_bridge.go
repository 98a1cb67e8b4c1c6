package gui

import "deckhand/actors/servers"

// resourceUpdated is a server saying that a resource attached in the
// message box changed (the composer subscribed the bridge to it): the
// composer reads it again.
func (b *bridge) resourceUpdated(m *servers.ResourceUpdated) {
	ui := b.ui
	ui.post(func() { ui.comp.ResourceUpdated(m.Alias, m.URI) })
}
