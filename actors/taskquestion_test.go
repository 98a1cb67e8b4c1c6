package actors

import (
	"net/http/httptest"
	"testing"

	"github.com/google/go-cmp/cmp"

	"deckhand/actors/conversation"
	"deckhand/actors/servers"
	"deckhand/config"
	"deckhand/testutil"
	"deckhand/testutil/taskpeer"
)

// A 2026-07-28 task created already asking a question (input_required,
// its inputRequests in tools/call's answer), from a real server over
// stdio and over streamable HTTP: the question reaches the person once,
// as any server's question during that call (ElicitationRequested with the
// call, under the same caps), the answer reaches the task (its report is
// the call's result), and the server makes one task of the call.
func TestTaskBornAskingAsksOnce(t *testing.T) {
	for _, transport := range []string{config.TransportStdio, config.TransportStreamable} {
		t.Run(transport, func(t *testing.T) {
			var peer *taskpeer.Peer
			srv := testutil.StdioServer(t, "-tasks", taskpeer.V2Born)
			if transport == config.TransportStreamable {
				peer = &taskpeer.Peer{Mode: taskpeer.V2Born}
				hs := httptest.NewServer(peer.Handler())
				t.Cleanup(func() {
					hs.CloseClientConnections()
					hs.Close()
				})
				srv = config.Server{URL: hs.URL + "/mcp", Transport: config.TransportStreamable}
			}
			model := testutil.NewModelServer(t,
				calls(testutil.ToolCallSpec{ID: "r1", Name: "s__research", Arguments: `{"topic":"go"}`}),
				answer("done"))
			c := startChat(t, model, nil, autoApprove("s.*"), func(cfg *config.Config) {
				cfg.MCP.Servers = map[string]config.Server{"s": srv}
			})
			testutil.Eventually(t, wait, func() bool {
				cat, _ := c.sys.Catalog(t.Context())
				return cat.Len() > 0
			}, "the server's tools")
			questions := make(chan *servers.ElicitationRequested, 16)
			person := c.sys.Root.Spawn(propsFunc(func(m any) {
				if r, ok := m.(*servers.ElicitationRequested); ok {
					questions <- r
					c.sys.Root.Send(c.sys.Servers, &servers.ElicitationAnswer{ID: r.ID, Action: servers.ElicitAccept, Content: map[string]any{"topic": "rust"}})
				}
			}))
			c.sys.Root.Send(c.sys.Servers, &servers.WatchServers{PID: person})
			c.send("research go")
			fin := expect[*conversation.ToolCallFinished](c)
			if fin.Call != "r1" || fin.Output != "report on rust" || fin.IsError {
				t.Errorf("the call ended with %+v, want r1's result %q", fin, "report on rust")
			}
			expect[*conversation.RunFinished](c)
			var asked []string
			for len(questions) > 0 {
				r := <-questions
				asked = append(asked, r.Server+" "+r.Call+" "+r.Message)
			}
			if diff := cmp.Diff([]string{"s r1 Which topic?"}, asked); diff != "" {
				t.Errorf("questions asked (-want +got):\n%s", diff)
			}
			var tasks []string
			for _, m := range c.seen {
				if p, ok := m.(*conversation.ToolCallProgress); ok && p.Progress.Task != "" {
					tasks = append(tasks, p.Progress.Task+" "+p.Progress.Status)
				}
			}
			if diff := cmp.Diff([]string{"task-1 input_required", "task-1 completed"}, tasks); diff != "" {
				t.Errorf("the call's tasks (-want +got):\n%s", diff)
			}
			if peer != nil && peer.Tasks() != 1 {
				t.Errorf("the server created %d tasks, want 1", peer.Tasks())
			}
		})
	}
}
