package config

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
)

// Limits on a config file, checked before it is parsed: a config is a page
// of settings, and a file far larger or deeper than that is a mistake (or
// an attack on the parser: 8,000 nested inline tables in 48 KB took the
// TOML parser 3 GB and 12 s).
const (
	MaxFileSize = 1 << 20 // bytes
	MaxDepth    = 32      // nested arrays and inline tables
)

// checkShape refuses a file over MaxFileSize or nested deeper than
// MaxDepth, without parsing it.
func checkShape(data []byte) *Problem {
	if len(data) > MaxFileSize {
		return &Problem{Msg: fmt.Sprintf("the file is %d bytes, more than a config can be (%d at most)", len(data), MaxFileSize)}
	}
	if line, ok := depthWithin(data, MaxDepth); !ok {
		return &Problem{Line: line, Msg: fmt.Sprintf("arrays and tables are nested more than %d deep", MaxDepth)}
	}
	return nil
}

// depthWithin scans TOML text once and reports whether its brackets and
// braces (outside strings and comments) never nest deeper than limit; when
// they do, line is where. Table headers count too ([a] is one, [[a]] two),
// which is harmless: they close at once.
func depthWithin(data []byte, limit int) (line int, ok bool) {
	depth, line := 0, 1
	for i := 0; i < len(data); i++ {
		switch c := data[i]; c {
		case '\n':
			line++
		case '#':
			for i < len(data) && data[i] != '\n' {
				i++
			}
			i-- // let the newline be counted
		case '"', '\'':
			end, lines := skipString(data, i)
			i, line = end, line+lines
		case '[', '{':
			depth++
			if depth > limit {
				return line, false
			}
		case ']', '}':
			if depth > 0 {
				depth--
			}
		}
	}
	return line, true
}

// skipString returns the index of the last byte of the string starting at
// data[i] (basic or literal, single- or multi-line), and how many newlines
// it holds. An unterminated string runs to the end (the parser will say).
func skipString(data []byte, i int) (end, lines int) {
	q := data[i]
	multi := i+2 < len(data) && data[i+1] == q && data[i+2] == q
	if multi {
		i += 3
	} else {
		i++
	}
	for ; i < len(data); i++ {
		c := data[i]
		switch {
		case c == '\\' && q == '"' && (multi || i+1 >= len(data) || data[i+1] != '\n'):
			// In a single-line string a backslash cannot escape the newline
			// (the parser stops there too), so that case falls to the next.
			if i+1 < len(data) && data[i+1] == '\n' {
				lines++
			}
			i++
		case c == '\n':
			lines++
			if !multi {
				return i - 1, lines - 1 // a single-line string ends at the line; the newline is counted by the caller
			}
		case c == q:
			if !multi {
				return i, lines
			}
			if i+2 < len(data) && data[i+1] == q && data[i+2] == q {
				// Up to two more quotes may belong to the string.
				j := i + 3
				for j < len(data) && j < i+5 && data[j] == q {
					j++
				}
				return j - 1, lines
			}
		}
	}
	return len(data) - 1, lines
}

// typeProblems finds values of the wrong TOML type that the decoder would
// take silently: a bare number for a duration (read as nanoseconds), and a
// list where a table is wanted. The values, needed only to write the fix,
// come from decoding data a second time, which happens only on a problem.
func typeProblems(md toml.MetaData, data []byte) []Problem {
	var out []Problem
	var raw map[string]any
	value := func(k toml.Key) any {
		if raw == nil {
			raw = map[string]any{}
			toml.Decode(string(data), &raw) // already parsed once; an error leaves what it has
		}
		return lookup(raw, k)
	}
	for _, k := range md.Keys() {
		typ := md.Type(k...)
		path := keyString(k)
		switch {
		case (typ == "Integer" || typ == "Float") && fieldType(k) == durationType:
			out = append(out, Problem{Key: path, Msg: durationFix(value(k))})
		case len(k) == 4 && k[0] == "mcp" && k[1] == "servers" && k[3] == "env" && typ != "Hash":
			out = append(out, Problem{Key: path, Msg: "env must be a table of variables: write " + envFix(value(k))})
		case typ != "Hash" && fieldType(k) != nil && fieldType(k).Kind() == reflect.Map:
			out = append(out, Problem{Key: path, Msg: k[len(k)-1] + " must be a table, not " + article(strings.ToLower(typ)) + ": write " + tableFix(k[len(k)-1], fieldType(k), value(k))})
		}
	}
	return out
}

var durationType = reflect.TypeFor[time.Duration]()

// fieldType is the Go type a key decodes into, found by following the
// toml tags from Config, so a duration field added later is checked too;
// nil when the key is unknown.
func fieldType(k toml.Key) reflect.Type {
	t := reflect.TypeFor[Config]()
	for _, part := range k {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
			t = t.Elem()
		}
		switch t.Kind() {
		case reflect.Map:
			t = t.Elem()
		case reflect.Struct:
			f, ok := fieldByTag(t, part)
			if !ok {
				return nil
			}
			t = f.Type
		default:
			return nil
		}
	}
	return t
}

func fieldByTag(t reflect.Type, name string) (reflect.StructField, bool) {
	for i := range t.NumField() {
		f := t.Field(i)
		if tag, _, _ := strings.Cut(f.Tag.Get("toml"), ","); tag == name {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

// durationFix says how to write a bare number n as a duration.
func durationFix(n any) string {
	num := fmt.Sprint(n)
	switch n := n.(type) {
	case float64:
		num = strconv.FormatFloat(n, 'f', -1, 64)
	case nil:
		num = "60"
	}
	return fmt.Sprintf("a duration needs a unit: write %q, not %s (or \"500ms\", \"2m\")", num+"s", num)
}

// envFix writes env as a table, from a list of NAME=value strings when it
// is one.
func envFix(v any) string {
	list, ok := v.([]any)
	if !ok || len(list) == 0 {
		return `env = { NAME = "value" }`
	}
	var parts []string
	for _, e := range list {
		s, ok := e.(string)
		name, val, found := strings.Cut(s, "=")
		if !ok || !found {
			return `env = { NAME = "value" }`
		}
		parts = append(parts, quoteKey(name)+" = "+jsonString(val))
	}
	return "env = { " + strings.Join(parts, ", ") + " }"
}

func article(noun string) string {
	if noun != "" && strings.ContainsRune("aeiou", rune(noun[0])) {
		return "an " + noun
	}
	return "a " + noun
}

// tableFix writes a list of names as the table a map of booleans wants
// (auto_approve = { "fs.*" = true }), or says what a table looks like.
func tableFix(key string, t reflect.Type, v any) string {
	list, ok := v.([]any)
	if !ok || len(list) == 0 || t.Elem().Kind() != reflect.Bool {
		return key + ` = { NAME = value }`
	}
	var parts []string
	for _, e := range list {
		s, ok := e.(string)
		if !ok {
			return key + ` = { NAME = true }`
		}
		parts = append(parts, jsonString(s)+" = true")
	}
	return key + " = { " + strings.Join(parts, ", ") + " }"
}

// lookup finds the value at k in a decoded document.
func lookup(m map[string]any, k toml.Key) any {
	var v any = m
	for _, part := range k {
		t, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = t[part]
	}
	return v
}
