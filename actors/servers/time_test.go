package servers_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/actors/servers"
	"deckhand/actors/servers/serverstest"
	"deckhand/config"
)

// sleeper is an in-process server with one tool, sleep, that answers
// after ms milliseconds (or when its call is cancelled).
func sleeper() *sdk.Server {
	srv := sdk.NewServer(&sdk.Implementation{Name: "sleeper", Version: "1"}, nil)
	sdk.AddTool(srv, &sdk.Tool{Name: "sleep"}, func(ctx context.Context, _ *sdk.CallToolRequest, in struct {
		MS int `json:"ms"`
	}) (*sdk.CallToolResult, any, error) {
		select {
		case <-time.After(time.Duration(in.MS) * time.Millisecond):
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "slept"}}}, nil, nil
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		}
	})
	return srv
}

// A call ends at its timeout, to the nanosecond: the call's own, else its
// server's, else every server's; one that answers in time is not cut.
func TestCallTimeout(t *testing.T) {
	tests := []struct {
		name          string
		toolTimeout   time.Duration // config.MCP.ToolTimeout
		serverTimeout time.Duration // config.Server.Timeout
		callTimeout   time.Duration // CallTool.Timeout
		sleep         time.Duration
		wantErr       string // "" for a result
		wantElapsed   time.Duration
	}{
		{name: "server's", serverTimeout: 100 * time.Millisecond, sleep: time.Hour,
			wantErr: "s.sleep timed out after 100ms (mcp.servers.s.timeout gives a call more time)", wantElapsed: 100 * time.Millisecond},
		{name: "every server's", toolTimeout: 300 * time.Millisecond, sleep: time.Hour,
			wantErr: "s.sleep timed out after 300ms (mcp.tool_timeout gives a call more time)", wantElapsed: 300 * time.Millisecond},
		{name: "call's own over the server's", serverTimeout: time.Minute, callTimeout: 2 * time.Second, sleep: time.Hour,
			wantErr: "s.sleep timed out after 2s", wantElapsed: 2 * time.Second},
		{name: "default", sleep: time.Hour,
			wantErr: fmt.Sprintf("s.sleep timed out after %v (mcp.tool_timeout gives a call more time)", config.DefaultToolTimeout), wantElapsed: config.DefaultToolTimeout},
		{name: "answered in time", serverTimeout: 100 * time.Millisecond, sleep: 99 * time.Millisecond,
			wantElapsed: 99 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := serverstest.Start(t, servers.Options{
					MCP:       config.MCP{ToolTimeout: tt.toolTimeout},
					Servers:   map[string]config.Server{"s": {Timeout: tt.serverTimeout}},
					InProcess: map[string]func() (*sdk.Server, error){"s": serverstest.InProcess(sleeper())},
				})
				s.Await(t, "s", servers.StateReady)
				res := s.Call(t.Context(), &servers.CallTool{ID: "c1", Tool: "s.sleep", Timeout: tt.callTimeout,
					Args: fmt.Appendf(nil, `{"ms": %d}`, tt.sleep.Milliseconds())})
				gotErr := ""
				if res.Err != nil {
					gotErr = res.Err.Error()
				}
				if gotErr != tt.wantErr {
					t.Errorf("the call's error = %q, want %q", gotErr, tt.wantErr)
				}
				if res.Elapsed != tt.wantElapsed {
					t.Errorf("the call took %v, want %v", res.Elapsed, tt.wantElapsed)
				}
			})
		})
	}
}

