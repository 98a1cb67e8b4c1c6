package appview

import (
	"testing"

	"deckhand/transcript"
)

// A view is told the card's result once the call ended: the text the
// model was given and the structured content; nothing while it runs.
func TestCardResult(t *testing.T) {
	tests := []struct {
		name      string
		row       transcript.Row
		none      bool
		isError   bool
		structure any
	}{
		{name: "running", row: transcript.Row{State: transcript.Running}, none: true},
		{name: "asked", row: transcript.Row{State: transcript.Asked}, none: true},
		{name: "succeeded", row: transcript.Row{State: transcript.Succeeded, Output: "12:00", Structured: `{"time":"12:00"}`}, structure: "12:00"},
		{name: "failed", row: transcript.Row{State: transcript.Failed, Output: "no clock"}, isError: true},
		{name: "structured not JSON", row: transcript.Row{State: transcript.Succeeded, Output: "ok", Structured: `{"time":`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := CardResult(tt.row)
			if tt.none {
				if r != nil {
					t.Fatalf("CardResult(%v) = %+v, want nil", tt.row.State, r)
				}
				return
			}
			if r == nil || r.IsError != tt.isError || len(r.Content) != 1 {
				t.Fatalf("CardResult(%v) = %+v, want IsError %v and the output", tt.row.State, r, tt.isError)
			}
			var got any
			if m, ok := r.StructuredContent.(map[string]any); ok {
				got = m["time"]
			}
			if got != tt.structure {
				t.Errorf("CardResult(%v).StructuredContent[time] = %v, want %v", tt.row.State, got, tt.structure)
			}
		})
	}
}
