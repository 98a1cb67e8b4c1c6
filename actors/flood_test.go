package actors

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"testing"
	"time"

	"deckhand/actors/conversation"
	"deckhand/config"
	"deckhand/testutil"
)

// A server that announces tools/list_changed 10,000 times a second costs a
// few listings a second, and conversations go on: a chat turn that calls
// its tool answers. The figures (turn time, listings, heap) are logged.
func TestListChangedFlood(t *testing.T) { floodTest(t) }

// Every notification kind at that rate (list_changed of tools, prompts and
// resources, resources/updated, log messages, progress for tokens nobody
// gave) and 2,000 progress notifications during each call: the same.
func TestEveryNotificationFlood(t *testing.T) { floodTest(t, "-flood-all") }

func floodTest(t *testing.T, args ...string) {
	counts := filepath.Join(t.TempDir(), "flood")
	model := testutil.NewModelServer(t)
	for range 5 {
		model.Add(calls(testutil.ToolCallSpec{ID: "a", Name: "flood__echo", Arguments: `{}`}), answer("done"))
	}
	begin := time.Now() // the server starts flooding with the system
	srv := stdio(t, append([]string{"-flood", "10000", "-pidfile", counts}, args...)...)
	c := startChat(t, model, nil, func(cfg *config.Config) {
		cfg.MCP.Servers = map[string]config.Server{"flood": srv}
		cfg.MCP.AutoApprove = map[string]bool{"flood.*": true}
	})
	testutil.Eventually(t, wait, func() bool { cat, _ := c.sys.Catalog(t.Context()); return cat.Len() == 1 }, "no tools")
	// Kept: the flood running for a while before the turns is what is
	// tested (no channel says "enough notifications were sent").
	time.Sleep(time.Second)
	var first runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&first)
	var turns []time.Duration
	for range 5 {
		start := time.Now()
		c.send("echo")
		if f := expect[*conversation.RunFinished](c); f.Err != nil || f.Text != "done" {
			t.Fatalf("turn under the flood: %+v", f)
		}
		turns = append(turns, time.Since(start))
	}
	// The time the flood ran, measured rather than assumed: on a loaded
	// machine start-up and turns take longer, and more listings are due.
	data, _ := os.ReadFile(counts + ".lists")
	elapsed := time.Since(begin)
	lists, _ := strconv.Atoi(string(data))
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	t.Logf("under 10,000 notifications/s %v: turns %v (p50 %v); %d listings in %v; heap %.1f MB after the first second, %.1f MB after the turns",
		args, turns, median(turns), lists, elapsed.Round(time.Second), float64(first.HeapAlloc)/1e6, float64(ms.HeapAlloc)/1e6)
	if grown := int64(ms.HeapAlloc) - int64(first.HeapAlloc); grown > 32<<20 {
		t.Errorf("the heap grew by %.1f MB during five turns under the flood", float64(grown)/1e6)
	}
	// A listing every 250 ms at most (the servers' relistPause), plus the
	// first: far below one per notification (tens of thousands were sent).
	if max := int(elapsed/(250*time.Millisecond)) + 4; lists > max {
		t.Errorf("%d listings in %v, want at most %d", lists, elapsed, max)
	}
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}
