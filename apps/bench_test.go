package apps_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"deckhand/apps"
	"deckhand/testutil"
)

// BenchmarkViewOpen: what showing a view costs, measured on the real
// view of server-basic-vanillajs: the time from starting the helper to
// its page loaded, and the resident memory of the helper with WebKit's
// processes once it is (reported as MiB-rss). Needs Xvfb:
//
//	go test -tags no_animations -run '^$' -bench ViewOpen -benchtime 5x ./apps/
func BenchmarkViewOpen(b *testing.B) {
	html, err := os.ReadFile(filepath.Join(testutil.ModuleRoot(b), "testutil", "node_modules", "@modelcontextprotocol",
		"server-basic-vanillajs", "dist", "mcp-app.html"))
	if err != nil {
		b.Skipf("npm peer missing: %v", err)
	}
	display := testutil.Xvfb(b, "800x600")
	helper := testutil.BuildProgram(b, "./cmd/deckhand-view")
	b.Setenv("DISPLAY", display)
	var rss int64
	var load time.Duration
	for b.Loop() {
		start := time.Now()
		p, err := apps.Start(helper, apps.OpenView{Title: "bench.view", HTML: string(html), CSP: apps.Policy(apps.CSP{}),
			Width: 640, Height: 480, Sandbox: apps.Sandboxed()}, nil)
		if err != nil {
			b.Fatal(err)
		}
		for {
			f, err := p.Read()
			if err != nil {
				b.Fatalf("the helper ended before its page loaded: %v", err)
			}
			if f.Event == apps.EventLoaded {
				break
			}
		}
		load += time.Since(start)
		rss += p.Memory()
		p.Close()
	}
	b.ReportMetric(float64(load.Milliseconds())/float64(b.N), "ms-to-loaded")
	b.ReportMetric(float64(rss>>20)/float64(b.N), "MiB-rss")
}
