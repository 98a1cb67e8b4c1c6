package actors

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/asynkron/protoactor-go/actor"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/actors/conversation"
	"deckhand/approval"
	"deckhand/request"
	"deckhand/store"
	"deckhand/testutil"
)

// bigCatalog serves the search benchmark's catalog (500 tools over 31
// servers) from in-process servers.
func bigCatalog(t testing.TB) map[string]*sdk.Server {
	return testutil.CatalogServers(t, filepath.Join(testutil.ModuleRoot(t), "tools", "testdata", "catalog"))
}

// waitForCatalog waits until every tool of the in-process servers is in the
// catalog, so the conversation plans its surface over all of them.
func (c *chat) waitForCatalog(n int) {
	c.t.Helper()
	testutil.Eventually(c.t, wait, func() bool {
		cat, _ := c.sys.Catalog(context.Background())
		return cat != nil && cat.Len() >= n
	}, "a catalog of %d tools", n)
}

func TestToolSearchLoadsWhatItFinds(t *testing.T) {
	servers := bigCatalog(t)
	model := testutil.NewModelServer(t,
		calls(testutil.ToolCallSpec{ID: "s1", Name: "tool_search", Arguments: `{"query": "create a calendar event"}`}),
		calls(testutil.ToolCallSpec{ID: "c1", Name: "gcal__create_event", Arguments: `{"summary": "Lunch", "start": "2026-11-22T12:00:00Z", "end": "2026-11-22T13:00:00Z"}`}),
		answer("Booked."),
	)
	c := startChat(t, model, servers, autoApprove("gcal.*"))
	c.waitForCatalog(500)
	c.send("book lunch tomorrow at noon")
	loaded := expect[*conversation.ToolsLoaded](c)
	if loaded.By != "tool_search" || !slices.Contains(loaded.Tools, "gcal.create_event") {
		t.Errorf("ToolsLoaded = %+v", loaded)
	}
	search := expect[*conversation.ToolCallFinished](c)
	if search.Tool != "local.tool_search" || search.IsError || search.Refused || !strings.Contains(search.Output, "gcal__create_event (gcal.create_event)") {
		t.Errorf("tool_search finished: %+v", search)
	}
	// Beside the text, the lazy tool surface's structured answer.
	var structured struct {
		LoadedBefore []string `json:"loadedBefore"`
		LoadedAfter  []string `json:"loadedAfter"`
		Matches      []struct {
			CanonicalName, Status string
		} `json:"matches"`
	}
	if err := json.Unmarshal(search.Structured, &structured); err != nil || len(structured.LoadedBefore) != 0 ||
		!slices.Contains(structured.LoadedAfter, "gcal.create_event") ||
		!slices.ContainsFunc(structured.Matches, func(m struct{ CanonicalName, Status string }) bool {
			return m.CanonicalName == "gcal.create_event" && m.Status == "available_lazy"
		}) {
		t.Errorf("tool_search's structured answer: %v %s", err, search.Structured)
	}
	call := expect[*conversation.ToolCallFinished](c)
	if call.Tool != "gcal.create_event" || call.IsError || !strings.Contains(call.Output, "gcal.create_event called with") {
		t.Errorf("the found tool's call: %+v", call)
	}
	if fin := expect[*conversation.RunFinished](c); fin.Err != nil || fin.Text != "Booked." {
		t.Errorf("RunFinished = %+v", fin)
	}

	msgs, first := c.request(0)
	if !slices.Equal(first, []string{"tool_search"}) {
		t.Errorf("the first request offers %v, want only tool_search", first)
	}
	if sys := msgs[0]["content"].(string); !strings.Contains(sys, "tool_search") || !strings.Contains(sys, "- gcal (14 tools):") {
		t.Errorf("the system prompt lacks the lazy index:\n%s", sys)
	}
	if _, second := c.request(1); !slices.Contains(second, "gcal__create_event") || !slices.Contains(second, "tool_search") {
		t.Errorf("the request after the search offers %v, want gcal__create_event too", second)
	}
	// Eager, the same catalog's tools field would be 10 times the size at
	// least.
	var body struct {
		Tools json.RawMessage `json:"tools"`
	}
	json.Unmarshal(model.Requests()[0], &body)
	cat, _ := c.sys.Catalog(t.Context())
	eager, _ := json.Marshal(request.ToolList(cat))
	if len(body.Tools)*10 > len(eager) {
		t.Errorf("lazy tools field %d bytes, eager %d: want at least 90%% smaller", len(body.Tools), len(eager))
	}
}

