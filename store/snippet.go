package store

import (
	"context"
	"fmt"
	"strings"
	"unicode"
)

// Match is where a search found its words in a session: a short piece of
// the first message that holds the most of them, for the person to see
// why the session was found.
type Match struct {
	// Snippet is the piece, on one line, with "…" where it was cut; ""
	// when only the title matched.
	Snippet string
	// Marks are the byte ranges of the words in Snippet, in order.
	Marks [][2]int
	// Run is the run whose message or answer the snippet is from ("" when
	// unknown): it may be a version of a message other than the one shown.
	Run string
}

// snippetRunes is about how long a snippet is; snippetBefore how much of
// it comes before the first word found.
const (
	snippetRunes  = 110
	snippetBefore = 30
	// matchScan bounds the messages read to choose the snippet's.
	matchScan = 50
)

// searchMatch finds where words are in session id's messages: the first
// message that holds them all as written together (phrase, folded), else
// the first that holds the most of them. Opening the match shows its run
// and looks for the words there: "write a poem" chose a version holding
// the three words apart, where the find bar could only find "a".
func (db *DB) searchMatch(ctx context.Context, id string, words []string, phrase string) (Match, error) {
	kinds := strings.Repeat("?, ", len(SearchedKinds)-1) + "?"
	var ors []string
	args := []any{id}
	for _, k := range SearchedKinds {
		args = append(args, k)
	}
	for _, w := range words {
		ors = append(ors, `instr(deckhand_fold(json_extract(data_json, '$.text')), ?) > 0`)
		args = append(args, w)
	}
	args = append(args, matchScan)
	rows, err := db.sql.QueryContext(ctx, `SELECT json_extract(data_json, '$.text'), coalesce(run_id, '') FROM events
		WHERE session_id = ? AND kind IN (`+kinds+`) AND json_valid(data_json) AND (`+strings.Join(ors, " OR ")+`)
		ORDER BY ts, rowid LIMIT ?`, args...)
	if err != nil {
		return Match{}, fmt.Errorf("finding the match in session %s: %w", id, err)
	}
	defer rows.Close()
	best, run, most := "", "", 0
	for rows.Next() {
		var text, in string
		if err := rows.Scan(&text, &in); err != nil {
			return Match{}, fmt.Errorf("finding the match in session %s: %w", id, err)
		}
		n := 0
		f := fold(text)
		for _, w := range words {
			if strings.Contains(f, w) {
				n++
			}
		}
		if n == len(words) && phrase != "" && strings.Contains(f, phrase) {
			n++ // the words together, as typed
		}
		if n > most {
			best, run, most = text, in, n
		}
	}
	if err := rows.Err(); err != nil {
		return Match{}, fmt.Errorf("finding the match in session %s: %w", id, err)
	}
	m := snippet(best, words)
	if m.Snippet != "" {
		m.Run = run
	}
	return m, nil
}

// PhraseRun is the first run of session (in the log's order), other than
// the runs in skip, whose message or answer holds phrase, case ignored:
// the version of a message a find bar's words are in when the versions
// shown (skip) do not hold them. "" when none does.
func (db *DB) PhraseRun(ctx context.Context, session, phrase string, skip []string) (string, error) {
	phrase = fold(phrase)
	if strings.TrimSpace(phrase) == "" {
		return "", nil
	}
	kinds := strings.Repeat("?, ", len(SearchedKinds)-1) + "?"
	args := []any{session}
	for _, k := range SearchedKinds {
		args = append(args, k)
	}
	args = append(args, phrase)
	rows, err := db.sql.QueryContext(ctx, `SELECT coalesce(run_id, '') FROM events
		WHERE session_id = ? AND kind IN (`+kinds+`) AND json_valid(data_json)
		AND instr(deckhand_fold(json_extract(data_json, '$.text')), ?) > 0
		ORDER BY ts, rowid`, args...)
	if err != nil {
		return "", fmt.Errorf("finding %q in session %s: %w", phrase, session, err)
	}
	defer rows.Close()
	for rows.Next() {
		var run string
		if err := rows.Scan(&run); err != nil {
			return "", fmt.Errorf("finding %q in session %s: %w", phrase, session, err)
		}
		if run != "" && !contains(skip, run) {
			return run, nil
		}
	}
	if err := rows.Err(); err != nil {
		return "", fmt.Errorf("finding %q in session %s: %w", phrase, session, err)
	}
	return "", nil
}

// snippet cuts a piece of text around the first of words found in it, and
// marks every word found in the piece. Case is ignored rune by rune, so a
// place in the folded text is a place in the text.
func snippet(text string, words []string) Match {
	r := []rune(strings.Join(strings.Fields(strings.ToValidUTF8(text, "\uFFFD")), " "))
	low := make([]rune, len(r))
	for i, c := range r {
		low[i] = unicode.ToLower(c)
	}
	type span struct{ from, to int }
	var spans []span
	for _, w := range words {
		q := []rune(w)
		for i := 0; len(q) > 0 && i+len(q) <= len(low); i++ {
			if string(low[i:i+len(q)]) == w {
				spans = append(spans, span{i, i + len(q)})
				i += len(q) - 1
			}
		}
	}
	if len(spans) == 0 {
		return Match{}
	}
	first := spans[0]
	for _, s := range spans {
		if s.from < first.from {
			first = s
		}
	}
	start := max(0, first.from-snippetBefore)
	for start > 0 && start < first.from && r[start-1] != ' ' { // begin at a word
		start++
	}
	end := min(len(r), start+snippetRunes)
	for end < len(r) && end > first.to && r[end] != ' ' { // end at a word
		end--
	}
	end = max(end, first.to)
	var b strings.Builder
	if start > 0 {
		b.WriteString("…")
	}
	off := b.Len()
	piece := string(r[start:end])
	b.WriteString(piece)
	if end < len(r) {
		b.WriteString("…")
	}
	m := Match{Snippet: b.String()}
	byteAt := func(i int) int { return off + len(string(r[start:i])) }
	var marks [][2]int
	for _, s := range spans {
		if s.from >= start && s.to <= end {
			marks = append(marks, [2]int{byteAt(s.from), byteAt(s.to)})
		}
	}
	// In order, none overlapping (two words may share letters).
	for i := 1; i < len(marks); i++ {
		for j := i; j > 0 && marks[j][0] < marks[j-1][0]; j-- {
			marks[j], marks[j-1] = marks[j-1], marks[j]
		}
	}
	for _, mk := range marks {
		if n := len(m.Marks); n > 0 && mk[0] < m.Marks[n-1][1] {
			m.Marks[n-1][1] = max(m.Marks[n-1][1], mk[1])
			continue
		}
		m.Marks = append(m.Marks, mk)
	}
	return m
}
