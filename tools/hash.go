package tools

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"sync"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Hash is a short digest of a definition's JSON (as json.Marshal writes
// it): equal for equal definitions, different when anything in it
// changed. It is kept in the log with every pin and review, so it must
// not change for a definition that did not.
//
// The definition is written here in json.Marshal's own form (the fields
// of sdk.Tool in their order, TestToolFields; FuzzHash checks the bytes
// against json.Marshal's): its reflection over the struct and over the
// schemas' maps of interfaces (each value copied out of the map), and its
// second pass over the schemas' bytes, were a sixth of a catalog's time.
// The annotations and icons, typed structs, go to json.Marshal, and a
// definition with anything but plain JSON values in its schemas or _meta
// goes to it whole.
func Hash(d *sdk.Tool) string {
	data, ok := appendTool(make([]byte, 0, 512), d)
	if !ok {
		var err error
		if data, err = json.Marshal(d); err != nil {
			return ""
		}
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:16])
}

// appendTool appends d as json.Marshal writes it; false when it holds
// what only json.Marshal writes.
func appendTool(b []byte, d *sdk.Tool) ([]byte, bool) {
	ok := true
	field := func(name string) {
		if b[len(b)-1] != '{' {
			b = append(b, ',')
		}
		b = append(b, '"')
		b = append(b, name...)
		b = append(b, '"', ':')
	}
	value := func(v any) {
		if ok {
			b, ok = appendJSON(b, v, 0)
		}
	}
	marshal := func(v any) {
		data, err := json.Marshal(v)
		ok = ok && err == nil
		b = append(b, data...)
	}
	b = append(b, '{')
	if len(d.Meta) > 0 {
		field("_meta")
		value(map[string]any(d.Meta))
	}
	if d.Annotations != nil {
		field("annotations")
		if annotationsPlain() {
			b = appendAnnotations(b, d.Annotations)
		} else {
			marshal(d.Annotations)
		}
	}
	if d.Description != "" {
		field("description")
		b = appendJSONString(b, d.Description)
	}
	field("inputSchema")
	value(d.InputSchema)
	field("name")
	b = appendJSONString(b, d.Name)
	if d.OutputSchema != nil {
		field("outputSchema")
		value(d.OutputSchema)
	}
	if d.Title != "" {
		field("title")
		b = appendJSONString(b, d.Title)
	}
	if len(d.Icons) > 0 {
		field("icons")
		marshal(d.Icons)
	}
	return append(b, '}'), ok
}

// appendAnnotations appends a as the SDK's ToolAnnotations.MarshalJSON
// writes it by default (both hints that are not pointers always written):
// through reflection, a twentieth of a catalog's time.
func appendAnnotations(b []byte, a *sdk.ToolAnnotations) []byte {
	b = append(b, '{')
	if a.DestructiveHint != nil {
		b = append(b, `"destructiveHint":`...)
		b = strconv.AppendBool(b, *a.DestructiveHint)
		b = append(b, ',')
	}
	b = append(b, `"idempotentHint":`...)
	b = strconv.AppendBool(b, a.IdempotentHint)
	if a.OpenWorldHint != nil {
		b = append(b, `,"openWorldHint":`...)
		b = strconv.AppendBool(b, *a.OpenWorldHint)
	}
	b = append(b, `,"readOnlyHint":`...)
	b = strconv.AppendBool(b, a.ReadOnlyHint)
	if a.Title != "" {
		b = append(b, `,"title":`...)
		b = appendJSONString(b, a.Title)
	}
	return append(b, '}')
}

// annotationsPlain says whether the SDK writes annotations in the form
// appendAnnotations writes: not when MCPGODEBUG=hintomitempty=1 asks for
// the older one (false hints left out), nor should a later SDK change it.
var annotationsPlain = sync.OnceValue(func() bool {
	t := true
	for _, a := range []sdk.ToolAnnotations{{}, {DestructiveHint: &t, OpenWorldHint: &t, ReadOnlyHint: true, IdempotentHint: true, Title: "<a & b>"}} {
		want, err := json.Marshal(&a)
		if err != nil || string(appendAnnotations(nil, &a)) != string(want) {
			return false
		}
	}
	return true
})

// appendJSON appends v as json.Marshal writes it (HTML characters escaped,
// map keys sorted), for the values json.Unmarshal makes into an any; false
// for any other, or too deep a value.
func appendJSON(b []byte, v any, depth int) ([]byte, bool) {
	if depth > 64 {
		return b, false
	}
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), true
	case bool:
		return strconv.AppendBool(b, x), true
	case string:
		return appendJSONString(b, x), true
	case float64:
		return appendJSONFloat(b, x)
	case []any:
		if x == nil {
			return append(b, "null"...), true
		}
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			var ok bool
			if b, ok = appendJSON(b, e, depth+1); !ok {
				return b, false
			}
		}
		return append(b, ']'), true
	case map[string]any:
		if x == nil {
			return append(b, "null"...), true
		}
		var small [16]string
		keys := small[:0]
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, k)
			b = append(b, ':')
			var ok bool
			if b, ok = appendJSON(b, x[k], depth+1); !ok {
				return b, false
			}
		}
		return append(b, '}'), true
	}
	return b, false
}

// appendJSONFloat is encoding/json's float64 form: the shortest that
// reads back the same, in exponent form below 1e-6 and from 1e21.
func appendJSONFloat(b []byte, f float64) ([]byte, bool) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return b, false
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// e-09 as e-9, as encoding/json writes it
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b, true
}

// appendJSONString is encoding/json's string form with HTML escaping: ",
// \ and control characters escaped, <, > and & as \u003c..., invalid
// UTF-8 as \ufffd, U+2028 and U+2029 escaped.
func appendJSONString(b []byte, s string) []byte {
	const hexDigits = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
