package actors

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/actors/conversation"
	"deckhand/testutil"
)

// Tool calls do not pass through the registry actor: the catalog is a value
// swapped into the router, and a call to a connected server goes straight
// to its connection. With the registry actor gone, a blocking call and a
// conversation's call still run, and Stop still ends a call in flight.
func TestCallsBypassTheRegistry(t *testing.T) {
	model := testutil.NewModelServer(t,
		calls(testutil.ToolCallSpec{ID: "c1", Name: "mem__echo", Arguments: `{"text":"through the router"}`}),
		answer("done"),
		calls(testutil.ToolCallSpec{ID: "c2", Name: "mem__slow", Arguments: `{"ms":60000}`}),
	)
	c := startChat(t, model, map[string]*sdk.Server{"mem": testutil.NewServer("mem")}, autoApprove("mem.*"))
	ctx, cancel := context.WithTimeout(t.Context(), wait)
	defer cancel()
	// The registry has answered the conversation's watch before it
	// stops (a stop jumps the queue): the conversation sent the watch
	// before it said it was open, and the registry's mailbox is first in,
	// first out, so the answer to this question comes after it.
	expect[*conversation.ConversationOpened](c)
	if _, err := c.sys.Catalog(ctx); err != nil {
		t.Fatal(err)
	}
	if err := c.sys.Root.StopFuture(c.sys.Registry).Wait(); err != nil {
		t.Fatal(err)
	}

	short, cancelShort := context.WithTimeout(ctx, 5*time.Second)
	res, err := c.sys.CallTool(short, "mem.echo", json.RawMessage(`{"text":"hi"}`), nil)
	cancelShort()
	if err != nil || res.Err != nil || text(t, res) != "Echo: hi" {
		t.Fatalf("CallTool with the registry stopped = %+v, %v; want Echo: hi", res, err)
	}

	c.send("go")
	fin := expect[*conversation.ToolCallFinished](c)
	if fin.IsError || fin.Output != "Echo: through the router" {
		t.Errorf("the conversation's call = %+v, want through the router", fin)
	}
	expect[*conversation.RunFinished](c)

	c.send("again")
	expect[*conversation.ToolCallStarted](c)
	start := time.Now()
	c.sys.Root.Send(c.conv, &conversation.StopRun{})
	if fin := expect[*conversation.RunFinished](c); !fin.Stopped || time.Since(start) > 5*time.Second {
		t.Errorf("run = %+v after %v, want stopped at once", fin, time.Since(start))
	}
}
