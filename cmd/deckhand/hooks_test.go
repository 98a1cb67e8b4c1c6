package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"deckhand/testutil"
)

// The binary a person runs (make build: the build tags of TAGS, without
// testutil.HooksTag) holds none of the test hooks: no conformance
// adapter, no screen dump, no memory reports or profiles. The tests'
// build (testutil.BuildProgram) holds them all, or this test shows
// nothing.
func TestShippedBinaryHasNoTestHooks(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary twice")
	}
	shipped := filepath.Join(t.TempDir(), "deckhand")
	build := exec.Command("go", "build", "-tags", testutil.BuildTags, "-o", shipped, "./cmd/deckhand")
	build.Dir = testutil.ModuleRoot(t)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	hooks := []string{
		"main.runConformance", "main.exampleArgs", // conformance.go
		"main.writeScreen", "deckhand/gui.WriteScreen", // screen.go and the dump it writes
		"main.writeHeapProfile", "main.selfStatus", // memstats.go
		"MCP_CONFORMANCE_SCENARIO", "DECKHAND_HEAP_PROFILES", "DECKHAND_CPU_PROFILE",
	}
	for _, c := range []struct {
		name, bin string
		want      bool
	}{
		{"shipped", shipped, false},
		{"tests' build", testutil.BuildProgram(t, "./cmd/deckhand"), true},
	} {
		nm, err := exec.Command("go", "tool", "nm", c.bin).Output()
		if err != nil {
			t.Fatalf("go tool nm: %v", err)
		}
		symbols := string(nm)
		data, err := os.ReadFile(c.bin)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range hooks {
			has := strings.Contains(h, ".") && strings.Contains(symbols, " "+h+"\n") || !strings.Contains(h, ".") && strings.Contains(string(data), h)
			if has != c.want {
				t.Errorf("%s binary holds %s: %v, want %v", c.name, h, has, c.want)
			}
		}
	}
}
