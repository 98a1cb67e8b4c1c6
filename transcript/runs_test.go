package transcript

import (
	"testing"
	"time"
)

// Runs can be taken out of a transcript: the rows after move up, the call
// rows are found again, and only the last run offers Retry and Edit and
// keeps its notices' actions.
func TestRemoveRun(t *testing.T) {
	tr := New()
	at := time.Now()
	for i, id := range []string{"r1", "r2", "r3"} {
		tr.StartRun(id)
		tr.User("question "+id, at)
		tr.ToolRequested("c", "s.tool", nil)
		tr.ToolFinished("c", "s.tool", nil, "out "+id, false, false, time.Millisecond)
		tr.Assistant("answer "+id, at)
		if i == 2 {
			tr.NoteAction("Stopped.", false, ActionContinue)
		}
		tr.Calls()
	}
	headers := func() (runs []string, last []bool) {
		for i := range tr.Len() {
			if r := tr.Row(i); r.Kind == Header && r.Role == "user" {
				runs, last = append(runs, r.Run), append(last, r.Last)
			}
		}
		return
	}
	runs, last := headers()
	if len(runs) != 3 || runs[0] != "r1" || last[0] || last[1] || !last[2] {
		t.Fatalf("headers %v, last %v", runs, last)
	}
	n := tr.Len()
	if !tr.RemoveRun("r2") {
		t.Fatal("r2 not removed")
	}
	per := n / 3
	if tr.Len() != n-per {
		t.Errorf("%d rows after removing a run of %d from %d", tr.Len(), per, n)
	}
	runs, _ = headers()
	if len(runs) != 2 || runs[0] != "r1" || runs[1] != "r3" {
		t.Errorf("runs %v", runs)
	}
	// The last run's card is still found by its call id.
	tr.ToolProgress("c", 1, 2, "again")
	if tr.RemoveRun("r2") {
		t.Error("r2 removed twice")
	}
	// Removing the last run makes the one before last.
	if !tr.RemoveRun("r3") {
		t.Fatal("r3 not removed")
	}
	runs, last = headers()
	if len(runs) != 1 || !last[0] {
		t.Errorf("after removing the last: runs %v, last %v", runs, last)
	}
	for i := range tr.Len() {
		if tr.Row(i).Action != "" {
			t.Errorf("row %d keeps action %q from a removed run", i, tr.Row(i).Action)
		}
	}
	// A new run takes the actions of the one before away.
	tr.NoteAction("failed", true, ActionRetry)
	tr.StartRun("r4")
	tr.User("again", at)
	for i := range tr.Len() {
		if r := tr.Row(i); r.Action != "" || (r.Last && r.Run != "r4") {
			t.Errorf("row %d: action %q last %v run %q", i, r.Action, r.Last, r.Run)
		}
	}
}
