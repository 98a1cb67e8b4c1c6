package actors

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"time"

	"deckhand/config"
	"deckhand/testutil"
)

// A server that announces tools/list_changed 10,000 times a second costs a
// few listings a second, and conversations go on: a chat turn that calls
// its tool answers. The figures (turn time, listings, heap) are logged.
func TestListChangedFlood(t *testing.T) {
	counts := filepath.Join(t.TempDir(), "flood")
	model := testutil.NewModelServer(t)
	for range 5 {
		model.Add(calls(testutil.ToolCallSpec{ID: "a", Name: "flood__echo", Arguments: `{}`}), answer("done"))
	}
	srv := stdio(t, "-flood", "10000", "-pidfile", counts)
	c := startChat(t, model, nil, func(cfg *config.Config) {
		cfg.MCP.Servers = map[string]config.Server{"flood": srv}
		cfg.MCP.AutoApprove = map[string]bool{"flood.*": true}
	})
	testutil.Eventually(t, wait, func() bool { cat, _ := c.sys.Catalog(t.Context()); return cat.Len() == 1 }, "no tools")
	time.Sleep(time.Second) // let the flood run
	var turns []time.Duration
	for range 5 {
		start := time.Now()
		c.send("echo")
		if f := expect[*RunFinished](c); f.Err != nil || f.Text != "done" {
			t.Fatalf("turn under the flood: %+v", f)
		}
		turns = append(turns, time.Since(start))
	}
	elapsed := 2 * time.Second // about: the second above, and the turns
	for _, d := range turns {
		elapsed += d
	}
	data, _ := os.ReadFile(counts + ".lists")
	lists, _ := strconv.Atoi(string(data))
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	t.Logf("under 10,000 list_changed/s: turns %v; %d listings in about %v; heap %.1f MB", turns, lists, elapsed.Round(time.Second), float64(ms.HeapAlloc)/1e6)
	// A listing every relistPause at most, plus the first: far below one
	// per notification (tens of thousands were sent).
	if max := int(elapsed/relistPause) + 4; lists > max {
		t.Errorf("%d listings in about %v, want at most %d", lists, elapsed, max)
	}
}
