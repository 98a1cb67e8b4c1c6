package writer

import (
	"context"

	"deckhand/approval"
	"deckhand/store"
)

// The "always allow" grants are the gate's (approval.Always); the store
// actor only keeps them in step with the log: it reads them in (LoadGrants,
// at start and at each run start), writes each one given (SaveGrant), and
// tells the grants when a grant or a revocation is on disk.

// SaveGrant asks the store actor to write an "always allow" given in this
// process; approval.Always sends it (NewAlways's save) once the grant
// counts.
type SaveGrant struct{ Grant approval.Grant }

// LoadGrants reads the log's grants into always: at start, and then only in
// the store actor's writer goroutine, between two writes. A row Deckhand
// did not write (store.Grant.Foreign) never counts.
func LoadGrants(ctx context.Context, db *store.DB, always *approval.Always) error {
	list, err := db.Grants(ctx)
	if err != nil {
		return err
	}
	var saved []approval.Grant
	for _, gr := range list {
		if !gr.Foreign {
			saved = append(saved, approval.Grant{Tool: gr.Tool, By: gr.By, At: gr.Time})
		}
	}
	always.Reload(saved)
	return nil
}
