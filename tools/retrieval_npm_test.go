package tools

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// npmRecord is one file of testdata/npm: a real MCP server's tools/list
// answer and what it said in initialize, recorded from the npm package by
// testdata/npmcatalog (their licences are in each file).
type npmRecord struct {
	Package, Version, License string
	Server                    string // its name in initialize
	Instructions              string
	Tools                     []*sdk.Tool
}

// loadNPM reads the npm catalog (10 servers of the MCP project's npm
// packages, 91 tools) and its requests, written by hand before any was
// ranked (testdata/npm/queries.txt). about holds each server's own words
// about itself: the name and instructions it gives in initialize.
func loadNPM(tb testing.TB) (sources map[string]Source, qs []query, about map[string]string) {
	tb.Helper()
	files, err := filepath.Glob("testdata/npm/*.json")
	if err != nil || len(files) == 0 {
		tb.Fatalf("testdata/npm holds no servers (%v)", err)
	}
	sources, about = map[string]Source{}, map[string]string{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		var r npmRecord
		if err := json.Unmarshal(data, &r); err != nil {
			tb.Fatalf("%s: %v", f, err)
		}
		alias := strings.TrimSuffix(filepath.Base(f), ".json")
		sources[alias] = Source{Tools: r.Tools}
		about[alias] = r.Server + "\n" + r.Instructions
	}
	return sources, loadQueriesFrom(tb, "testdata/npm/queries.txt"), about
}
