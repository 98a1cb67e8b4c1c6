package transcript

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"deckhand/store"
)

// shown is the transcript's messages: who, the text, and ‹ n/m ›.
func shown(t *Transcript) string {
	var out []string
	for i := range t.Len() {
		r := t.Row(i)
		if r.Kind != Header {
			continue
		}
		s := r.Role + ":" + r.Text
		if r.Versions > 0 {
			s += " " + string(rune('0'+r.Version)) + "/" + string(rune('0'+r.Versions))
		}
		out = append(out, s)
	}
	return strings.Join(out, " | ")
}

// A chat reopened from its log shows the version chosen, and ‹ › (Show)
// bring the other version's rows, which it read aside, and back.
func TestVersionsFromEvents(t *testing.T) {
	var events []store.Event
	t0 := time.UnixMilli(1_700_000_000_000)
	for i, e := range [][3]string{
		{"r1", store.KindRunStarted, `{"text":"q1","parent":""}`},
		{"r1", store.KindAssistantMessage, `{"text":"a1"}`},
		{"r2", store.KindRunStarted, `{"text":"q2","parent":"r1"}`},
		{"r2", store.KindAssistantMessage, `{"text":"a2"}`},
		{"r3", store.KindRunStarted, `{"text":"q3","parent":"r2"}`},
		{"r3", store.KindAssistantMessage, `{"text":"a3"}`},
		{"r4", store.KindRunStarted, `{"text":"q2 edited","parent":"r1"}`},
		{"r4", store.KindAssistantMessage, `{"text":"a4"}`},
		{"r2", store.KindRunChosen, `{}`},
	} {
		events = append(events, store.Event{RunID: e[0], Kind: e[1], Data: json.RawMessage(e[2]), Time: t0.Add(time.Duration(i))})
	}
	tr := FromEvents(events)
	if got, want := shown(tr), "user:q1 | assistant:a1 | user:q2 1/2 | assistant:a2 | user:q3 | assistant:a3"; got != want {
		t.Errorf("FromEvents shows\n%s\nwant\n%s", got, want)
	}
	versions := map[string][]string{"r2": {"r2", "r4"}, "r4": {"r2", "r4"}}
	tr.Show([]string{"r1", "r4"}, versions)
	if got, want := shown(tr), "user:q1 | assistant:a1 | user:q2 edited 2/2 | assistant:a4"; got != want {
		t.Errorf("Show(r1, r4) shows\n%s\nwant\n%s", got, want)
	}
	tr.Show([]string{"r1", "r2", "r3"}, versions)
	if got, want := shown(tr), "user:q1 | assistant:a1 | user:q2 1/2 | assistant:a2 | user:q3 | assistant:a3"; got != want {
		t.Errorf("Show(r1, r2, r3) shows\n%s\nwant\n%s", got, want)
	}
	// The last run offers Retry and Edit again.
	for i := range tr.Len() {
		if h := tr.Row(i); h.Kind == Header && h.Role == "user" && h.Text == "q3" && !h.Last {
			t.Error("the last run's header is not Last after Show")
		}
	}
}
