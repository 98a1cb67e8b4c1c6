package actors

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/asynkron/protoactor-go/actor"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/actors/conversation"
	"deckhand/config"
	"deckhand/request"
	"deckhand/store"
	"deckhand/testutil"
	"deckhand/transcript"
)

// smallContext is a model of 3,000 tokens whose tools are all lazy: two
// messages of 1,500 tokens do not fit in it together.
func smallContext(unloadAfter int) func(*config.Config) {
	return func(c *config.Config) {
		c.Model.MaxContextTokens, c.Model.MaxOutputTokens = 3000, 200
		c.MCP.Lazy = config.LazyAlways
		c.MCP.UnloadAfter = &unloadAfter
		c.MCP.AutoApprove = map[string]bool{"t.*": true}
	}
}

// logged syncs the log and reads the conversation's events back.
func (c *chat) logged(db *store.DB, conv string) []store.Event {
	c.t.Helper()
	if err := c.sys.SyncLog(c.t.Context()); err != nil {
		c.t.Fatal(err)
	}
	events, err := db.Events(c.t.Context(), store.Filter{SessionID: conv})
	if err != nil {
		c.t.Fatal(err)
	}
	return events
}

// reopen stops the conversation and starts it again from its log.
func (c *chat) reopen(opts conversation.ConversationOptions, id string) {
	c.t.Helper()
	opts.ID, opts.Watchers = id, []*actor.PID{c.watcher}
	ctx, cancel := context.WithTimeout(c.t.Context(), wait)
	defer cancel()
	c.sys.Root.StopFuture(c.conv).Wait()
	// The supervisor hears of the stop in its own time.
	testutil.Eventually(c.t, wait, func() bool {
		conv, _, err := c.sys.StartConversation(ctx, opts)
		c.conv = conv
		return err == nil
	}, "the conversation reopened")
}

func contents(msgs []map[string]any) string {
	var b strings.Builder
	for _, m := range msgs {
		s, _ := m["content"].(string)
		b.WriteString(m["role"].(string) + ": " + s + "\n")
	}
	return b.String()
}

// A lazy tool offered for mcp.unload_after requests without a call is no
// longer sent; the log says so, a reopened conversation does not get it
// back, and calling it by name loads it again.
func TestIdleLazyToolIsUnloaded(t *testing.T) {
	db := openLog(t)
	model := testutil.NewModelServer(t,
		calls(testutil.ToolCallSpec{ID: "s1", Name: "tool_search", Arguments: `{"query": "echo the text back", "limit": 1}`}),
		answer("Found."), // 1: t__echo offered
		answer("Two."),   // 2: offered
		answer("Three."), // 3: unloaded before it
		calls(testutil.ToolCallSpec{ID: "c1", Name: "t__echo", Arguments: `{"text": "hi"}`}),
		answer("Echoed."),
	)
	c := startChatWith(t, func(o *Options) { o.Log = db }, model, map[string]*sdk.Server{"t": testutil.NewServer("t")}, smallContext(2))
	c.send("find the echo tool")
	opened := expect[*conversation.ConversationOpened](c)
	expect[*conversation.RunFinished](c)
	c.send("two")
	expect[*conversation.RunFinished](c)
	c.send("three")
	gone := expect[*conversation.ToolsUnloaded](c)
	if !slices.Equal(gone.Tools, []string{"t.echo"}) || !strings.Contains(gone.Why, "not called in the last 2 requests") {
		t.Errorf("ToolsUnloaded = %+v, want t.echo, not called in the last 2 requests", gone)
	}
	expect[*conversation.RunFinished](c)
	for i, want := range []bool{false, true, true, false} {
		if _, offered := c.request(i); slices.Contains(offered, "t__echo") != want {
			t.Errorf("request %d offers %v; want t__echo offered: %v", i, offered, want)
		}
	}
	events := c.logged(db, opened.Conversation)
	if i := slices.IndexFunc(events, func(e store.Event) bool { return e.Kind == store.KindToolsUnloaded }); i < 0 {
		t.Errorf("no %s in the log", store.KindToolsUnloaded)
	} else if d, _ := events[i].Decode(); !slices.Equal(d.Unloaded, []string{"t.echo"}) || d.Reason == "" {
		t.Errorf("%s = %s, want t.echo and why", store.KindToolsUnloaded, events[i].Data)
	}
	opts := conversation.Rebuild(events)
	if len(opts.Loaded) != 0 {
		t.Errorf("Rebuild().Loaded = %v, want nothing: t.echo was unloaded", opts.Loaded)
	}
	c.reopen(opts, opened.Conversation)
	c.send("echo hi")
	loaded := expect[*conversation.ToolsLoaded](c)
	if loaded.By != "called" || !slices.Equal(loaded.Tools, []string{"t.echo"}) {
		t.Errorf("ToolsLoaded = %+v, want t.echo loaded by its call", loaded)
	}
	if fin := expect[*conversation.ToolCallFinished](c); fin.IsError {
		t.Errorf("the call of the unloaded tool: %+v", fin)
	}
	expect[*conversation.RunFinished](c)
	if _, offered := c.request(5); !slices.Contains(offered, "t__echo") {
		t.Errorf("the request after the call offers %v, want t__echo again", offered)
	}
}

