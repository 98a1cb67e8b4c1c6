package toolserver

import (
	"encoding/json"
	"runtime"
	"strings"
	"testing"
)

// The MTDF schema resolves its whole file first; the schema of each
// definition (a whole copy of the file each: some 4 MB for the thirteen,
// held by every window that loads a tool) is resolved only when a bad
// file needs it to say where it fails. What a good file leaves on the
// heap stays under 1.5 MB.
func TestSchemaResolvedOnDemand(t *testing.T) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	rs, err := newSchema()
	if err != nil {
		t.Fatal(err)
	}
	if err := rs.validate("", map[string]any{"name": "x", "description": "d", "command": "ls"}); err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	held := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("the schema holds %d KB", held/1024)
	if held > 1536<<10 {
		t.Errorf("the schema holds %d KB after a good file, want under 1536 KB", held/1024)
	}
	if n := len(rs.defs); n != 1 {
		t.Errorf("after a good file, %d schemas are resolved, want the whole file's alone", n)
	}
	var bad any
	json.Unmarshal([]byte(`{"name": "x", "description": "d", "command": "ls", "subcommands": [{"name": "a", "description": "d", "flag": "-a"}]}`), &bad)
	if path, why := locate(rs, bad, "", "$"); path != "$.subcommands[0]" || !strings.HasPrefix(why, `unknown key "flag"`) {
		t.Errorf("locate(bad) = %q, %q", path, why)
	}
	runtime.KeepAlive(rs)
}