// A server that cannot connect is tried again after a delay drawn from
// [0, backoff], the backoff doubling from Initial up to Max; the attempt
// comes when its status said it would, and a connection resets the count.
func TestReconnectBackoff(t *testing.T) {
	tests := []struct {
		name     string
		backoff  config.Backoff
		failures int
		// wantCeilings are the backoffs after each failure.
		wantCeilings []time.Duration
	}{
		{name: "doubling to the cap", backoff: config.Backoff{Initial: time.Second, Max: 4 * time.Second}, failures: 6,
			wantCeilings: []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 4 * time.Second, 4 * time.Second, 4 * time.Second}},
		{name: "flat", backoff: config.Backoff{Initial: 3 * time.Second, Max: 3 * time.Second}, failures: 3,
			wantCeilings: []time.Duration{3 * time.Second, 3 * time.Second, 3 * time.Second}},
		{name: "once", backoff: config.Backoff{Initial: 500 * time.Millisecond, Max: time.Minute}, failures: 1,
			wantCeilings: []time.Duration{500 * time.Millisecond}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var builds atomic.Int32
				srv := sleeper()
				build := func() (*sdk.Server, error) {
					if n := builds.Add(1); int(n) <= tt.failures {
						return nil, fmt.Errorf("failure %d", n)
					}
					return srv, nil
				}
				s := serverstest.Start(t, servers.Options{
					MCP:       config.MCP{Reconnect: tt.backoff},
					Servers:   map[string]config.Server{"s": {}},
					InProcess: map[string]func() (*sdk.Server, error){"s": build},
				})
				var attempts []int
				var ceilings []time.Duration
				var due time.Time
				for i := range tt.failures {
					st := serverstest.ExpectStatus(t, s.Events, "s", servers.StateFailed)
					if i > 0 && !time.Now().Equal(due) {
						t.Errorf("attempt %d came at %v, its status said %v", i+1, time.Now(), due)
					}
					delay := time.Until(st.NextRetry)
					ceiling := servers.Backoff(tt.backoff, st.Attempts)
					if delay < 0 || delay > ceiling {
						t.Errorf("after failure %d the next attempt is in %v, want within [0, %v]", st.Attempts, delay, ceiling)
					}
					attempts = append(attempts, st.Attempts)
					ceilings = append(ceilings, ceiling)
					due = st.NextRetry
				}
				st := s.Await(t, "s", servers.StateReady)
				if !time.Now().Equal(due) {
					t.Errorf("the connecting attempt came at %v, its status said %v", time.Now(), due)
				}
				if st.Attempts != 0 || !st.NextRetry.IsZero() {
					t.Errorf("ready with attempts %d, next retry %v; want 0 and none", st.Attempts, st.NextRetry)
				}
				var wantAttempts []int
				for i := range tt.wantCeilings {
					wantAttempts = append(wantAttempts, i+1)
				}
				if diff := cmp.Diff(wantAttempts, attempts); diff != "" {
					t.Errorf("attempts counted (-want +got):\n%s", diff)
				}
				if diff := cmp.Diff(tt.wantCeilings, ceilings); diff != "" {
					t.Errorf("backoffs (-want +got):\n%s", diff)
				}
			})
		})
	}
}

// A flood of tools/list_changed costs at most one listing per
// RelistPause (four a second), and the last change is listed all the
// same; announcements slower than that are each listed.
func TestListChangedRateLimit(t *testing.T) {
	tests := []struct {
		name    string
		every   time.Duration // between two changes of the tools
		flood   time.Duration // how long the changes go on
		limited bool          // faster than one per RelistPause
	}{
		// 100 announcements (the SDK folds changes within 10ms into one).
		{name: "flood", every: 20 * time.Millisecond, flood: 2 * time.Second, limited: true},
		{name: "ten a second", every: 100 * time.Millisecond, flood: 2 * time.Second, limited: true},
		{name: "slower than the limit", every: time.Second, flood: 3 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				srv := sleeper()
				var lists atomic.Int32
				srv.AddReceivingMiddleware(func(next sdk.MethodHandler) sdk.MethodHandler {
					return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
						if method == "tools/list" {
							lists.Add(1)
						}
						return next(ctx, method, req)
					}
				})
				s := serverstest.Start(t, servers.Options{
					Servers:   map[string]config.Server{"s": {}},
					InProcess: map[string]func() (*sdk.Server, error){"s": serverstest.InProcess(srv)},
				})
				s.Await(t, "s", servers.StateReady)
				n := int(tt.flood / tt.every)
				for i := range n {
					time.Sleep(tt.every) // the bubble's clock: no real wait
					srv.AddTool(&sdk.Tool{Name: fmt.Sprintf("t%d", i), InputSchema: map[string]any{"type": "object"}},
						func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) { return nil, nil })
				}
				// Whatever listing is still due comes within two pauses.
				time.Sleep(2 * servers.RelistPause)
				synctest.Wait()
				// The connection's own listing, then one per change, or when
				// limited one per pause over the flood and the last change's.
				lo, hi := 1+n, 1+n
				if tt.limited {
					hi = 2 + int(tt.flood/servers.RelistPause)
					lo = hi - 1
				}
				if got := int(lists.Load()); got < lo || got > hi {
					t.Errorf("%d changes over %v were listed %d times, want %d to %d", n, tt.flood, got, lo, hi)
				}
				last := fmt.Sprintf("s.t%d", n-1)
				if _, ok := s.Router.Catalog().Lookup(last); !ok {
					t.Errorf("%s, the last tool added, is not in the catalog", last)
				}
			})
		})
	}
}