// secret is a secret Deckhand knows (a key): the model's summary does
// not carry it into the requests after.
const secret = "sk-compact-7f3a9c2e1b"

// compacting sends three runs, the last two of 1,500 tokens each, to a
// model of 3,000 tokens: the third does not fit with the rest, and the
// model is asked for a summary (summary) before its answer.
func compacting(t *testing.T, db *store.DB, summary testutil.ModelResponse, more ...testutil.ModelResponse) (*chat, string) {
	model := testutil.NewModelServer(t, append([]testutil.ModelResponse{
		calls(testutil.ToolCallSpec{ID: "s1", Name: "tool_search", Arguments: `{"query": "echo the text back", "limit": 1}`}),
		answer("Found echo."),
		answer("Noted the first part."),
		summary,
		answer("Done."),
	}, more...)...)
	c := startChatWith(t, func(o *Options) { o.Log, o.Secrets = db, []string{secret} }, model, map[string]*sdk.Server{"t": testutil.NewServer("t")}, smallContext(0))
	c.send("find the echo tool")
	opened := expect[*conversation.ConversationOpened](c)
	expect[*conversation.RunFinished](c)
	c.send("FIRST PART " + strings.Repeat("a", 6000))
	expect[*conversation.RunFinished](c)
	c.send("SECOND PART " + strings.Repeat("b", 6000))
	return c, opened.Conversation
}

