package tools

import (
	"encoding/json"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

func toolWith(schema string) Tool {
	var s any
	json.Unmarshal([]byte(schema), &s)
	return Tool{Server: "fs", Name: "read", Display: "fs.read", Def: &sdk.Tool{Name: "read", InputSchema: s}}
}

func TestValidate(t *testing.T) {
	read := toolWith(`{"type":"object","properties":{"path":{"type":"string"},"lines":{"type":"integer","minimum":1}},"required":["path"],"additionalProperties":false}`)
	draft4 := toolWith(`{"$schema":"http://json-schema.org/draft-04/schema#","type":"object","required":["x"]}`)
	v := NewValidator(10)
	tests := []struct {
		name string
		tool Tool
		args string
		want string // "" for valid
	}{
		{"valid", read, `{"path":"/a"}`, ""},
		{"valid with optional", read, `{"path":"/a","lines":3}`, ""},
		{"missing required", read, `{}`, "path"},
		{"wrong type", read, `{"path":5}`, "do not match"},
		{"wrong type names the argument", read, `{"path":5}`, `argument "path": type: 5 has type`},
		{"below minimum", read, `{"path":"/a","lines":0}`, "do not match"},
		{"unknown property", read, `{"path":"/a","x":1}`, "do not match"},
		{"not JSON", read, `{"path":`, "not a JSON object"},
		{"an array", read, `[1]`, "not a JSON object"},
		{"null", read, `null`, "not a JSON object"},
		{"empty means {} (then path is missing)", read, ``, "path"},
		{"an integer beyond 2^53 is an integer", read, `{"path":"/a","lines":9007199254740993}`, ""},
		{"a fraction is not an integer", read, `{"path":"/a","lines":1.5}`, "do not match"},
		{"two objects", read, `{"path":"/a"} {"path":"/b"}`, "more follows"},
		{"unsupported draft is not checked", draft4, `{}`, ""},
		{"no schema", Tool{Def: &sdk.Tool{Name: "x"}}, `{"a":1}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := v.Validate(tt.tool, []byte(tt.args))
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("Validate(%s) = %v, want valid", tt.args, err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("Validate(%s) = %v, want an error mentioning %q", tt.args, err, tt.want)
			}
		})
	}
	if v.Len() != 3 {
		t.Errorf("cache holds %d schemas, want 3 (one per definition)", v.Len())
	}
}
