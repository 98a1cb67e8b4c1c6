package config

import (
	"fmt"
	"strings"

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
		case c == '\\' && q == '"':
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
// list where a table is wanted.
func typeProblems(md toml.MetaData) []Problem {
	var out []Problem
	for _, k := range md.Keys() {
		typ := md.Type(k...)
		path := keyString(k)
		switch {
		case isDuration(k) && (typ == "Integer" || typ == "Float"):
			out = append(out, Problem{Key: path, Msg: fmt.Sprintf("a duration needs a unit: write %q (or \"%dms\", \"%dm\")", "60s", 500, 2)})
		case len(k) == 4 && k[0] == "mcp" && k[1] == "servers" && k[3] == "env" && typ != "Hash":
			out = append(out, Problem{Key: path, Msg: `env is a table of variables: write env = { NAME = "value" }`})
		}
	}
	return out
}

// isDuration reports whether a key holds a duration.
func isDuration(k toml.Key) bool {
	p := strings.Join(k, ".")
	switch p {
	case "model.stream_timeout", "mcp.approval_timeout", "mcp.tool_timeout", "mcp.connect_timeout", "mcp.reconnect.initial", "mcp.reconnect.max":
		return true
	}
	return len(k) == 4 && k[0] == "mcp" && k[1] == "servers" && (k[3] == "timeout" || k[3] == "connect_timeout")
}
