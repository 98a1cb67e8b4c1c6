package actors

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"deckhand/actors/conversation"
	"deckhand/actors/servers"
	"deckhand/store"
	"deckhand/testutil"
)

// slowChat starts a system whose one server, s, is a real stdio server
// started with args, and a conversation at once: the server is still
// connecting when the model is first asked.
func slowChat(t *testing.T, db *store.DB, model *testutil.ModelServer, args ...string) *chat {
	t.Helper()
	return reopen(t, db, model, "", conversation.ConversationOptions{}, args...)
}

// A server that starts slowly loses no call: while it connects, the tools
// of its last connection (from the log) are offered, marked as such, and a
// call to one waits for the connection, then runs; it is checked against
// what the server lists once connected (a changed definition is refused as
// any redefined tool is, a tool gone says so), and Stop ends the wait.
func TestSlowStartLosesNoCall(t *testing.T) {
	echo := testutil.ToolCallSpec{ID: "c1", Name: "s__echo", Arguments: `{"text":"waited"}`}
	mutable := testutil.ToolCallSpec{ID: "c1", Name: "s__mutable", Arguments: `{}`}
	// lastConnected is a log holding the tools of a first, quick connection.
	lastConnected := func(t *testing.T) *store.DB {
		db := openLog(t)
		first := slowChat(t, db, testutil.NewModelServer(t), "-describe", "version one")
		waitState(t, first.sys, "s", servers.StateReady)
		syncLog(t, first)
		return db
	}

	for _, tc := range []struct {
		name  string
		args  []string
		call  testutil.ToolCallSpec
		check func(*testing.T, *conversation.ToolCallFinished)
	}{
		{"same tools: the call waits and runs", []string{"-delay", "1500ms", "-describe", "version one"}, echo, func(t *testing.T, fin *conversation.ToolCallFinished) {
			if fin.IsError || fin.Output != "Echo: waited" {
				t.Errorf("finished = %+v, want Echo: waited", fin)
			}
		}},
		{"a changed definition is not run", []string{"-delay", "1500ms", "-describe", "version two"}, mutable, func(t *testing.T, fin *conversation.ToolCallFinished) {
			if !fin.IsError || !strings.Contains(fin.Output, "definition changed") {
				t.Errorf("finished = %+v, want refused: the definition changed", fin)
			}
		}},
		{"a tool gone says so", []string{"-delay", "1500ms"}, mutable, func(t *testing.T, fin *conversation.ToolCallFinished) {
			if !fin.IsError || !strings.Contains(fin.Output, `connected without a tool named "mutable"`) {
				t.Errorf("finished = %+v, want: connected without the tool", fin)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			model := testutil.NewModelServer(t, calls(tc.call), answer("done"))
			c := slowChat(t, lastConnected(t), model, tc.args...)
			testutil.Eventually(t, wait, func() bool {
				cat, _ := c.sys.Catalog(t.Context())
				tool, ok := cat.Lookup("s.mutable")
				return ok && tool.Cached
			}, "s.mutable not offered from the last connection")
			if st := statuses(t, c.sys, false)["s"]; st.State != servers.StateConnecting || st.Tools == 0 {
				t.Errorf("s = %+v, want connecting with the tools of its last connection", st)
			}
			c.send("go")
			tc.check(t, expect[*conversation.ToolCallFinished](c))
			expect[*conversation.RunFinished](c)
		})
	}

	t.Run("stop ends the wait", func(t *testing.T) {
		model := testutil.NewModelServer(t, calls(echo), answer("done"))
		c := slowChat(t, lastConnected(t), model, "-delay", "30s")
		testutil.Eventually(t, wait, func() bool {
			cat, _ := c.sys.Catalog(t.Context())
			_, ok := cat.Lookup("s.echo")
			return ok
		}, "s.echo not offered from the last connection")
		c.send("go")
		expect[*conversation.ToolCallStarted](c)
		start := time.Now()
		c.sys.Root.Send(c.conv, &conversation.StopRun{})
		if fin := expect[*conversation.RunFinished](c); !fin.Stopped || time.Since(start) > 5*time.Second {
			t.Errorf("run = %+v after %v, want stopped at once", fin, time.Since(start))
		}
		// A blocking call waits too, and its context ends the wait.
		ctx, cancel := context.WithTimeout(t.Context(), 500*time.Millisecond)
		defer cancel()
		_, err := c.sys.CallTool(ctx, "s.echo", []byte(`{"text":"x"}`), nil)
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("CallTool while s connects = %v, want the context's deadline", err)
		}
	})
}
