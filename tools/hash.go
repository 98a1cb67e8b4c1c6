package tools

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Hash is a short digest of a definition's JSON (as json.Marshal writes
// it): equal for equal definitions, different when anything in it
// changed. It is kept in the log with every pin and review, so it must
// not change for a definition that did not.
//
// The schemas, decoded from the server's JSON as plain maps, are written
// here in json.Marshal's own form (FuzzHashSchema checks that the bytes
// are the same) and handed to it as raw JSON: its reflection over maps of
// interfaces (each value copied out of the map) was a tenth of a
// catalog's time. Anything but plain JSON values goes to json.Marshal.
func Hash(d *sdk.Tool) string {
	c := *d
	var buf []byte
	for _, s := range []*any{&c.InputSchema, &c.OutputSchema} {
		m, ok := (*s).(map[string]any)
		if !ok {
			continue
		}
		start := len(buf)
		var good bool
		if buf, good = appendJSON(buf, m, 0); !good {
			c = *d
			break
		}
		*s = json.RawMessage(buf[start:len(buf):len(buf)])
	}
	data, err := json.Marshal(&c)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:16])
}

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