// A connection that ends fails the calls in flight on it, with why, and
// the server connects again: after a delay within the first backoff when
// it was lost, at once when the person asked.
func TestConnectionEnds(t *testing.T) {
	initial := 2 * time.Second
	tests := []struct {
		name         string
		end          func(s *serverstest.System, srv *sdk.Server)
		wantErr      string // the call in flight's, a prefix
		wantReason   string // the reconnecting status's, a prefix
		wantAttempts int
		wantAtOnce   bool // ready again with no delay
	}{
		{name: "lost", end: func(_ *serverstest.System, srv *sdk.Server) {
			for ss := range srv.Sessions() {
				ss.Close()
			}
		}, wantErr: "server s disconnected: ", wantAttempts: 1},
		{name: "reconnect asked", end: func(s *serverstest.System, _ *sdk.Server) {
			s.AS.Root.Send(s.Servers, &servers.ReconnectServer{Alias: "s"})
		}, wantErr: "server s is reconnecting on request", wantReason: "reconnecting on request", wantAtOnce: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				srv := sleeper()
				s := serverstest.Start(t, servers.Options{
					MCP:       config.MCP{Reconnect: config.Backoff{Initial: initial, Max: time.Minute}},
					Servers:   map[string]config.Server{"s": {}},
					InProcess: map[string]func() (*sdk.Server, error){"s": serverstest.InProcess(srv)},
				})
				s.Await(t, "s", servers.StateReady)
				results := make(chan *servers.ToolResult, 1)
				go func() {
					results <- s.Call(t.Context(), &servers.CallTool{ID: "c1", Tool: "s.sleep", Args: []byte(`{"ms": 3600000}`)})
				}()
				synctest.Wait() // the call is in flight
				tt.end(s, srv)
				res := <-results
				if res.Err == nil || !strings.HasPrefix(res.Err.Error(), tt.wantErr) {
					t.Errorf("the call in flight ended with %v, want an error beginning %q", res.Err, tt.wantErr)
				}
				st := serverstest.ExpectStatus(t, s.Events, "s", servers.StateReconnecting)
				if !strings.HasPrefix(st.Reason, tt.wantReason) || st.Attempts != tt.wantAttempts {
					t.Errorf("reconnecting because %q after %d attempts, want %q after %d", st.Reason, st.Attempts, tt.wantReason, tt.wantAttempts)
				}
				lost := time.Now()
				if delay := st.NextRetry.Sub(lost); !tt.wantAtOnce && (delay < 0 || delay > initial) {
					t.Errorf("the next attempt is in %v, want within [0, %v]", delay, initial)
				}
				ready := s.Await(t, "s", servers.StateReady)
				switch took := time.Since(lost); {
				case tt.wantAtOnce && took != 0:
					t.Errorf("ready again after %v, want at once", took)
				case !tt.wantAtOnce && !time.Now().Equal(st.NextRetry):
					t.Errorf("ready again after %v, want at the retry its status gave (%v)", took, st.NextRetry.Sub(lost))
				}
				if ready.Attempts != 0 {
					t.Errorf("ready with %d attempts, want 0", ready.Attempts)
				}
				if res := s.Call(t.Context(), &servers.CallTool{ID: "c2", Tool: "s.sleep", Args: []byte(`{"ms": 1}`)}); res.Err != nil {
					t.Errorf("a call once connected again: %v", res.Err)
				}
			})
		})
	}
}

