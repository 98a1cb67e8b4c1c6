package main

import (
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
)

func TestPaired(t *testing.T) {
	inf := math.Inf(1)
	tests := []struct {
		name  string
		a, b  map[int]float64
		ratio float64
		n     int
	}{
		{"one run", map[int]float64{0: 2}, map[int]float64{0: 1}, 2, 1},
		// Medians 2 and 2 give 1×; run by run Deckhand is twice as slow
		// in one run, as fast in one, half as slow in the third.
		{"paired, not medians", map[int]float64{0: 1, 1: 2, 2: 4}, map[int]float64{0: 2, 1: 2, 2: 2}, 1, 3},
		{"ratio of medians would mislead", map[int]float64{0: 1, 1: 10, 2: 3}, map[int]float64{0: 1, 1: 10, 2: 1}, 1, 3},
		{"even count: mean of the middle two", map[int]float64{0: 1, 1: 3}, map[int]float64{0: 1, 1: 1}, 2, 2},
		{"a run missing on one side", map[int]float64{0: 2, 1: 4}, map[int]float64{1: 2}, 2, 1},
		{"no answer within the cap", map[int]float64{0: inf, 1: 3}, map[int]float64{0: 1, 1: 1}, 3, 1},
		{"zero", map[int]float64{0: 1}, map[int]float64{0: 0}, 0, 0},
		{"none", nil, map[int]float64{0: 1}, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ratio, n := paired(tt.a, tt.b)
			if math.Abs(ratio-tt.ratio) > 1e-9 || n != tt.n {
				t.Errorf("paired(%v, %v) = %v, %d, want %v, %d", tt.a, tt.b, ratio, n, tt.ratio, tt.n)
			}
		})
	}
}

func TestFirstWithTools(t *testing.T) {
	title := request{at: 1, path: "/v1/chat/completions", tools: 0}
	models := request{at: 0, path: "/v1/models"}
	first := request{at: 2, path: "/v1/chat/completions", tools: 12}
	later := request{at: 3, path: "/v1/chat/completions", tools: 12}
	tests := []struct {
		name string
		reqs []request
		want request
		ok   bool
	}{
		{"the title request without tools is not the first", []request{models, title, first, later}, first, true},
		{"plain", []request{first, later}, first, true},
		{"no request carries tools", []request{models, title}, request{}, false},
		{"none", nil, request{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := firstWithTools(tt.reqs)
			if got != tt.want || ok != tt.ok {
				t.Errorf("firstWithTools(%v) = %v, %v, want %v, %v", tt.reqs, got, ok, tt.want, tt.ok)
			}
		})
	}
}

// The hold for sampling falls on the first model request carrying tools,
// not on a title request before it.
func TestHoldOnFirstToolsRequest(t *testing.T) {
	model := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer model.Close()
	target, _ := url.Parse(model.URL)
	rec := newRecorder(target)
	front := httptest.NewServer(rec)
	defer front.Close()
	var held atomic.Int32
	rec.onFirstToolsRequest(func() { held.Store(int32(len(rec.requests()))) })
	for _, body := range []string{`{"messages":[]}`, `{"messages":[],"tools":[{},{}]}`, `{"messages":[],"tools":[{}]}`} {
		resp, err := http.Post(front.URL+"/v1/chat/completions", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	if h := held.Load(); h != 2 {
		t.Errorf("the hold ran at request %d, want 2 (the first carrying tools)", h)
	}
}

func TestPeerBinary(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		bin     string
		wantEnv string
	}{
		{"installed", nil, "bin/bench-peers/crush", ""},
		{"built elsewhere", map[string]string{"BENCH_CRUSH": "/opt/crush"}, "/opt/crush", "BENCH_CRUSH"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bin, env := peerBinary("bin/bench-peers", "crush", func(k string) string { return tt.env[k] })
			if bin != tt.bin || env != tt.wantEnv {
				t.Errorf("peerBinary = %q, %q, want %q, %q", bin, env, tt.bin, tt.wantEnv)
			}
		})
	}
}
