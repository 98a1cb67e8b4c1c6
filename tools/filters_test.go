package tools

import (
	"runtime"
	"slices"
	"testing"
)

// The filters hold their compiled expressions only while they are used: an
// idle window kept 1.6 MB of them for its life. Released, they find what
// they found, compiled again.
func TestReleaseFiltersGivesBackTheirHeap(t *testing.T) {
	texts := testdataTexts(t)
	find := func() map[string][][]int {
		out := map[string][][]int{}
		for name, f := range filteredExprs() {
			for _, text := range texts {
				out[name] = append(out[name], f.FindStringIndex(text))
			}
		}
		return out
	}
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	before := find()
	compiled := heap()
	ReleaseFilters()
	released := heap()
	if compiled < released || compiled-released < 1<<20 {
		t.Errorf("heap %d B with the filters compiled, %d B once released: want at least 1 MiB less", compiled, released)
	}
	for name, f := range filteredExprs() {
		if f.compiled.Load() != nil {
			t.Errorf("%s still compiled after ReleaseFilters", name)
		}
	}
	after := find()
	for name, want := range before {
		if got := after[name]; !slices.EqualFunc(got, want, slices.Equal) {
			t.Errorf("%s finds other matches once released and compiled again", name)
		}
	}
}
