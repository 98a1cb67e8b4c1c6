package tools

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"
)

// A partList changed at random, past many chunk splits and emptied
// chunks, holds what a sorted slice would, and each list given out stays
// as it was.
func TestPartList(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 30))
	type version struct {
		list partList
		want map[string]int // alias → its part's tools
	}
	var versions []version
	var l partList
	want := map[string]int{}
	most, dropped := 0, false // chunks at most; whether a chunk was emptied
	for step := range 5000 {
		alias := fmt.Sprintf("s%04d", r.IntN(1200))
		if step > 3000 {
			alias = fmt.Sprintf("s%04d", r.IntN(400)) // removed, together in alias order: emptying chunks
		}
		if r.IntN(3) == 0 || step > 3000 {
			l = l.with(alias, nil)
			delete(want, alias)
		} else {
			n := r.IntN(4)
			l = l.with(alias, &part{alias: alias, tools: make([]Tool, n)})
			want[alias] = n
		}
		if len(l.chunks) < most {
			dropped = true
		}
		most = max(most, len(l.chunks))
		if step%97 == 0 {
			versions = append(versions, version{l, maps.Clone(want)})
		}
	}
	versions = append(versions, version{l, want})
	if most < 4 || !dropped {
		t.Errorf("at most %d chunks, emptied: %v; want the test to split and empty chunks", most, dropped)
	}
	for k, v := range versions {
		var got []string
		tools := 0
		v.list.all(func(p *part) {
			got = append(got, p.alias)
			tools += len(p.tools)
			if len(p.tools) != v.want[p.alias] {
				t.Errorf("version %d: %s has %d tools, want %d", k, p.alias, len(p.tools), v.want[p.alias])
			}
		})
		if w := slices.SortedFunc(maps.Keys(v.want), aliasOrder); !slices.Equal(got, w) {
			t.Fatalf("version %d: parts %v, want %v", k, got, w)
		}
		if tools != v.list.tools {
			t.Errorf("version %d: tools = %d, counted %d", k, v.list.tools, tools)
		}
		for _, ch := range v.list.chunks {
			if len(*ch) == 0 || len(*ch) > partsChunk {
				t.Errorf("version %d: a chunk of %d parts", k, len(*ch))
			}
		}
		for a := range 1200 {
			alias := fmt.Sprintf("s%04d", a)
			if p := v.list.get(alias); (p != nil) != hasKey(v.want, alias) {
				t.Errorf("version %d: get(%s) = %v, want it present: %v", k, alias, p, hasKey(v.want, alias))
			}
		}
	}
}

func hasKey(m map[string]int, k string) bool { _, ok := m[k]; return ok }
