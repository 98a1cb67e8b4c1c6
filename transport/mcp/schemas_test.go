package mcp

import (
	"encoding/json"
	"fmt"
	"runtime"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/tools"
)

// TestListedSchemasAreText: a listing's schemas are kept as JSON text, the
// tools that share a schema share one text, and every definition marshals
// (and so hashes, and pins) as it did decoded.
func TestListedSchemasAreText(t *testing.T) {
	c := dial(t, stdioServer(t, "-tools", "5"), Options{})
	list, err := c.ListTools(t.Context())
	if err != nil || len(list) != 5 {
		t.Fatalf("ListTools() = %d tools, %v; want 5", len(list), err)
	}
	for _, d := range list {
		raw, ok := d.InputSchema.(json.RawMessage)
		if !ok {
			t.Fatalf("%s's input schema is a %T, want json.RawMessage", d.Name, d.InputSchema)
		}
		if &raw[0] != &list[0].InputSchema.(json.RawMessage)[0] {
			t.Errorf("%s's input schema is a copy of %s's, want the same text", d.Name, list[0].Name)
		}
	}

	// The same definitions decoded as the SDK decodes them: equal hashes.
	data, err := json.Marshal(listing(3))
	if err != nil {
		t.Fatal(err)
	}
	var decoded, compact []*sdk.Tool
	json.Unmarshal(data, &decoded)
	json.Unmarshal(data, &compact)
	CompactSchemas(compact)
	for i := range decoded {
		if _, ok := decoded[i].InputSchema.(map[string]any); !ok {
			t.Fatalf("decoded schema is a %T, want map[string]any", decoded[i].InputSchema)
		}
		if a, b := tools.Hash(decoded[i]), tools.Hash(compact[i]); a != b {
			t.Errorf("Hash(%s) = %s compacted, %s decoded; want equal", decoded[i].Name, b, a)
		}
	}
}

// listing is n definitions with schemas in the form servers send (keys
// out of order, characters json.Marshal escapes, an output schema).
func listing(n int) []map[string]any {
	var out []map[string]any
	for i := range n {
		out = append(out, map[string]any{
			"name":         fmt.Sprintf("tool_%03d", i),
			"description":  "Searches the documentation for a query and returns the best matching sections.",
			"inputSchema":  json.RawMessage(`{"type":"object","required":["query"],"properties":{"query":{"type":"string","description":"What to look for <in plain words> & more."},"limit":{"type":"integer","minimum":1}}}`),
			"outputSchema": json.RawMessage(`{"type":"object","properties":{"hits":{"type":"array","items":{"type":"string"}}}}`),
		})
	}
	return out
}

// BenchmarkCompactSchemas: the heap a listing of 5,000 definitions keeps,
// with schemas as the SDK decodes them and as CompactSchemas keeps them, in
// one run.
func BenchmarkCompactSchemas(b *testing.B) {
	data, err := json.Marshal(listing(5000))
	if err != nil {
		b.Fatal(err)
	}
	kept := func(compact bool) float64 {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		var list []*sdk.Tool
		json.Unmarshal(data, &list)
		if compact {
			CompactSchemas(list)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		runtime.KeepAlive(list)
		return float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / float64(len(list))
	}
	var decoded, compact float64
	for range b.N {
		decoded += kept(false)
		compact += kept(true)
	}
	b.ReportMetric(decoded/float64(b.N), "B/tool-decoded")
	b.ReportMetric(compact/float64(b.N), "B/tool-compact")
	b.ReportMetric(compact/decoded, "compact/decoded")
}
