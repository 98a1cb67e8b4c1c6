package actors

import (
	"context"

	"deckhand/actors/servers"
	"deckhand/actors/writer"
	"deckhand/store"
)

// Grants lists the "always allow" grants, by tool: the log's, or this
// process's when there is no log.
func (s *System) Grants(ctx context.Context) ([]store.Grant, error) {
	if s.Store != nil {
		// A grant just given may not be on disk yet.
		if err := s.SyncLog(ctx); err != nil {
			return nil, err
		}
		return s.db.Grants(ctx)
	}
	var out []store.Grant
	for _, g := range s.always.List() {
		out = append(out, store.Grant{Tool: g.Tool, Scope: "always", By: g.By, Time: g.At})
	}
	return out, nil
}

// RevokeGrant removes tool's "always allow": the next call of the tool is
// asked again, in every conversation, without a restart. With a log, it is
// a message to the store actor, which owns the grants: it stops counting
// at once and returns once the log's copy is deleted. A tool without a
// grant is not an error.
func (s *System) RevokeGrant(ctx context.Context, tool string) error {
	if s.Store != nil {
		d, err := ask[*servers.Done](ctx, s, s.Store, &writer.RevokeGrant{Tool: tool})
		if err != nil {
			return err
		}
		return d.Err
	}
	s.always.Revoke(tool)
	return nil
}
