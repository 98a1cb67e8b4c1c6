package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	lru "github.com/hashicorp/golang-lru/v2"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Validator checks a call's arguments against its tool's input schema.
// Compiled schemas are kept in an LRU cache keyed by the tool definition, so
// each is compiled once while the definition lives (a server that lists its
// tools again gives new definitions, compiled anew). Safe for concurrent use.
type Validator struct {
	cache *lru.Cache[*sdk.Tool, compiled]
}

type compiled struct {
	schema *jsonschema.Resolved // nil: the schema cannot be checked here
}

// NewValidator keeps up to size compiled schemas.
func NewValidator(size int) *Validator {
	c, err := lru.New[*sdk.Tool, compiled](max(size, 1))
	if err != nil {
		panic(err) // only for size <= 0, excluded above
	}
	return &Validator{cache: c}
}

// Validate checks args (JSON text; empty means {}) against the tool's input
// schema. It decodes a copy with json.Number, so that the check sees every
// number as sent; the caller forwards args itself, unchanged. The error says
// what is wrong in words a model can act on. A schema that cannot be
// compiled here (an unsupported draft, a remote $ref) is not checked: the
// server will.
func (v *Validator) Validate(t Tool, args []byte) error {
	if len(bytes.TrimSpace(args)) == 0 {
		args = []byte("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.UseNumber()
	var obj any
	if err := dec.Decode(&obj); err != nil {
		return fmt.Errorf("the arguments are not a JSON object: %v", err)
	}
	if dec.More() {
		return fmt.Errorf("the arguments are not one JSON object: more follows it")
	}
	if _, ok := obj.(map[string]any); !ok {
		return fmt.Errorf("the arguments are not a JSON object: %s", jsonKind(obj))
	}
	obj = exactNumbers(obj)
	c, ok := v.cache.Get(t.Def)
	if !ok {
		c = compile(t.Def)
		v.cache.Add(t.Def, c)
	}
	if c.schema == nil {
		return nil
	}
	if err := c.schema.Validate(obj); err != nil {
		return fmt.Errorf("the arguments do not match the tool's input schema: %s", plainSchemaError(err.Error()))
	}
	return nil
}

// plainSchemaError names the argument a jsonschema-go error is about:
// "validating root: validating /properties/a: type: …" becomes
// `argument "a": type: …` (nested ones as "a.b"). The package's errors are
// text only, with the location as a JSON pointer in them; anything not in
// that form is left as it is.
func plainSchemaError(msg string) string {
	msg = strings.TrimPrefix(msg, "validating root: ")
	rest, ok := strings.CutPrefix(msg, "validating /properties/")
	if !ok {
		return msg
	}
	ptr, detail, ok := strings.Cut(rest, ": ")
	if !ok {
		return msg
	}
	// "a/properties/b: validating /properties/a/properties/b: …": the
	// innermost location is the one the detail is about.
	for {
		inner, more, found := strings.Cut(detail, ": ")
		p, isLoc := strings.CutPrefix(inner, "validating /properties/")
		if !found || !isLoc {
			break
		}
		ptr, detail = p, more
	}
	name := strings.ReplaceAll(ptr, "/properties/", ".")
	name = strings.ReplaceAll(strings.ReplaceAll(name, "~1", "/"), "~0", "~")
	return fmt.Sprintf("argument %q: %s", name, detail)
}

// exactNumbers turns the json.Numbers of a decoded value into what the
// schema validator compares exactly: int64 for every integer that fits,
// float64 for the rest.
func exactNumbers(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			v[k] = exactNumbers(e)
		}
	case []any:
		for i, e := range v {
			v[i] = exactNumbers(e)
		}
	case json.Number:
		if n, err := v.Int64(); err == nil {
			return n
		}
		if f, err := v.Float64(); err == nil {
			return f
		}
		return v.String() // beyond float64: the server will judge it
	}
	return v
}

// jsonKind names a decoded JSON value's kind.
func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case []any:
		return "an array"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case json.Number:
		return "a number"
	}
	return fmt.Sprintf("%T", v)
}

// Len is the number of compiled schemas held.
func (v *Validator) Len() int { return v.cache.Len() }

func compile(def *sdk.Tool) compiled {
	if def == nil || def.InputSchema == nil {
		return compiled{}
	}
	data, err := json.Marshal(def.InputSchema)
	if err != nil {
		return compiled{}
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(data, &s); err != nil {
		return compiled{}
	}
	r, err := s.Resolve(nil)
	if err != nil {
		return compiled{}
	}
	// Check that the draft is one the validator knows, once, here.
	if err := r.Validate(map[string]any{}); err != nil && strings.Contains(err.Error(), "cannot validate version") {
		return compiled{}
	}
	return compiled{schema: r}
}
