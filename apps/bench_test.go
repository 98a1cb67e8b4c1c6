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
// processes once it is (reported as MiB-rss); confined by WebKit's
// bubblewrap alone, and by Deckhand's sandbox around it all. Needs Xvfb:
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
	start := map[string]func(apps.OpenView) (*apps.Process, error){
		// WebKit's own sandbox alone: its web process under bubblewrap.
		"bubblewrap": func(o apps.OpenView) (*apps.Process, error) {
			o.Sandbox = true
			return apps.Start(helper, o, nil)
		},
		// Deckhand's sandbox around the helper and all of WebKit.
		"deckhand": func(o apps.OpenView) (*apps.Process, error) { return apps.StartConfined(helper, o, apps.CSP{}, nil) },
	}
	for _, name := range []string{"bubblewrap", "deckhand"} {
		b.Run(name, func(b *testing.B) {
			var rss int64
			var load time.Duration
			for b.Loop() {
				t0 := time.Now()
				p, err := start[name](apps.OpenView{Title: "bench.view", HTML: string(html), CSP: apps.Policy(apps.CSP{}), Width: 640, Height: 480})
				if err != nil {
					b.Skip(err)
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
				load += time.Since(t0)
				rss += p.Memory()
				p.Close()
			}
			b.ReportMetric(float64(load.Milliseconds())/float64(b.N), "ms-to-loaded")
			b.ReportMetric(float64(rss>>20)/float64(b.N), "MiB-rss")
		})
	}
}
