package actors

import (
	"runtime"
	"testing"

	"github.com/asynkron/protoactor-go/actor"
)

// An actor system costs little memory of its own: its registry of
// processes is 1,024 concurrent maps, each of one shard here (the
// library's 32 made 32,768 maps, 3 MB of live heap held for the
// process's life whatever the number of actors).
func TestActorSystemFootprint(t *testing.T) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	as := actor.NewActorSystem()
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(as)
	if grew := int64(after.HeapAlloc) - int64(before.HeapAlloc); grew > 1<<20 {
		t.Errorf("a new actor system holds %.1f MB of heap, want under 1 MB", float64(grew)/(1<<20))
	}
}
