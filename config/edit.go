package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"regexp"
	"slices"
	"strings"
	"time"
)

// Edit is one change to the config file: set Key in Table to Value, or
// (when Value is nil) remove it. Values are strings, ints, floats, bools or
// durations.
type Edit struct {
	Table string // "model", "mcp"
	Key   string
	Value any
}

// ErrNotEditable is returned when the file defines a table in a form that a
// line editor cannot change safely (inline, or with dotted keys).
var ErrNotEditable = errors.New("the config defines this table in a form Deckhand cannot edit (inline or with dotted keys): edit it by hand")

// Update applies edits to the config file at path, and replaces whole
// tables (such as mcp.auto_approve) with tables, keeping everything else in
// the file as it is, comments included. The result is validated before it
// replaces the file.
func Update(path string, edits []Edit, tables map[string]map[string]any) error {
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("reading config: %w", err)
	}
	lines := splitLines(string(data))
	for _, e := range edits {
		if lines, err = setKey(lines, e.Table, e.Key, e.Value); err != nil {
			return fmt.Errorf("%s: %s.%s: %w", path, e.Table, e.Key, err)
		}
	}
	names := make([]string, 0, len(tables))
	for name := range tables {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if lines, err = replaceTable(lines, name, tables[name]); err != nil {
			return fmt.Errorf("%s: %s: %w", path, name, err)
		}
	}
	next := []byte(strings.Join(lines, "\n"))
	if len(next) > 0 && !strings.HasSuffix(string(next), "\n") {
		next = append(next, '\n')
	}
	if _, err := Parse(path, next); err != nil {
		return fmt.Errorf("the change would not be valid: %w", err)
	}
	return writeFileAtomic(path, next)
}

func splitLines(s string) []string {
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

var headerRE = regexp.MustCompile(`^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$`)

// section finds a table's header line and the end of its section (the next
// header, or the end of the file). start is -1 when the table has no header.
func section(lines []string, table string) (start, end int, err error) {
	start = -1
	root := strings.SplitN(table, ".", 2)[0]
	inRoot := true
	for i, l := range lines {
		if m := headerRE.FindStringSubmatch(l); m != nil {
			inRoot = false
			name := normalizeKey(m[1])
			if start >= 0 {
				return start, i, nil
			}
			if name == normalizeKey(table) { // a model's price: [model.prices."claude-3.5"]
				start = i
			}
			continue
		}
		// A table defined inline or by dotted keys cannot be edited here.
		if inRoot && start < 0 {
			if k, _, ok := strings.Cut(strings.TrimSpace(l), "="); ok {
				k = normalizeKey(strings.TrimSpace(k))
				if k == root || strings.HasPrefix(k, root+".") {
					return -1, -1, ErrNotEditable
				}
			}
		}
	}
	if start >= 0 {
		return start, len(lines), nil
	}
	return -1, len(lines), nil
}

// normalizeKey drops quotes and spaces around the parts of a dotted key.
func normalizeKey(k string) string {
	parts := strings.Split(k, ".")
	for i, p := range parts {
		parts[i] = strings.Trim(strings.TrimSpace(p), `"'`)
	}
	return strings.Join(parts, ".")
}

func keyLine(l string) (string, bool) {
	t := strings.TrimSpace(l)
	if t == "" || strings.HasPrefix(t, "#") {
		return "", false
	}
	k, _, ok := strings.Cut(t, "=")
	if !ok {
		return "", false
	}
	return normalizeKey(k), true
}

func setKey(lines []string, table, key string, value any) ([]string, error) {
	start, end, err := section(lines, table)
	if err != nil {
		return nil, err
	}
	if start < 0 {
		if value == nil {
			return lines, nil
		}
		if len(lines) > 0 {
			lines = append(lines, "")
		}
		return append(lines, "["+table+"]", formatPair(key, value)), nil
	}
	last := start // the last line of the section that is not blank
	for i := start + 1; i < end; i++ {
		// The decoder matches keys to fields without regard to case; so does this.
		if k, ok := keyLine(lines[i]); ok && strings.EqualFold(k, key) {
			if value == nil {
				return slices.Delete(lines, i, i+1), nil
			}
			lines[i] = formatPair(key, value)
			return lines, nil
		}
		if strings.TrimSpace(lines[i]) != "" {
			last = i
		}
	}
	if value == nil {
		return lines, nil
	}
	return slices.Insert(lines, last+1, formatPair(key, value)), nil
}

func replaceTable(lines []string, table string, values map[string]any) ([]string, error) {
	start, end, err := section(lines, table)
	if err != nil {
		return nil, err
	}
	keys := make([]string, 0, len(values))
	for k := range values {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var pairs []string
	for _, k := range keys {
		pairs = append(pairs, formatPair(k, values[k]))
	}
	if start < 0 {
		if len(values) == 0 {
			return lines, nil
		}
		if len(lines) > 0 {
			lines = append(lines, "")
		}
		return append(append(lines, "["+table+"]"), pairs...), nil
	}
	// Keep comments and blank lines; drop the old keys; put the new ones
	// after the header.
	var kept []string
	for _, l := range lines[start+1 : end] {
		if _, ok := keyLine(l); !ok {
			kept = append(kept, l)
		}
	}
	out := append([]string{}, lines[:start+1]...)
	out = append(out, pairs...)
	out = append(out, kept...)
	return append(out, lines[end:]...), nil
}

func formatPair(key string, value any) string {
	return quoteKey(key) + " = " + formatValue(value)
}

func formatValue(v any) string {
	switch v := v.(type) {
	case string:
		return jsonString(v)
	case time.Duration:
		return jsonString(v.String())
	case bool:
		return fmt.Sprint(v)
	case int, int64, float64:
		return fmt.Sprint(v)
	case []string:
		return jsonStrings(v)
	}
	return jsonString(fmt.Sprint(v))
}
