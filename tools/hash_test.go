package tools

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"

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
		&sdk.Tool{Name: "nil map", InputSchema: map[string]any(nil), OutputSchema: map[string]any{"a": []any(nil), "b": map[string]any(nil)}},
		&sdk.Tool{Name: "all", Title: "T<>", Description: "D&", Meta: sdk.Meta{"ui": map[string]any{"visibility": []any{"app"}}},
			Annotations: &sdk.ToolAnnotations{Title: "<a>", ReadOnlyHint: true}, Icons: []sdk.Icon{{Source: "data:x", Sizes: []string{"1x1"}}}},
		&sdk.Tool{Name: "typed meta", Meta: sdk.Meta{"n": 1}},
		&sdk.Tool{Name: "empty meta", Meta: sdk.Meta{}, Icons: []sdk.Icon{}},
		&sdk.Tool{Name: "out", InputSchema: map[string]any{"type": "object"}, OutputSchema: map[string]any{"type": "object", "properties": map[string]any{"b": "<&>\t", "a\u2028": []any{1e21, 1e-7, -0.0, 12.5, nil, true}}}},
	)
	for _, d := range defs {
		if got, want := Hash(d), hashByMarshal(d); got != want {
			t.Errorf("Hash(%s) = %s, want %s (json.Marshal's)", d.Name, got, want)
		}
	}
}

// The definition is written as json.Marshal writes it, whatever JSON a
// server sends in its schemas, _meta and strings.
func FuzzHashSchema(f *testing.F) {
	for _, s := range []string{`{}`, `"<a&b>\u2028\ud800"`, `{"type":"object","properties":{"a":{"type":"string","description":"<b>&amp;\u2028\u0007\"\\"}}}`, `{"x":[1,2.5,1e-7,1e21,-0,123456789012345678901234,null,true,false,"\ud800"]}`, `{"b":1,"a":{"d":[],"c":{}}}`, "{\"\xff\":\"\x7f\"}"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var schema any
		if json.Unmarshal(data, &schema) != nil {
			return
		}
		d := &sdk.Tool{Name: "t", Description: "d", InputSchema: schema, OutputSchema: schema}
		if m, ok := schema.(map[string]any); ok {
			d.Meta = m
		}
		if s, ok := schema.(string); ok {
			d.Name, d.Title, d.Description, d.OutputSchema = s, s, s, nil
		}
		if got, want := Hash(d), hashByMarshal(d); got != want {
			t.Errorf("Hash with the schema %s = %s, want %s (json.Marshal's)", data, got, want)
		}
	})
}

// appendTool writes sdk.Tool's fields in the order and with the names
// json.Marshal gives them: a field the SDK adds, moves or renames must be
// written there too (and this list changed with it).
func TestToolFields(t *testing.T) {
	want := []string{`Meta json:"_meta,omitempty"`, `Annotations json:"annotations,omitempty"`, `Description json:"description,omitempty"`,
		`InputSchema json:"inputSchema"`, `Name json:"name"`, `OutputSchema json:"outputSchema,omitempty"`, `Title json:"title,omitempty"`, `Icons json:"icons,omitempty"`}
	typ := reflect.TypeFor[sdk.Tool]()
	var got []string
	for i := range typ.NumField() {
		f := typ.Field(i)
		got = append(got, f.Name+" "+string(f.Tag))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("sdk.Tool's fields (-want +got):\n%s", diff)
	}
	if _, ok := reflect.PointerTo(typ).MethodByName("MarshalJSON"); ok {
		t.Errorf("sdk.Tool has a MarshalJSON: appendTool must write what it writes")
	}
}

// The annotations are written as the SDK writes them, whichever hints are
// set and whatever their title holds.
func FuzzHashAnnotations(f *testing.F) {
	f.Add(byte(0), "")
	f.Add(byte(0xff), "<a & b>\u2028\xff")
	f.Fuzz(func(t *testing.T, hints byte, title string) {
		yes, no := true, false
		a := &sdk.ToolAnnotations{IdempotentHint: hints&1 != 0, ReadOnlyHint: hints&2 != 0, Title: title}
		switch hints >> 2 & 3 {
		case 1:
			a.DestructiveHint = &yes
		case 2:
			a.DestructiveHint = &no
		}
		switch hints >> 4 & 3 {
		case 1:
			a.OpenWorldHint = &yes
		case 2:
			a.OpenWorldHint = &no
		}
		d := &sdk.Tool{Name: "t", Annotations: a}
		if got, want := Hash(d), hashByMarshal(d); got != want {
			t.Errorf("Hash with annotations %+v = %s, want %s (json.Marshal's)", a, got, want)
		}
	})
}