// The history no longer fits: the two oldest turns are summarised by one
// model request (which the test reads), the summary stands in for them,
// the loaded tools are reset, the log and the window say so, and a
// reopened conversation gives the model the summary, not the turns.
func TestCompactionSummarisesTheOldestTurns(t *testing.T) {
	db := openLog(t)
	c, conv := compacting(t, db, answer("The user found the echo tool and sent a first part of a's; the key was "+secret+"."), answer("Still here."))
	compacted := expect[*conversation.ContextCompacted](c)
	if compacted.Turns != 2 || compacted.After >= compacted.Before || !strings.Contains(compacted.Summary, "echo tool") ||
		strings.Contains(compacted.Summary, secret) {
		t.Errorf("ContextCompacted = %+v, want 2 turns, fewer tokens after, the summary without the secret", compacted)
	}
	gone := expect[*conversation.ToolsUnloaded](c)
	if !slices.Equal(gone.Tools, []string{"t.echo"}) || !strings.Contains(gone.Why, "compacted") {
		t.Errorf("ToolsUnloaded = %+v, want t.echo, reset by compaction", gone)
	}
	notice := expect[*conversation.Notice](c)
	if notice.Text != "Earlier messages were summarised to fit the model's context (2 turns)." {
		t.Errorf("Notice = %q", notice.Text)
	}
	fin := expect[*conversation.RunFinished](c)
	// Each scripted answer reports 10 prompt tokens: the summary's are the
	// run's too.
	if fin.Err != nil || fin.Text != "Done." || fin.Requests != 2 || fin.Usage.PromptTokens != 20 {
		t.Errorf("RunFinished = %+v, want Done. after 2 requests and 20 prompt tokens (the summary's counted)", fin)
	}

	// The summary request: the fixed instruction and the turns summarised,
	// no tools.
	summaryReq, offered := c.request(3)
	if len(offered) != 0 || len(summaryReq) != 2 || summaryReq[0]["content"] != request.SummaryPrompt {
		t.Errorf("the summary request offers %v and says:\n%s", offered, contents(summaryReq))
	}
	if body := contents(summaryReq); !strings.Contains(body, "User: find the echo tool") || !strings.Contains(body, "Tool result: ") ||
		!strings.Contains(body, "User: FIRST PART") || strings.Contains(body, "SECOND PART") {
		t.Errorf("the summary request should hold the first two turns and not the current one:\n%.600s", body)
	}
	// The answer's request: the summary in place of the two turns, and
	// only tool_search again.
	msgs, offered := c.request(4)
	if !slices.Equal(offered, []string{"tool_search"}) {
		t.Errorf("the request after compaction offers %v, want only tool_search (the loaded set reset)", offered)
	}
	body := contents(msgs)
	if strings.Contains(body, secret) {
		t.Errorf("the summary carried a secret into the next request:\n%.600s", body)
	}
	if len(msgs) != 3 || msgs[1]["role"] != "system" || !strings.HasPrefix(msgs[1]["content"].(string), request.SummaryHeading) ||
		!strings.Contains(body, "The user found the echo tool") || strings.Contains(body, "FIRST PART") || !strings.Contains(body, "SECOND PART") {
		t.Errorf("the request after compaction:\n%.600s", body)
	}

	events := c.logged(db, conv)
	i := slices.IndexFunc(events, func(e store.Event) bool { return e.Kind == store.KindContextCompacted })
	if i < 0 {
		t.Fatalf("no %s in the log", store.KindContextCompacted)
	}
	if d, _ := events[i].Decode(); d.Turns != 2 || d.TokensBefore <= d.TokensAfter || d.From != events[i].RunID {
		t.Errorf("%s = %s", store.KindContextCompacted, events[i].Data)
	}
	// The person's transcript keeps every message, and says where.
	tr := transcript.FromEvents(events)
	var users, notes []string
	for i := range tr.Len() {
		switch r := tr.Row(i); {
		case r.Kind == transcript.Header && r.Role == "user":
			users = append(users, r.Text)
		case r.Kind == transcript.Notice:
			notes = append(notes, r.Text)
		}
	}
	if len(users) != 3 || !slices.Contains(notes, "Earlier messages were summarised to fit the model's context (2 turns).") {
		t.Errorf("the reopened transcript: messages %d, notices %q; want all 3 and the compaction's", len(users), notes)
	}

	opts := conversation.Rebuild(events)
	if opts.Summary == nil || !strings.Contains(opts.Summary.Text, "echo tool") || len(opts.Loaded) != 0 || len(opts.History) < 5 {
		t.Fatalf("Rebuild() = summary %+v, loaded %v, %d messages; want the summary, nothing loaded, every message", opts.Summary, opts.Loaded, len(opts.History))
	}
	c.reopen(opts, conv)
	c.send("and now?")
	expect[*conversation.RunFinished](c)
	msgs, _ = c.request(5)
	if body := contents(msgs); !strings.HasPrefix(msgs[1]["content"].(string), request.SummaryHeading) || strings.Contains(body, "FIRST PART") ||
		!strings.Contains(body, "SECOND PART") || !strings.Contains(body, "and now?") {
		t.Errorf("the reopened conversation's request:\n%.600s", body)
	}
}

// A summary the model refuses leaves the conversation as before: the
// oldest turns are dropped from the request, the person is told, and the
// loaded tools stay.
func TestCompactionFailureFallsBackToDropping(t *testing.T) {
	db := openLog(t)
	c, _ := compacting(t, db, testutil.ModelResponse{Status: 400, Header: map[string]string{"Content-Type": "application/json"},
		Body: `{"error":{"message":"this request is refused"}}`})
	notice := expect[*conversation.Notice](c)
	if !strings.Contains(notice.Text, "could not be summarised") || !strings.Contains(notice.Text, "refused") {
		t.Errorf("Notice = %q, want why the summary failed", notice.Text)
	}
	fin := expect[*conversation.RunFinished](c)
	if fin.Err != nil || fin.Text != "Done." {
		t.Errorf("RunFinished = %+v, want the answer all the same", fin)
	}
	for _, e := range c.seen {
		switch e.(type) {
		case *conversation.ContextCompacted, *conversation.ToolsUnloaded:
			t.Errorf("%T after a failed summary", e)
		}
	}
	msgs, offered := c.request(4)
	if body := contents(msgs); strings.Contains(body, request.SummaryHeading) || strings.Contains(body, "FIRST PART") || !strings.Contains(body, "SECOND PART") {
		t.Errorf("the request after a failed summary should drop the oldest turns:\n%.400s", body)
	}
	if !slices.Contains(offered, "t__echo") {
		t.Errorf("the request after a failed summary offers %v, want t__echo still", offered)
	}
}
