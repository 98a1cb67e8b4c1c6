package servers

import (
	"strings"
	"testing"
	"time"
)

func TestTemplateMatches(t *testing.T) {
	for _, tc := range []struct {
		tmpl, uri string
		want      bool
	}{
		{"demo://a/{id}", "demo://a/7", true},
		{"demo://a/{id}", "demo://b/7", false},
		{"file:///{path}.txt", "file:///x.txt", true},
		{"file:///{path}.txt", "file:///x/y.md", false},
		{"file:///{+path}.txt", "file:///x/y.txt", true},
		{"x://{a}/b/{c}", "x://1/b/2", true},
		{"x://{a}/b/{c}", "x://1/c/2", false},
		{"plain://uri", "plain://uri", true},
		// What the hand-written matcher got wrong. A simple {var} cannot
		// hold a '/' (RFC 6570 encodes it), as go-sdk's servers decide too.
		{"demo://a/{id}", "demo://a/7/8", false},
		{"file:///{path}.txt", "file:///x/y.txt", false},
		{"x://{a}/b/{c}", "x://1/b/2/b/3", false},
		{"demo://a/{id}", "demo://a/hello world", false},
		// A defined but empty value expands to nothing.
		{"demo://a/{id}", "demo://a/", true},
		// Expressions side by side.
		{"x://{a}{b}", "x://12", true},
		// Operators: an absent query, form-style queries, path segments,
		// fragments.
		{"demo://search{?q}", "demo://search", true},
		{"demo://search{?q,lang}", "demo://search?q=go&lang=en", true},
		{"demo://search{?q}", "demo://searchq=go", false},
		{"demo://a{/id}", "demo://a/7", true},
		{"demo://doc{#s}", "demo://doc#intro", true},
		// A template that is not one matches nothing.
		{"x://}{a}", "x://}1", false},
		{"x://{a", "x://{a", false},
	} {
		if got := TemplateMatches(tc.tmpl, tc.uri); got != tc.want {
			t.Errorf("TemplateMatches(%q, %q) = %v, want %v", tc.tmpl, tc.uri, got, tc.want)
		}
	}
	// A server's template whose regular expression Go cannot compile (a
	// repeat count over 1000) matches nothing, without panicking.
	huge := "x://a{?" + strings.TrimSuffix(strings.Repeat("v,", 1200), ",") + "}"
	if TemplateMatches(huge, "x://a?v=1") {
		t.Errorf("TemplateMatches(a query of 1200 variables, x://a?v=1) = true, want false")
	}
	// Hundreds of expressions against a URI of the longest length kept
	// (maxURILen) still match (their cost: BenchmarkTemplateMatches).
	long := "x://" + strings.Repeat("{a}", 680)
	uri := "x://" + strings.Repeat("a", maxURILen-4)
	if !TemplateMatches(long, uri) {
		t.Errorf("TemplateMatches(680 expressions, %d characters) = false, want true", len(uri))
	}
	servers := []ServerStatus{{Alias: "ev"}, {Alias: "file"}}
	for _, tc := range []struct{ in, alias, uri string }{
		{"ev:demo://x/1", "ev", "demo://x/1"},
		{"demo://x/1", "", "demo://x/1"},
		{"file:///etc/hosts", "", "file:///etc/hosts"},
	} {
		if a, u := SplitResource(tc.in, servers); a != tc.alias || u != tc.uri {
			t.Errorf("SplitResource(%q) = %q, %q", tc.in, a, u)
		}
	}
}

// BenchmarkTemplateMatches: 680 expressions against a URI of the longest
// length kept (maxURILen), against one expression and a short URI in the
// same run: milliseconds, not the seconds of uritemplate.Template.Match
// (reported as long/short, a ratio).
func BenchmarkTemplateMatches(b *testing.B) {
	long, longURI := "x://"+strings.Repeat("{a}", 680), "x://"+strings.Repeat("a", maxURILen-4)
	var per [2]float64
	for i, c := range []struct{ tmpl, uri string }{{"demo://a/{id}", "demo://a/7"}, {long, longURI}} {
		start := time.Now()
		n := 0
		for time.Since(start) < 200*time.Millisecond || n < 3 {
			TemplateMatches(c.tmpl, c.uri)
			n++
		}
		per[i] = float64(time.Since(start)) / float64(n)
	}
	for b.Loop() {
		TemplateMatches(long, longURI)
	}
	b.ReportMetric(per[1]/per[0], "long/short")
}
