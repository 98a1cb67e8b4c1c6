package tools

import (
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

// Validate parses args (JSON text; empty means {}) and checks them against
// the tool's input schema. The error says what is wrong in words a model
// can act on. A schema that cannot be compiled here (an unsupported draft, a
// remote $ref) is not checked: the server will.
func (v *Validator) Validate(t Tool, args string) (map[string]any, error) {
	if strings.TrimSpace(args) == "" {
		args = "{}"
	}
	var obj map[string]any
	if err := json.Unmarshal([]byte(args), &obj); err != nil {
		return nil, fmt.Errorf("the arguments are not a JSON object: %v", err)
	}
	if obj == nil {
		return nil, fmt.Errorf("the arguments are not a JSON object: null")
	}
	c, ok := v.cache.Get(t.Def)
	if !ok {
		c = compile(t.Def)
		v.cache.Add(t.Def, c)
	}
	if c.schema == nil {
		return obj, nil
	}
	if err := c.schema.Validate(obj); err != nil {
		return nil, fmt.Errorf("the arguments do not match the tool's input schema: %v", err)
	}
	return obj, nil
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

// Cap shortens text to at most max bytes, keeping the head and the tail
// with a marker in between that says how much was cut. It never splits a
// UTF-8 character.
func Cap(text string, limit int) string {
	if limit <= 0 || len(text) <= limit {
		return text
	}
	marker := func(cut int) string {
		return fmt.Sprintf("\n\n[… %s cut: the output was %s, limit %s …]\n\n", Size(cut), Size(len(text)), Size(limit))
	}
	room := limit - len(marker(len(text)))
	if room < 64 {
		room = min(64, limit)
	}
	head := runeStart(text, room*2/3)
	tail := runeEnd(text, len(text)-(room-head))
	return text[:head] + marker(tail-head) + text[tail:]
}

// runeStart moves i back to the start of a UTF-8 character.
func runeStart(s string, i int) int {
	i = min(max(i, 0), len(s))
	for i > 0 && i < len(s) && s[i]&0xC0 == 0x80 {
		i--
	}
	return i
}

// runeEnd moves i forward to the start of a UTF-8 character.
func runeEnd(s string, i int) int {
	i = min(max(i, 0), len(s))
	for i < len(s) && s[i]&0xC0 == 0x80 {
		i++
	}
	return i
}
