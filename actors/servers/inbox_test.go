package servers

import (
	"context"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"deckhand/transport/mcp"
)

// A flood of progress sent before the result, to a reader that starts late,
// loses the oldest progress and never the result; what is held stays
// bounded whatever the flood.
func TestInboxKeepsResultsUnderAProgressFlood(t *testing.T) {
	as := actor.NewActorSystem()
	defer as.Shutdown()
	in := newInbox(as.ProcessRegistry, 16)
	defer in.close()
	const flood = 50_000
	for i := range flood {
		as.Root.Send(in.pid, &ToolProgress{ID: "x", Progress: progressOf(i)})
	}
	as.Root.Send(in.pid, &ToolResult{ID: "x"})
	for i := range flood {
		as.Root.Send(in.pid, &ToolProgress{ID: "x", Progress: progressOf(flood + i)})
	}
	in.q.mu.Lock()
	held := len(in.q.items)
	in.q.mu.Unlock()
	if held > 17 {
		t.Errorf("%d messages held after a flood of %d progress, want at most 16 progress and the result", held, 2*flood)
	}
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	var got []any
	for len(got) < held {
		m, err := in.receive(ctx)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, m)
	}
	results, last := 0, -1.0
	for _, m := range got {
		switch m := m.(type) {
		case *ToolResult:
			results++
		case *ToolProgress:
			if m.Progress.Progress <= last {
				t.Errorf("progress out of order: %v after %v", m.Progress.Progress, last)
			}
			last = m.Progress.Progress
		}
	}
	if results != 1 {
		t.Errorf("%d results received, want 1", results)
	}
	if last != 2*flood-1 {
		t.Errorf("the last progress received is %v, want the newest (%d)", last, 2*flood-1)
	}
}

func progressOf(i int) mcp.Progress { return mcp.Progress{Progress: float64(i)} }
