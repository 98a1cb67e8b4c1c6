package transcript

import (
	"encoding/json"
	"testing"
	"time"

	"deckhand/approval"
	"deckhand/store"
	"deckhand/toolcall"
)

// A call that ends before it starts says why it never ran, in words,
// however it ended; a call that ran says nothing of the kind.
func TestToolNotRun(t *testing.T) {
	tests := []struct {
		name    string
		asked   bool            // an approval was asked about it
		closed  approval.Reason // how that question ended ("": answered)
		started bool
		output  string
		isError bool
		denied  bool
		want    string
	}{
		{name: "stopped while asked", asked: true, closed: "the run was stopped",
			output: toolcall.CancelledText, isError: true, want: "the run was stopped before it was approved"},
		{name: "stopped before it was asked", output: toolcall.CancelledText, isError: true,
			want: "the run was stopped before it started"},
		{name: "denied by the person", asked: true, closed: approval.Answered,
			output: toolcall.DeniedText, denied: true, want: "denied"},
		{name: "timed out", asked: true, closed: approval.TimedOut(2 * time.Minute),
			output: toolcall.DeniedBecause("no answer within 2m0s"), denied: true, want: "no answer came in time (no answer within 2m0s)"},
		{name: "the conversation failed while asked", asked: true, closed: "the conversation failed",
			output: toolcall.CancelledText, isError: true, want: "the conversation failed before it was approved"},
		{name: "refused by the policy", output: PolicyRefused + ": reads /etc/passwd, outside the read roots", isError: true,
			want: "refused by policy"},
		{name: "depth limit", output: toolcall.DepthText, isError: true, want: "the run reached its tool-call depth limit"},
		{name: "unknown tool (its server gone)", output: `unknown tool "gone.echo": no server named "gone"`, isError: true,
			want: "Deckhand refused it (see why below)"},
		{name: "unknown tool", output: `Error: there is no tool named "bad__nope". Call tool_search to find the tool you need, then call it by the name it gives.`, isError: true,
			want: "Deckhand refused it (see why below)"},
		{name: "quarantined tool", output: "Refused (not run): bad.escape is quarantined: its definition has not been reviewed by the person, so it is not offered to you. Do not retry it; tell the person they can review it in Servers ▸ bad ▸ Tools (or with `deckhand mcp review bad.escape`) if it is needed.", isError: true,
			want: "Deckhand refused it: bad.escape is quarantined (its definition has high-risk flags you have not reviewed); review it in Servers ▸ bad ▸ Tools to offer it to the model"},
		{name: "unchecked tool", output: "Refused (not run): fs.write_file is turned off by the person (unchecked in Servers ▸ fs ▸ Tools), so it is not offered to you. Do not retry it; tell the person they can check it there if it is needed.", isError: true,
			want: "Deckhand refused it: fs.write_file is unchecked in Servers ▸ fs ▸ Tools; check it there to offer it to the model"},
		{name: "server turned off", output: "Refused (not run): the server fs is turned off by the person, so none of its tools is offered to you. Do not retry it; tell the person they can turn fs on in Servers if it is needed.", isError: true,
			want: "Deckhand refused it: the server fs is turned off; turn it on in Servers to offer its tools to the model"},
		{name: "tool with a bad name", output: "Refused (not run): the server bad has a tool of that name, but its name breaks the MCP rules for tool names (1 to 128 letters, digits, _, - or .), so it is left out and not offered to you. Do not retry it.", isError: true,
			want: "Deckhand refused it: the server bad's tool of this name is left out, as its name breaks the MCP rules for tool names (Servers ▸ bad says how)"},
		{name: "tool not loaded", output: "Error: local__frob is not loaded: frob.json: frob is not installed", isError: true,
			want: "Deckhand refused it: local.frob is not loaded: frob.json: frob is not installed"},
		{name: "a withheld tool's words in a result it ran with", started: true, output: "Refused (not run): bad.escape is quarantined: its definition has not been reviewed by the person, so it is not offered to you. Do not retry it; tell the person they can review it in Servers ▸ bad ▸ Tools (or with `deckhand mcp review bad.escape`) if it is needed.", isError: true},
		{name: "ran and failed", asked: true, closed: approval.Answered, started: true, output: "boom", isError: true},
		{name: "ran and was stopped", started: true, output: toolcall.CancelledText, isError: true},
		{name: "ran", started: true, output: "ok"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := New()
			tr.StartRun("r1")
			tr.ToolRequested("c1", "s.tool", nil)
			if tt.asked {
				tr.ToolAsked("c1")
				tr.ToolQuestionClosed("c1", tt.closed)
			}
			if tt.started {
				tr.ToolStarted("c1", "s.tool", nil)
			}
			tr.ToolFinished("c1", "s.tool", nil, tt.output, tt.isError, tt.denied, 0)
			r, _ := tr.Card("r1", "c1")
			if r.NotRun != tt.want {
				t.Errorf("NotRun = %q, want %q", r.NotRun, tt.want)
			}
		})
	}
}

