package store

import (
	"database/sql/driver"
	"regexp"
	"strings"

	"modernc.org/sqlite"
)

// A message as the chat shows it, as far as search goes: its code blocks
// and its tables. The chat cuts a message at its fence lines (package
// transcript's splitter: a line that begins with ``` or ~~~, spaces
// aside, opens a code block, and one of the same three marks alone closes
// it) and shows the code between them as written, without the fence
// lines, the language after the opening one included; its find bar reads
// the code so. Package transcript reads the log (it imports this
// package), so the rule is written here again.

// codePart is a piece of a message: prose, or a code block's code.
type codePart struct {
	text string
	code bool
}

// codeParts cuts text into its prose and its code blocks, the fence lines
// left out.
func codeParts(text string) []codePart {
	if !hasFence(text) {
		return []codePart{{text: text}}
	}
	var out []codePart
	var b strings.Builder
	code, fence := false, ""
	flush := func() {
		if b.Len() > 0 {
			out = append(out, codePart{text: b.String(), code: code})
			b.Reset()
		}
	}
	for line := range strings.Lines(text) {
		trimmed := strings.TrimSpace(line)
		switch {
		case !code && isFence(trimmed):
			flush()
			code, fence = true, trimmed[:3]
		case code && strings.HasPrefix(trimmed, fence) && strings.Trim(trimmed, fence[:1]) == "":
			flush()
			code = false
		default:
			b.WriteString(line)
		}
	}
	flush()
	return out
}

func hasFence(text string) bool {
	return strings.Contains(text, "```") || strings.Contains(text, "~~~")
}

func isFence(line string) bool {
	return strings.HasPrefix(line, "```") || strings.HasPrefix(line, "~~~")
}

// withoutFences is a message's text without its fence lines: what search
// reads of it, as the chat's find bar does. (A fence's language, "python",
// found a chat whose find bar then said "No matches".)
func withoutFences(text string) string {
	if !hasFence(text) {
		return text
	}
	var b strings.Builder
	for i, p := range codeParts(text) {
		if i > 0 && !strings.HasSuffix(b.String(), "\n") {
			b.WriteByte('\n')
		}
		b.WriteString(p.text)
	}
	return b.String()
}

// cellSep is what a snippet shows between a table's cells (the chat
// draws them in columns).
const cellSep = " · "

// tableDelim is a table's delimiter row (GitHub's tables, as the chat's
// Markdown reads them): cells of dashes, with colons for the alignment.
var tableDelim = regexp.MustCompile(`^\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?$`)

// untable is prose with each table as the chat shows it, as far as a
// snippet goes: its cells apart, without the pipes and the delimiter row
// ("| Mars | 2 |" showed in the sidebar). A table is a line holding a
// pipe over a delimiter row of as many cells, and the lines holding a
// pipe after it.
func untable(prose string) string {
	if !strings.Contains(prose, "|") || !strings.Contains(prose, "-") {
		return prose
	}
	lines := strings.SplitAfter(prose, "\n")
	var b strings.Builder
	for i := 0; i < len(lines); i++ {
		head := strings.TrimSpace(lines[i])
		if i+1 >= len(lines) || !strings.Contains(head, "|") {
			b.WriteString(lines[i])
			continue
		}
		delim := strings.TrimSpace(lines[i+1])
		if !strings.Contains(delim, "-") || !tableDelim.MatchString(delim) || len(cells(delim)) != len(cells(head)) {
			b.WriteString(lines[i])
			continue
		}
		b.WriteString(strings.Join(cells(head), cellSep) + "\n")
		i += 2
		for ; i < len(lines); i++ {
			row := strings.TrimSpace(lines[i])
			if row == "" || !strings.Contains(row, "|") {
				break
			}
			b.WriteString(strings.Join(cells(row), cellSep) + "\n")
		}
		i-- // the line that ended it is looked at again
	}
	return b.String()
}

// cells are a table row's cells, trimmed: the row cut at its pipes (not
// one escaped, "\|", which shows as a pipe), its outer ones aside.
func cells(row string) []string {
	row = strings.TrimSpace(row)
	row = strings.TrimPrefix(row, "|")
	if strings.HasSuffix(row, "|") && !strings.HasSuffix(row, `\|`) {
		row = row[:len(row)-1]
	}
	var out []string
	var cell strings.Builder
	for i := 0; i < len(row); i++ {
		switch {
		case row[i] == '\\' && i+1 < len(row) && row[i+1] == '|':
			cell.WriteByte('|')
			i++
		case row[i] == '|':
			out = append(out, strings.TrimSpace(cell.String()))
			cell.Reset()
		default:
			cell.WriteByte(row[i])
		}
	}
	return append(out, strings.TrimSpace(cell.String()))
}

func init() {
	// deckhand_prose(x) is a message's text without its fence lines
	// (withoutFences), as search reads it; x itself when it has none.
	sqlite.MustRegisterDeterministicScalarFunction("deckhand_prose", 1, func(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
		switch v := args[0].(type) {
		case string:
			return withoutFences(v), nil
		case []byte:
			return withoutFences(string(v)), nil
		}
		return args[0], nil
	})
	// deckhand_has_prose(x, word) is deckhand_has(deckhand_prose(x), word)
	// without handing the text back to SQLite between the two.
	sqlite.MustRegisterDeterministicScalarFunction("deckhand_has_prose", 2, func(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
		text, word := argText(args[0]), argText(args[1])
		if containsFold(withoutFences(text), word) {
			return int64(1), nil
		}
		return int64(0), nil
	})
}
