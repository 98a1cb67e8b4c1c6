package config

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"reflect"
	"slices"
	"strings"
)

// ErrNoServer is returned when the config file has no server of that alias.
var ErrNoServer = errors.New("no such server in the config")

// The edits below change one server's table in the config file and keep
// every other line of it as it is, comments included. Each is checked
// before the file is replaced: the new text must be a valid config, and it
// must read back as the old one with exactly that change, so that a file
// whose layout the line editor misreads is never damaged.

// RemoveServer deletes the [mcp.servers.ALIAS] table from the config file
// at path, with its sub-tables ([mcp.servers.ALIAS.env]) and the comment
// lines just above its header. Rules that name the server elsewhere
// (mcp.auto_approve, mcp.eager) are left alone.
func RemoveServer(path, alias string) error {
	return editServers(path, alias, func(lines []string, spans []span, own int) ([]string, error) {
		return cutSpans(lines, spans, -1, nil), nil
	}, func(servers map[string]Server) {
		delete(servers, alias)
	})
}

// ReplaceServer writes srv in place of the [mcp.servers.ALIAS] table (its
// sub-tables go; the comment lines above its header stay), under newAlias,
// which may be alias itself. A newAlias already in the file is
// [ErrAliasExists].
func ReplaceServer(path, alias, newAlias string, srv Server) error {
	if err := CheckServer(newAlias, srv); err != nil {
		return err
	}
	var b strings.Builder
	writeServer(&b, newAlias, srv)
	table := splitLines(b.String())
	// What the table reads back as: the decoder's form of srv (nil and
	// empty lists alike), to compare the new file against.
	parsed, err := Parse(path, []byte(b.String()))
	if err != nil {
		return fmt.Errorf("the new entry would not be valid: %w", err)
	}
	want := parsed.MCP.Servers[newAlias]
	return editServers(path, alias, func(lines []string, spans []span, own int) ([]string, error) {
		if newAlias != alias {
			if _, _, err := findServer(lines, newAlias); err == nil {
				return nil, fmt.Errorf("%s: mcp.servers.%s: %w", path, newAlias, ErrAliasExists)
			}
		}
		return cutSpans(lines, spans, own, table), nil
	}, func(servers map[string]Server) {
		if newAlias != alias {
			delete(servers, alias)
		}
		servers[newAlias] = want
	})
}

// SetDisabledTools sets the server's disabled_tools to names (sorted; none
// removes the key).
func SetDisabledTools(path, alias string, names []string) error {
	names = slices.Compact(slices.Sorted(slices.Values(names)))
	return editServers(path, alias, func(lines []string, spans []span, own int) ([]string, error) {
		return setServerKey(lines, spans[own], "disabled_tools", names), nil
	}, func(servers map[string]Server) {
		srv := servers[alias]
		srv.DisabledTools = nil
		if len(names) > 0 {
			srv.DisabledTools = names
		}
		servers[alias] = srv
	})
}

// setServerKey sets key to a list in the table sp (none removes it): on
// the line it is on, or after the table's last line that is not blank or a
// comment.
func setServerKey(lines []string, sp span, key string, value []string) []string {
	last := sp.start
	for i := sp.start + 1; i < sp.end; i++ {
		if k, ok := keyLine(lines[i]); ok && strings.EqualFold(k, key) {
			if len(value) == 0 {
				return slices.Delete(lines, i, i+1)
			}
			lines[i] = formatPair(key, value)
			return lines
		}
		if t := strings.TrimSpace(lines[i]); t != "" && !strings.HasPrefix(t, "#") {
			last = i
		}
	}
	if len(value) == 0 {
		return lines
	}
	return slices.Insert(lines, last+1, formatPair(key, value))
}

// span is the lines [start, end) of one table.
type span struct{ start, end int }