// Read back from the log, a call stopped while its approval was asked, a
// denied one, one that timed out and one refused for a quarantined tool
// say they never ran, and why; one that ran does not.
func TestToolNotRunFromEvents(t *testing.T) {
	t0 := time.UnixMilli(1_700_000_000_000)
	denied, _ := json.Marshal(toolcall.DeniedBecause(string(approval.TimedOut(time.Minute))))
	cancelled, _ := json.Marshal(toolcall.CancelledText)
	quarantined, _ := json.Marshal("Refused (not run): s.q is quarantined: its definition has not been reviewed by the person, so it is not offered to you. Do not retry it; tell the person they can review it in Servers ▸ s ▸ Tools (or with `deckhand mcp review s.q`) if it is needed.")
	var events []store.Event
	for i, e := range [][2]string{
		{store.KindRunStarted, `{"text":"q","parent":""}`},
		{store.KindAssistantMessage, `{"text":"","tool_calls":[{"id":"a","name":"s.t"},{"id":"b","name":"s.t"},{"id":"c","name":"s.t"},{"id":"d","name":"s.t"}]}`},
		{store.KindToolRequested, `{"call":"a","tool":"s.t"}`},
		{store.KindToolRequested, `{"call":"b","tool":"s.t"}`},
		{store.KindToolRequested, `{"call":"c","tool":"s.t"}`},
		{store.KindToolRequested, `{"call":"d","tool":"s.t"}`},
		{store.KindToolInvoked, `{"call":"a","tool":"s.t"}`},
		{store.KindToolSucceeded, `{"call":"a","tool":"s.t","output":"ok","elapsed_ms":0}`},
		{store.KindApprovalAsked, `{"call":"b","tool":"s.t"}`},
		{store.KindToolFailed, `{"call":"b","tool":"s.t","output":` + string(denied) + `,"denied":true}`},
		{store.KindApprovalAsked, `{"call":"c","tool":"s.t"}`},
		{store.KindToolFailed, `{"call":"c","tool":"s.t","output":` + string(cancelled) + `,"cancelled":true}`},
		{store.KindToolFailed, `{"call":"d","tool":"s.t","output":` + string(cancelled) + `,"cancelled":true}`},
		{store.KindToolRequested, `{"call":"e","tool":"s.q"}`},
		{store.KindToolFailed, `{"call":"e","tool":"s.q","output":` + string(quarantined) + `,"refused":true}`},
		{store.KindRunStopped, `{}`},
	} {
		events = append(events, store.Event{RunID: "r1", Kind: e[0], Data: json.RawMessage(e[1]), Time: t0.Add(time.Duration(i))})
	}
	tr := FromEvents(events)
	for call, want := range map[string]string{
		"a": "",
		"b": "no answer came in time (no answer within 1m0s)",
		"c": "the run was stopped before it was approved",
		"d": "the run was stopped before it started",
		"e": "Deckhand refused it: s.q is quarantined (its definition has high-risk flags you have not reviewed); review it in Servers ▸ s ▸ Tools to offer it to the model",
	} {
		r, ok := tr.Card("r1", call)
		if !ok {
			t.Fatalf("no card for call %s", call)
		}
		if r.NotRun != want {
			t.Errorf("call %s: NotRun = %q, want %q", call, r.NotRun, want)
		}
	}
}

// A run whose answer broke off with its text kept (the connection to the
// model dropped) offers Continue beside the failure when the chat is read
// back from the log, as the window that saw it break does; a failure with
// no text kept, or after calls, offers Retry.
func TestDroppedAnswerContinuesFromEvents(t *testing.T) {
	t0 := time.UnixMilli(1_700_000_000_000)
	for _, tc := range []struct {
		name   string
		events [][2]string
		want   string
	}{
		{"cut with text", [][2]string{
			{store.KindRunStarted, `{"text":"q","parent":""}`},
			{store.KindAssistantMessage, `{"text":"The first half","incomplete":true}`},
			{store.KindRunFailed, `{"error":"the connection to the model server dropped"}`},
		}, ActionContinue},
		{"cut with nothing", [][2]string{
			{store.KindRunStarted, `{"text":"q","parent":""}`},
			{store.KindAssistantMessage, `{"text":"","incomplete":true}`},
			{store.KindRunFailed, `{"error":"the connection to the model server dropped"}`},
		}, ActionRetry},
		{"whole answer, then a failure", [][2]string{
			{store.KindRunStarted, `{"text":"q","parent":""}`},
			{store.KindAssistantMessage, `{"text":"All of it."}`},
			{store.KindRunFailed, `{"error":"something else"}`},
		}, ActionRetry},
		{"no answer", [][2]string{
			{store.KindRunStarted, `{"text":"q","parent":""}`},
			{store.KindRunFailed, `{"error":"401"}`},
		}, ActionRetry},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var events []store.Event
			for i, e := range tc.events {
				events = append(events, store.Event{RunID: "r1", Kind: e[0], Data: json.RawMessage(e[1]), Time: t0.Add(time.Duration(i))})
			}
			tr := FromEvents(events)
			var got string
			for i := range tr.Len() {
				if r := tr.Row(i); r.Kind == Notice && r.Error {
					got = r.Action
				}
			}
			if got != tc.want {
				t.Errorf("the failure offers %q, want %q", got, tc.want)
			}
		})
	}
}
