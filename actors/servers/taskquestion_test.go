package servers_test

import (
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/actors/servers"
	"deckhand/actors/servers/serverstest"
	"deckhand/config"
	"deckhand/testutil"
	"deckhand/testutil/taskpeer"
	"deckhand/transport/mcp"
)

// A task's question (tasks/result's elicitation, input_required) stops its
// call's clock as any call's question does: a real server over stdio whose
// task asks at once; answered after the call's timeout, the call ends with
// the task's result; never answered, it ends by approval_timeout's decline
// (the task's report on it), not by the call's timeout. Real time: the
// server is a process, outside any synctest bubble.
func TestTaskQuestionStopsTheCallsClock(t *testing.T) {
	const timeout = 3 * time.Second
	tests := []struct {
		name        string
		answerAfter time.Duration // 0: never
		want        string
	}{
		{name: "answered after the call's timeout", answerAfter: timeout + time.Second, want: "report on go"},
		{name: "never answered", want: "report on decline"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := testutil.StdioServer(t, "-tasks", taskpeer.Input, "-tasks-polls", "-1")
			s := serverstest.Start(t, servers.Options{
				MCP:     config.MCP{ToolTimeout: timeout, ApprovalTimeout: timeout + 2*time.Second},
				Servers: map[string]config.Server{"s": srv},
			})
			s.Await(t, "s", servers.StateReady)
			results := make(chan *servers.ToolResult, 1)
			go func() {
				results <- s.Call(t.Context(), &servers.CallTool{ID: "c1", Tool: "s.research", Args: []byte(`{"topic":"python"}`)})
			}()
			q := serverstest.Expect[*servers.ElicitationRequested](t, s.Events)
			if tt.answerAfter > 0 {
				time.Sleep(tt.answerAfter) // past the call's timeout: not a wait for an event
				s.AS.Root.Send(s.Servers, &servers.ElicitationAnswer{ID: q.ID, Action: servers.ElicitAccept, Content: map[string]any{"topic": "go"}})
			}
			var res *servers.ToolResult
			select {
			case res = <-results:
			case <-time.After(time.Minute):
				t.Fatal("the call did not end")
			}
			got := ""
			if res.Result != nil && len(res.Result.Content) == 1 {
				if tc, ok := res.Result.Content[0].(*sdk.TextContent); ok {
					got = tc.Text
				}
			}
			if res.Err != nil || got != tt.want {
				t.Errorf("the call ended with %q, error %v; want %q", got, res.Err, tt.want)
			}
		})
	}
}

// The same with server-everything's simulate-research-query {ambiguous:
// true}, the new-user pass's case: a task that works a few seconds, then
// asks (input_required, tasks/result's elicitation) and waits. Answered
// after the call's timeout, the call ends with the report.
func TestEverythingTaskQuestionStopsTheCallsClock(t *testing.T) {
	p := testutil.RequirePeers(t)
	const timeout = 8 * time.Second // the task works about 5 s before it asks
	s := serverstest.Start(t, servers.Options{
		MCP:     config.MCP{ToolTimeout: timeout},
		Servers: map[string]config.Server{"ev": {Command: p.Node, Args: []string{p.Everything, "stdio"}}},
	})
	s.Await(t, "ev", servers.StateReady)
	results := make(chan *servers.ToolResult, 1)
	go func() {
		results <- s.Call(t.Context(), &servers.CallTool{ID: "c1", Tool: "ev.simulate-research-query", Args: []byte(`{"topic":"python","ambiguous":true}`)})
	}()
	q := serverstest.Expect[*servers.ElicitationRequested](t, s.Events)
	answer := map[string]any{}
	for _, f := range q.Form.Fields {
		switch {
		case len(f.Options) > 0:
			answer[f.Name] = f.Options[0]
		case f.Kind == mcp.FieldBoolean:
			answer[f.Name] = true
		case f.Kind == mcp.FieldNumber || f.Kind == mcp.FieldInteger:
			answer[f.Name] = 1
		default:
			answer[f.Name] = "the language"
		}
	}
	time.Sleep(timeout) // past the call's timeout: not a wait for an event
	s.AS.Root.Send(s.Servers, &servers.ElicitationAnswer{ID: q.ID, Action: servers.ElicitAccept, Content: answer})
	var res *servers.ToolResult
	select {
	case res = <-results:
	case <-time.After(time.Minute):
		t.Fatal("the call did not end")
	}
	if res.Err != nil || res.Result == nil || res.Result.IsError {
		t.Fatalf("the call ended with %+v, error %v; want the report", res.Result, res.Err)
	}
}

// Two tasks of one server in flight, each asking its question (which names
// its task, related-task): each question stops its own call's clock, though
// the server has more than one call in flight. The questions come one at a
// time; the first is answered after the calls' timeout, the second as soon
// as it shows: both calls end with their task's report.
func TestTwoTasksQuestionsStopTheirClocks(t *testing.T) {
	const timeout = 3 * time.Second
	s := serverstest.Start(t, servers.Options{
		MCP:     config.MCP{ToolTimeout: timeout},
		Servers: map[string]config.Server{"s": testutil.StdioServer(t, "-tasks", taskpeer.Input, "-tasks-polls", "-1")},
	})
	s.Await(t, "s", servers.StateReady)
	results := make(chan *servers.ToolResult, 2)
	for _, id := range []string{"c1", "c2"} {
		go func() {
			results <- s.Call(t.Context(), &servers.CallTool{ID: id, Tool: "s.research", Args: []byte(`{"topic":"python"}`)})
		}()
	}
	for i, topic := range []string{"go", "rust"} {
		q := serverstest.Expect[*servers.ElicitationRequested](t, s.Events)
		if i == 0 {
			time.Sleep(timeout + time.Second) // past the calls' timeout: not a wait for an event
		}
		s.AS.Root.Send(s.Servers, &servers.ElicitationAnswer{ID: q.ID, Action: servers.ElicitAccept, Content: map[string]any{"topic": topic}})
	}
	got := map[string]string{}
	for range 2 {
		var res *servers.ToolResult
		select {
		case res = <-results:
		case <-time.After(time.Minute):
			t.Fatal("a call did not end")
		}
		text := ""
		if res.Err != nil {
			text = res.Err.Error()
		} else if res.Result != nil && len(res.Result.Content) == 1 {
			if tc, ok := res.Result.Content[0].(*sdk.TextContent); ok {
				text = tc.Text
			}
		}
		got[res.ID] = text
	}
	if reports := []string{got["c1"], got["c2"]}; !(reports[0] == "report on go" && reports[1] == "report on rust" || reports[0] == "report on rust" && reports[1] == "report on go") {
		t.Errorf("the calls ended with %q; want the reports on go and on rust", got)
	}
}
