package actors

import (
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/actors/conversation"
	"deckhand/actors/writer"
	"deckhand/approval"
	"deckhand/config"
	"deckhand/testutil"
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
		s.always.Grant("fs.write_file", "user")
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
			if err := writer.LoadGrants(ctx, o.Log, s.always); err != nil || s.always.Allowed("fs.write_file") {
				t.Errorf("after a refresh: %v %v", s.always.Allowed("fs.write_file"), err)
			}
		}
		s.Shutdown(ctx)
	}
}

// Revoking an "always allow" is a message to the store actor, which owns
// the grants: the next call is asked at once, in the conversation that was
// granted it, without waiting for anything to read the log again.
func TestRevokedGrantIsAskedNextCall(t *testing.T) {
	db := openLog(t)
	add := func(id string) testutil.ModelResponse {
		return calls(testutil.ToolCallSpec{ID: id, Name: "mem__add", Arguments: `{"a":1,"b":1}`})
	}
	model := testutil.NewModelServer(t, add("a"), answer("2"), add("b"), answer("2"), add("c"), answer("no"))
	c := startChatWith(t, func(o *Options) { o.Log = db }, model, map[string]*sdk.Server{"mem": testutil.NewServer("mem")})

	c.send("add")
	req := expect[*conversation.ApprovalRequested](c)
	c.answer(req, approval.AllowAlways)
	expect[*conversation.RunFinished](c)

	c.send("add again")
	if d := expect[*conversation.ApprovalDecided](c); !d.Allowed || d.By != "always allowed" {
		t.Fatalf("with the grant: %+v", d)
	}
	expect[*conversation.RunFinished](c)

	if err := c.sys.RevokeGrant(t.Context(), "mem.add"); err != nil {
		t.Fatal(err)
	}
	if list, err := db.Grants(t.Context()); err != nil || len(list) != 0 {
		t.Errorf("the log after the revocation: %+v, %v", list, err)
	}
	c.send("and again")
	req = expect[*conversation.ApprovalRequested](c)
	for _, m := range c.seen {
		if d, ok := m.(*conversation.ApprovalDecided); ok && d.Call == "c" {
			t.Fatalf("decided before asking, after the revocation: %+v", d)
		}
	}
	c.answer(req, approval.Deny)
	if d := expect[*conversation.ApprovalDecided](c); d.Allowed || d.By != "the person" {
		t.Errorf("after the revocation: %+v", d)
	}
	expect[*conversation.RunFinished](c)
}