func TestLazyToolCalledByNameIsLoadedAndGated(t *testing.T) {
	servers := bigCatalog(t)
	model := testutil.NewModelServer(t,
		calls(testutil.ToolCallSpec{ID: "c1", Name: "weather__get_current_weather", Arguments: `{"city": "Lisbon"}`},
			testutil.ToolCallSpec{ID: "c2", Name: "weather__get_moon_phase", Arguments: `{}`}),
		answer("Sunny, 21°C."),
	)
	c := startChat(t, model, servers)
	c.waitForCatalog(500)
	c.send("weather in Lisbon?")
	loaded := expect[*conversation.ToolsLoaded](c)
	if loaded.By != "called" || !slices.Equal(loaded.Tools, []string{"weather.get_current_weather"}) {
		t.Errorf("ToolsLoaded = %+v", loaded)
	}
	// Lazy or not, the gate asks.
	req := expect[*conversation.ApprovalRequested](c)
	if req.Request.Display != "weather.get_current_weather" {
		t.Errorf("asked about %s", req.Request.Display)
	}
	c.answer(req, approval.AllowOnce)
	expect[*conversation.RunFinished](c)
	var unknown, ran *conversation.ToolCallFinished
	for _, e := range c.seen {
		if f, ok := e.(*conversation.ToolCallFinished); ok && f.Call == "c1" {
			ran = f
		} else if ok && f.Call == "c2" {
			unknown = f
		}
	}
	if ran == nil || unknown == nil {
		t.Fatalf("finished calls: %v, %v; seen %s", ran, unknown, describe(c.seen))
	}
	if ran.IsError || !strings.Contains(ran.Output, "called with") {
		t.Errorf("the lazy tool's call: %+v", ran)
	}
	if !unknown.Refused || !strings.Contains(unknown.Output, "Call tool_search") {
		t.Errorf("an unknown tool's call: %+v", unknown)
	}
	if _, second := c.request(1); !slices.Contains(second, "weather__get_current_weather") {
		t.Errorf("the next request offers %v, want the called tool's schema", second)
	}
}

func TestResumeRestoresLoadedTools(t *testing.T) {
	servers := bigCatalog(t)
	db, err := store.Open(t.Context(), filepath.Join(t.TempDir(), "deckhand.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	model := testutil.NewModelServer(t,
		calls(testutil.ToolCallSpec{ID: "s1", Name: "tool_search", Arguments: `{"query": "kubernetes pod logs", "limit": 1}`}),
		answer("Found it."),
		answer("Still here."),
	)
	c := startChatWith(t, func(o *Options) { o.Log = db }, model, servers)
	c.waitForCatalog(500)
	c.send("find the tool for pod logs")
	opened := expect[*conversation.ConversationOpened](c)
	expect[*conversation.RunFinished](c)
	if err := c.sys.SyncLog(t.Context()); err != nil {
		t.Fatal(err)
	}
	events, err := db.Events(t.Context(), store.Filter{SessionID: opened.Conversation})
	if err != nil {
		t.Fatal(err)
	}
	opts := conversation.Rebuild(events)
	if !slices.Equal(opts.Loaded, []string{"k8s.pod_logs"}) {
		t.Fatalf("Rebuild().Loaded = %v, want k8s.pod_logs", opts.Loaded)
	}
	opts.ID, opts.Watchers = opened.Conversation, []*actor.PID{c.watcher}
	ctx, cancel := context.WithTimeout(t.Context(), wait)
	defer cancel()
	c.sys.Root.StopFuture(c.conv).Wait()
	// The supervisor hears of the stop in its own time.
	testutil.Eventually(t, wait, func() bool {
		conv, _, err := c.sys.StartConversation(ctx, opts)
		c.conv = conv
		return err == nil
	}, "the conversation reopened")
	c.send("and now?")
	expect[*conversation.RunFinished](c)
	if _, resumed := c.request(2); !slices.Contains(resumed, "k8s__pod_logs") {
		t.Errorf("the resumed conversation offers %v, want k8s__pod_logs", resumed)
	}
}
