package mcp

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// FuzzParseForm: a server's requested schema and the answer to it are
// untrusted. ParseForm never panics; what it accepts is a form of known
// kinds, one field a name, each option with its label. Check never panics,
// its answer carries every required field, checks again to itself, and
// keeps a whole number's value.
func FuzzParseForm(f *testing.F) {
	// server-everything's trigger-elicitation-request schema, as it sends it.
	everything, err := os.ReadFile("testdata/elicit-everything.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(everything, []byte(`{"name": "Ada Lovelace", "check": true, "integer": 42, "number": 3.14, "untitledSingleSelectEnum": "Monica", "untitledMultipleSelectEnum": ["Guitar"]}`))
	f.Add(everything, []byte(`{"integer": 1e300, "number": "7", "untitledMultipleSelectEnum": ["guitar", "Nope"]}`))
	f.Add(everything, []byte(`{"integer": "1e400", "number": "NaN", "check": "yes", "untitledMultipleSelectEnum": "Piano, drums"}`))
	// The hostile form of the window's tests.
	f.Add([]byte(`{"type": "object", "properties": {"evil\u001b]0;pwned\u0007name": {"type": "string", "title": "Pass\u001b[2Jword\u202e"},
		"pick": {"type": "string", "enum": ["opt-1", "opt-2"], "default": "nope"}}, "required": ["pick"]}`), []byte(`{"pick": "opt-2"}`))
	// lmcp's tools' schemas.
	f.Add([]byte(`{"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}`), []byte(`{"text": "hi"}`))
	f.Add([]byte(`{"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}}, "required": ["a", "b"]}`), []byte(`{"a": 1, "b": -2.5}`))
	f.Add([]byte(`{"properties": {"n": {"type": "integer", "minimum": 1, "maximum": 3}, "s": {"type": "string", "minLength": 2, "maxLength": 3},
		"o": {"type": "string", "oneOf": [{"const": "a", "title": "A"}]}, "m": {"type": "array", "items": {"anyOf": [{"const": 1, "title": "one"}]}}}}`),
		[]byte(`{"n": 2, "s": "abc", "o": "A", "m": ["one"]}`))
	f.Add([]byte(`{"properties": {"a": {"type": "string"}, "a": {"type": "integer"}}, "required": ["a"]}`), []byte(`{"a": 1}`))
	f.Add([]byte(`{"properties": {"a": {"type": ["string", "null"]}}}`), []byte(`{}`))
	f.Add([]byte(`{"properties": null}`), []byte(`null`))
	f.Add([]byte(`{"properties": {"n": {"type": "integer"}}}`), []byte(`{"n": 1e19}`))
	f.Fuzz(func(t *testing.T, schemaJSON, answerJSON []byte) {
		if !json.Valid(schemaJSON) {
			return
		}
		// Raw, as a schema that was not decoded first would come: its
		// keys in order, repeated ones kept.
		form, err := ParseForm(json.RawMessage(schemaJSON))
		if err != nil {
			return
		}
		names := map[string]bool{}
		for _, fl := range form.Fields {
			switch fl.Kind {
			case FieldString, FieldNumber, FieldInteger, FieldBoolean, FieldEnum, FieldMulti:
			default:
				t.Fatalf("field %q has kind %q", fl.Name, fl.Kind)
			}
			if names[fl.Name] {
				t.Fatalf("ParseForm(%s): two fields named %q", schemaJSON, fl.Name)
			}
			names[fl.Name] = true
			if len(fl.Labels) != len(fl.Options) {
				t.Fatalf("field %q: %d labels for %d options", fl.Name, len(fl.Labels), len(fl.Options))
			}
			for i := range fl.Options {
				fl.Label(i)
			}
			if fl.Default != nil {
				if v, err := fl.convert(fl.Default); err != nil || !cmp.Equal(v, fl.Default) {
					t.Fatalf("field %q: its default %#v checks to %#v, %v", fl.Name, fl.Default, v, err)
				}
			}
		}
		var answer map[string]any
		if json.Unmarshal(answerJSON, &answer) != nil {
			return
		}
		for _, fl := range form.Fields {
			if s, ok := answer[fl.Name].(string); ok {
				// What a person types becomes an answer the server can be
				// sent.
				if v, err := fl.Parse(s); err == nil {
					if _, err := json.Marshal(v); err != nil {
						t.Fatalf("field %q: Parse(%q) = %#v, which cannot be sent: %v", fl.Name, s, v, err)
					}
				}
			}
		}
		out, err := form.Check(answer)
		if err != nil {
			return
		}
		for _, fl := range form.Fields {
			if _, ok := out[fl.Name]; fl.Required && !ok {
				t.Fatalf("Check(%s) = %v, leaving out the required %q", answerJSON, out, fl.Name)
			}
			if x, ok := answer[fl.Name].(float64); ok && fl.Kind == FieldInteger {
				if n, _ := out[fl.Name].(int64); float64(n) != x {
					t.Fatalf("Check(%s): integer %q is %v, sent as %d", answerJSON, fl.Name, x, n)
				}
			}
		}
		again, err := form.Check(out)
		if err != nil {
			t.Fatalf("Check(Check(%s)) = %v", answerJSON, err)
		}
		if diff := cmp.Diff(out, again); diff != "" {
			t.Fatalf("Check is not idempotent on %s (-once +twice):\n%s", answerJSON, diff)
		}
	})
}

func TestFieldSensitive(t *testing.T) {
	tests := []struct {
		name string
		fl   Field
		want bool
	}{
		{"password format", Field{Name: "x", Format: "password"}, true},
		{"password name", Field{Name: "password"}, true},
		{"snake case", Field{Name: "user_password"}, true},
		{"camel case", Field{Name: "apiKey"}, true},
		{"api key title", Field{Name: "k", Title: "API-Key"}, true},
		{"token", Field{Name: "github_token"}, true},
		{"secret in the description", Field{Name: "value", Description: "Your client secret, from the console"}, true},
		{"passphrase", Field{Name: "passphrase"}, true},
		{"pin", Field{Name: "card", Title: "PIN"}, true},
		{"private key", Field{Name: "private_key"}, true},
		{"a name", Field{Name: "name", Title: "Your legal name"}, false},
		{"pinned is not a pin", Field{Name: "pinned", Description: "keep spinning"}, false},
		{"tokens counted", Field{Name: "max_tokens"}, false},
		{"a pin asked in prose", Field{Name: "code", Description: "Enter your PIN."}, true},
		{"a pin refused in prose", Field{Name: "integer", Title: "Integer", Description: "Your favorite integer (do not give us your phone number, pin, or other sensitive info)"}, false},
		{"email", Field{Name: "email", Format: "email"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.fl.Sensitive(); got != tt.want {
				t.Errorf("%+v.Sensitive() = %v, want %v", tt.fl, got, tt.want)
			}
		})
	}
}
