package main

import (
	"math"
	"path/filepath"
	"strings"
)

// paired is the median of the ratios a/b paired run by run (run i of a
// over run i of b), over the runs where both gave a finite value and b is
// not 0, and how many runs that is. A ratio of medians would pair a fast
// run of one host with a slow run of another, as the machine's load came
// and went; pairing keeps each ratio to runs taken side by side.
func paired(a, b map[int]float64) (ratio float64, n int) {
	var rs []float64
	for i, x := range a {
		y, ok := b[i]
		if !ok || y == 0 || math.IsInf(x, 0) || math.IsInf(y, 0) || math.IsNaN(x) || math.IsNaN(y) {
			continue
		}
		rs = append(rs, x/y)
	}
	if len(rs) == 0 {
		return 0, 0
	}
	_, med, _ := stats(rs)
	return med, len(rs)
}

// peerBinary is where a peer's binary is: BENCH_NAME (upper case) when set
// (a binary built elsewhere, for a peer the module proxy here refuses),
// then env names that variable; else NAME in the folder make bench-peers
// installs into.
func peerBinary(peers, name string, getenv func(string) string) (bin, env string) {
	env = "BENCH_" + strings.ToUpper(name)
	if p := getenv(env); p != "" {
		return p, env
	}
	return filepath.Join(peers, name), ""
}

// growth is one host's own ratio of two measures paired run by run (its
// time with 100 servers over its time with 10, say).
func (b *bench) growth(host, num, den string) (float64, int) {
	n, d := b.res[num][host], b.res[den][host]
	if n == nil || d == nil {
		return 0, 0
	}
	return paired(n.byRun, d.byRun)
}
