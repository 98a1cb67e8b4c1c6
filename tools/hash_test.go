package tools

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"path/filepath"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/testutil"
)

// hashByMarshal is Hash as it was written first, and as the log's pins
// and reviews hold it: json.Marshal's bytes of the whole definition.
func hashByMarshal(d *sdk.Tool) string {
	data, err := json.Marshal(d)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:16])
}

// Hash is what it was for every definition of testdata, and for schemas
// that are not plain JSON values.
func TestHashAsMarshal(t *testing.T) {
	var defs []*sdk.Tool
	for _, dir := range []string{"catalog", "npm"} {
		for _, list := range testutil.LoadCatalog(t, filepath.Join("testdata", dir)) {
			defs = append(defs, list...)
		}
	}
	defs = append(defs,
		&sdk.Tool{Name: "typed", InputSchema: map[string]any{"type": "object", "n": 3, "m": map[string]string{"a": "<b>"}}},
		&sdk.Tool{Name: "raw", InputSchema: json.RawMessage(`{"b": 1, "a": "x"}`)},
		&sdk.Tool{Name: "nil"},
		&sdk.Tool{Name: "out", InputSchema: map[string]any{"type": "object"}, OutputSchema: map[string]any{"type": "object", "properties": map[string]any{"b": "<&>\t", "a\u2028": []any{1e21, 1e-7, -0.0, 12.5, nil, true}}}},
	)
	for _, d := range defs {
		if got, want := Hash(d), hashByMarshal(d); got != want {
			t.Errorf("Hash(%s) = %s, want %s (json.Marshal's)", d.Name, got, want)
		}
	}
}

// The schemas are written as json.Marshal writes them, whatever JSON a
// server sends.
func FuzzHashSchema(f *testing.F) {
	for _, s := range []string{`{}`, `{"type":"object","properties":{"a":{"type":"string","description":"<b>&amp;\u2028\u0007\"\\"}}}`, `{"x":[1,2.5,1e-7,1e21,-0,123456789012345678901234,null,true,false,"\ud800"]}`, `{"b":1,"a":{"d":[],"c":{}}}`, "{\"\xff\":\"\x7f\"}"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var schema any
		if json.Unmarshal(data, &schema) != nil {
			return
		}
		d := &sdk.Tool{Name: "t", Description: "d", InputSchema: schema, OutputSchema: schema}
		if got, want := Hash(d), hashByMarshal(d); got != want {
			t.Errorf("Hash with the schema %s = %s, want %s (json.Marshal's)", data, got, want)
		}
	})
}