// editServers reads the config at path, finds alias's tables (spans[own]
// is its own), lets edit change the lines, and writes the result if it reads back as the old
// config changed by want.
func editServers(path, alias string, edit func(lines []string, spans []span, own int) ([]string, error), want func(map[string]Server)) error {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s: mcp.servers.%s: %w", path, alias, ErrNoServer)
	}
	if err != nil {
		return fmt.Errorf("reading config: %w", err)
	}
	old, err := Parse(path, data)
	if err != nil {
		return err
	}
	if _, ok := old.MCP.Servers[alias]; !ok {
		return fmt.Errorf("%s: mcp.servers.%s: %w", path, alias, ErrNoServer)
	}
	lines := splitLines(string(data))
	own, spans, err := findServer(lines, alias)
	if err != nil {
		return fmt.Errorf("%s: mcp.servers.%s: %w", path, alias, err)
	}
	lines, err = edit(lines, spans, own)
	if err != nil {
		return err
	}
	next := []byte(strings.Join(lines, "\n"))
	if len(next) > 0 {
		next = append(next, '\n')
	}
	got, err := Parse(path, next)
	if err != nil {
		return fmt.Errorf("the change would not be valid: %w", err)
	}
	expect := *old
	expect.MCP.Servers = maps.Clone(old.MCP.Servers)
	want(expect.MCP.Servers)
	if len(expect.MCP.Servers) == 0 {
		expect.MCP.Servers = nil
	}
	if len(got.MCP.Servers) == 0 {
		got.MCP.Servers = nil
	}
	if !reflect.DeepEqual(&expect, got) {
		return fmt.Errorf("%s: mcp.servers.%s: %w", path, alias, ErrNotEditable)
	}
	return writeFileAtomic(path, next)
}

// findServer finds the tables of alias: its own (first) and its
// sub-tables. A server defined without a header of its own (inline, or by
// dotted keys) is ErrNotEditable; none at all is ErrNoServer.
func findServer(lines []string, alias string) (main int, spans []span, err error) {
	table := "mcp.servers." + alias
	main = -1
	open := -1 // the start of the span being read
	for i, l := range lines {
		m := headerRE.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		if open >= 0 {
			spans = append(spans, span{open, i})
			open = -1
		}
		name := normalizeKey(m[1])
		if name == table || strings.HasPrefix(name, table+".") {
			open = i
			if name == table && main < 0 {
				main = len(spans)
			}
		}
	}
	if open >= 0 {
		spans = append(spans, span{open, len(lines)})
	}
	switch {
	case main >= 0:
		return main, spans, nil
	case len(spans) > 0 || mentions(lines, alias):
		return -1, nil, ErrNotEditable
	}
	return -1, nil, ErrNoServer
}

// mentions reports whether a line outside any header names alias as a key
// (fs = { … } under [mcp.servers], or mcp.servers.fs.command = …).
func mentions(lines []string, alias string) bool {
	for _, l := range lines {
		if k, ok := keyLine(l); ok && (k == alias || strings.HasPrefix(k, alias+".") || strings.Contains(k, "servers."+alias)) {
			return true
		}
	}
	return false
}

// cutSpans removes the spans from lines, the comment lines attached above
// each header with them, and puts table where spans[at] was (its attached
// comments then stay). The comments attached to the header that
// follows a span stay with it. Blank lines are left as they were, but for
// those a cut would double.
func cutSpans(lines []string, spans []span, at int, table []string) []string {
	isComment := func(l string) bool { return strings.HasPrefix(strings.TrimSpace(l), "#") }
	blank := func(l string) bool { return strings.TrimSpace(l) == "" }
	var out []string
	cut := false
	add := func(seg []string) {
		for cut && len(seg) > 0 && blank(seg[0]) && (len(out) == 0 || blank(out[len(out)-1])) {
			seg = seg[1:]
		}
		out = append(out, seg...)
	}
	next := 0
	for i, sp := range spans {
		start, end := sp.start, sp.end
		if i != at {
			for start > next && isComment(lines[start-1]) {
				start--
			}
		}
		if end < len(lines) {
			for end > sp.start+1 && isComment(lines[end-1]) {
				end--
			}
		}
		add(lines[next:start])
		cut = true
		if i == at {
			out = append(out, table...)
			if end < len(lines) {
				out = append(out, "")
			}
		}
		next = end
	}
	add(lines[next:])
	if cut && next == len(lines) {
		for len(out) > 0 && blank(out[len(out)-1]) {
			out = out[:len(out)-1]
		}
	}
	return out
}
