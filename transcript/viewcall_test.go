package transcript

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"deckhand/store"
)

// summary is the rows in short: a card as "tool call: origin", a header
// or block as its role and text.
func summary(t *Transcript) []string {
	var out []string
	for _, r := range rows(t) {
		switch r.Kind {
		case Tool:
			out = append(out, "card "+r.Call+" "+r.Tool+": "+r.Origin)
		case Header:
			out = append(out, r.Role)
		case Notice:
			out = append(out, "notice "+r.Text)
		default:
			out = append(out, strings.TrimSpace(r.Text))
		}
	}
	return out
}

// A tool's view's call is a card of the chat, marked as the view's, live
// and reopened from the log, at the same place: one that ended while an
// answer streamed goes before the answer (whose rows stay whole), and it
// is none of the run's calls (the log has it with no run, during one or
// not). It was only in the log.
func TestViewCallCard(t *testing.T) {
	const origin = "the view of app.get-time"
	want := []string{
		"user", "what time is it?",
		"card a app.get-time: ",
		"card view-1 app.get-time: " + origin,
		"assistant", "It is noon.",
		"card view-2 app.get-time: " + origin,
	}

	live := New()
	live.StartRun("r1")
	live.User("what time is it?", time.Time{})
	live.ToolRequested("a", "app.get-time", json.RawMessage(`{}`))
	live.ToolStarted("a", "app.get-time", nil)
	live.ToolFinished("a", "app.get-time", nil, "12:00", false, false, time.Millisecond)
	live.Delta("It is ", time.Time{})
	live.ViewCall("view-1", "app.get-time", origin, json.RawMessage(`{}`), "12:00", false, false, false)
	live.Delta("noon.", time.Time{})
	live.Assistant("It is noon.", time.Time{})
	live.Calls()
	live.ViewCall("view-2", "app.get-time", origin, json.RawMessage(`{}`), "12:01", false, false, false)
	if diff := cmp.Diff(want, summary(live)); diff != "" {
		t.Errorf("live rows (-want +got):\n%s", diff)
	}

	t0 := time.UnixMilli(1_700_000_000_000)
	var log []store.Event
	ev := func(run, kind, data string) {
		log = append(log, store.Event{Kind: kind, RunID: run, Data: json.RawMessage(data), Time: t0.Add(time.Duration(len(log)) * time.Millisecond)})
	}
	ev("r1", store.KindRunStarted, `{"text":"what time is it?"}`)
	ev("r1", store.KindAssistantMessage, `{"text":"","tool_calls":[{"id":"a","name":"app__get-time","arguments":"{}"}]}`)
	ev("r1", store.KindToolRequested, `{"call":"a","tool":"app.get-time","arguments":{}}`)
	ev("r1", store.KindToolInvoked, `{"call":"a","tool":"app.get-time","arguments":{}}`)
	ev("r1", store.KindToolSucceeded, `{"call":"a","tool":"app.get-time","output":"12:00"}`)
	ev("", store.KindApprovalAsked, `{"call":"view-1","tool":"app.get-time","arguments":{},"origin":"`+origin+`"}`)
	ev("", store.KindToolSucceeded, `{"call":"view-1","tool":"app.get-time","arguments":{},"output":"12:00","origin":"`+origin+`"}`)
	ev("r1", store.KindAssistantMessage, `{"text":"It is noon."}`)
	ev("r1", store.KindRunSucceeded, `{}`)
	ev("", store.KindToolSucceeded, `{"call":"view-2","tool":"app.get-time","arguments":{},"output":"12:01","origin":"`+origin+`"}`)
	reopened := FromEvents(log)
	if diff := cmp.Diff(want, summary(reopened)); diff != "" {
		t.Errorf("rows reopened from the log (-want +got):\n%s", diff)
	}
	for _, tr := range []*Transcript{live, reopened} {
		for _, r := range rows(tr) {
			if r.Origin != "" && (r.State != Succeeded || r.Run != "" || r.Output == "") {
				t.Errorf("view's card = %+v, want done, with its output, in no run", r)
			}
		}
	}
}
