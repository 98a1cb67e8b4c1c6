package agent

import (
	"testing"

	"deckhand/config"
	"deckhand/store/writer"
)

// The settings list the "always allow" grants and revoke them; a revoked
// grant stops counting at once, with a log and without.
func TestListAndRevokeGrants(t *testing.T) {
	for _, withLog := range []bool{true, false} {
		o := Options{Config: &config.Config{}}
		if withLog {
			o.Log = openLog(t)
		}
		s := Start(o)
		ctx := t.Context()
		if err := s.always.Grant("fs.write_file", "user"); err != nil {
			t.Fatal(err)
		}
		list, err := s.Grants(ctx)
		if err != nil || len(list) != 1 || list[0].Tool != "fs.write_file" {
			t.Fatalf("log %v: grants %+v, %v", withLog, list, err)
		}
		if err := s.RevokeGrant(ctx, "fs.write_file"); err != nil {
			t.Fatal(err)
		}
		if s.always.Allowed("fs.write_file") {
			t.Errorf("log %v: still allowed after the revocation", withLog)
		}
		if list, err := s.Grants(ctx); err != nil || len(list) != 0 {
			t.Errorf("log %v: after the revocation: %+v, %v", withLog, list, err)
		}
		if err := s.RevokeGrant(ctx, "fs.write_file"); err != nil {
			t.Errorf("log %v: revoking twice: %v", withLog, err)
		}
		if withLog {
			// The refresh from the log does not bring it back.
			if err := s.always.(*writer.Always).Load(ctx, o.Log); err != nil || s.always.Allowed("fs.write_file") {
				t.Errorf("after a refresh: %v %v", s.always.Allowed("fs.write_file"), err)
			}
		}
		s.Shutdown(ctx)
	}
}