// asker is an in-process server with one tool, ask, that asks the person
// which topic (elicitation, as an input request of the newest protocol:
// the client asks, then calls again with the answer), then works then_ms
// milliseconds (or until its call is cancelled) and answers with what the
// person did and said.
func asker() *sdk.Server {
	srv := sdk.NewServer(&sdk.Implementation{Name: "asker", Version: "1"}, nil)
	srv.AddTool(&sdk.Tool{Name: "ask", InputSchema: map[string]any{"type": "object"}}, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		answer, ok := req.Params.InputResponses["q"].(*sdk.ElicitResult)
		if !ok {
			return &sdk.CallToolResult{InputRequests: sdk.InputRequestMap{"q": &sdk.ElicitParams{Message: "Which topic?",
				RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{"topic": map[string]any{"type": "string"}}}}}}, nil
		}
		var in struct {
			ThenMS int `json:"then_ms"`
		}
		if err := json.Unmarshal(req.Params.Arguments, &in); err != nil {
			return nil, err
		}
		select {
		case <-time.After(time.Duration(in.ThenMS) * time.Millisecond):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: fmt.Sprintf("%s %v", answer.Action, answer.Content["topic"])}}}, nil
	})
	return srv
}

// A call's clock stops while the question its server asked during it
// waits for the person: answered after the call's timeout, the call goes
// on; the server's own time still counts (before and after), and the
// error says the wait was not counted and which setting gives more time;
// a question never answered ends by approval_timeout's decline, not by
// the call's timeout.
func TestQuestionStopsTheCallsClock(t *testing.T) {
	tests := []struct {
		name          string
		serverTimeout time.Duration // config.Server.Timeout
		answerAfter   time.Duration // 0: never
		then          time.Duration // the tool's work after the answer
		wantText      string        // the result's, when it has one
		wantErr       string
		wantElapsed   time.Duration
	}{
		{name: "answered after the call's timeout", answerAfter: 3 * time.Second, then: time.Second,
			wantText: "accept go", wantElapsed: 4 * time.Second},
		{name: "the server's time still counts", answerAfter: 3 * time.Second, then: time.Hour,
			wantErr:     "s.ask timed out after 2s, not counting the 3s it waited for your answer (mcp.tool_timeout gives a call more time)",
			wantElapsed: 5 * time.Second},
		{name: "the server's own timeout", serverTimeout: time.Second, answerAfter: 3 * time.Second, then: time.Hour,
			wantErr:     "s.ask timed out after 1s, not counting the 3s it waited for your answer (mcp.servers.s.timeout gives a call more time)",
			wantElapsed: 4 * time.Second},
		{name: "never answered", wantText: "decline <nil>", wantElapsed: 10 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := serverstest.Start(t, servers.Options{
					MCP:       config.MCP{ToolTimeout: 2 * time.Second, ApprovalTimeout: 10 * time.Second},
					Servers:   map[string]config.Server{"s": {Timeout: tt.serverTimeout}},
					InProcess: map[string]func() (*sdk.Server, error){"s": serverstest.InProcess(asker())},
				})
				s.Await(t, "s", servers.StateReady)
				results := make(chan *servers.ToolResult, 1)
				go func() {
					results <- s.Call(t.Context(), &servers.CallTool{ID: "c1", Tool: "s.ask",
						Args: fmt.Appendf(nil, `{"then_ms": %d}`, tt.then.Milliseconds())})
				}()
				q := serverstest.Expect[*servers.ElicitationRequested](t, s.Events)
				if tt.answerAfter > 0 {
					time.Sleep(tt.answerAfter) // the bubble's clock
					s.AS.Root.Send(s.Servers, &servers.ElicitationAnswer{ID: q.ID, Action: servers.ElicitAccept, Content: map[string]any{"topic": "go"}})
				}
				res := <-results
				gotErr, gotText := "", ""
				if res.Err != nil {
					gotErr = res.Err.Error()
				}
				if res.Result != nil && len(res.Result.Content) == 1 {
					if tc, ok := res.Result.Content[0].(*sdk.TextContent); ok {
						gotText = tc.Text
					}
				}
				if gotErr != tt.wantErr || gotText != tt.wantText {
					t.Errorf("the call ended with %q, error %q; want %q, error %q", gotText, gotErr, tt.wantText, tt.wantErr)
				}
				if res.Elapsed != tt.wantElapsed {
					t.Errorf("the call took %v, want %v", res.Elapsed, tt.wantElapsed)
				}
			})
		})
	}
}
