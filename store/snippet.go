package store

import (
	"context"
	"fmt"
	"slices"
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
	// Tool names the tool whose result the snippet is from; "" for a
	// message.
	Tool string
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
	var best, run string
	var tool *string
	most := 0
	// The messages first; the tools' results (longer, and more of them)
	// only when no message holds every word: a message is the match
	// before a result holding as many, what the person or the model wrote
	// saying more of the chat.
	for _, kinds := range [][]string{MessageKinds, ResultKinds} {
		if most >= len(words) {
			break
		}
		args := []any{id}
		for _, k := range kinds {
			args = append(args, k)
		}
		text, prose := searchedText("events"), searchedProse("events")
		var ors []string
		for _, w := range words {
			ors = append(ors, `deckhand_has(`+prose+`, ?)`)
			args = append(args, []byte(w))
		}
		args = append(args, matchScan)
		rows, err := db.sql.QueryContext(ctx, `SELECT `+text+`, coalesce(run_id, ''), CASE WHEN kind IN ('`+ResultKinds[0]+`', '`+ResultKinds[1]+`')
			THEN coalesce(json_extract(data_json, '$.tool'), '') END FROM events
			WHERE session_id = ? AND kind IN (`+strings.Repeat("?, ", len(kinds)-1)+`?) AND json_valid(data_json) AND (`+strings.Join(ors, " OR ")+`)
			ORDER BY ts, rowid LIMIT ?`, args...)
		if err != nil {
			return Match{}, fmt.Errorf("finding the match in session %s: %w", id, err)
		}
		for rows.Next() {
			var text, in string
			var from *string // the tool, for a result
			if err := rows.Scan(&text, &in, &from); err != nil {
				rows.Close()
				return Match{}, fmt.Errorf("finding the match in session %s: %w", id, err)
			}
			n := 0
			f := fold(text)
			if from == nil { // a message: as search read it
				f = fold(withoutFences(text))
			}
			for _, w := range words {
				if strings.Contains(f, w) {
					n++
				}
			}
			if n == len(words) && phrase != "" && strings.Contains(f, phrase) {
				n++ // the words together, as typed
			}
			if n > most {
				best, run, tool, most = text, in, from, n
			}
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return Match{}, fmt.Errorf("finding the match in session %s: %w", id, err)
		}
	}
	m := snippet(best, words, phrase)
	if m.Snippet != "" {
		m.Run = run
		if tool != nil {
			m.Tool = *tool
			if m.Tool == "" {
				m.Tool = "a tool" // a log that did not name it
			}
		}
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
	args = append(args, []byte(phrase))
	rows, err := db.sql.QueryContext(ctx, `SELECT coalesce(run_id, '') FROM events
		WHERE session_id = ? AND kind IN (`+kinds+`) AND json_valid(data_json)
		AND deckhand_has(`+searchedProse("events")+`, ?)
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

// markup reports whether text[i] is a mark of Markdown's, not shown in
// the chat: an emphasis or code mark (*, _, `) at a word's edge ("**bold**",
// "`code`", "_this_;", not "snake_case" or "2 * 3"), or a heading's # at a line's
// start. (The sidebar showed "**bold**" where the chat shows "bold".)
func markup(text []rune, i int) bool {
	edge := func(j int) bool {
		return j < 0 || j >= len(text) || unicode.IsSpace(text[j]) || unicode.IsPunct(text[j]) || unicode.IsSymbol(text[j])
	}
	switch c := text[i]; {
	case c == '#':
		j := i
		for j > 0 && text[j-1] == '#' {
			j--
		}
		k := i
		for k+1 < len(text) && text[k+1] == '#' {
			k++
		}
		return (j == 0 || text[j-1] == '\n') && k+1 < len(text) && text[k+1] == ' '
	case isMark(c):
		// A run of marks touching a word on one side only.
		j, k := i, i
		for j > 0 && isMark(text[j-1]) {
			j--
		}
		for k+1 < len(text) && isMark(text[k+1]) {
			k++
		}
		return edge(j-1) != edge(k+1)
	}
	return false
}

// shown is text as the chat shows it, as far as a snippet goes: valid
// UTF-8, without Markdown's marks (a code block's code as written, without
// its fence lines; a table's cells apart, without its pipes).
func shown(text string) []rune {
	var out []rune
	for _, p := range codeParts(strings.ToValidUTF8(text, "\uFFFD")) {
		if len(out) > 0 && out[len(out)-1] != '\n' {
			out = append(out, '\n')
		}
		if p.code {
			out = append(out, []rune(p.text)...)
			continue
		}
		in := []rune(untable(p.text))
		for i, c := range in {
			if !markup(in, i) {
				out = append(out, c)
			}
		}
	}
	return out
}

func isMark(c rune) bool { return c == '*' || c == '_' || c == '`' }

// snippet cuts a piece of text around where the search found it, and
// marks what it found there. The phrase (the query as typed, folded; ""
// for none) found whole is the place, as the chat's find bar finds it
// (spaces as typed), and each time it shows in the piece it is marked
// whole: "number 78 of a slow" in a story of sentences "number N of a
// slow story" showed the first sentence's "number", "of", "a" and "slow",
// cut by the sidebar to "3 of a slow". Else the place is where the most
// of words come together, each found marked. Case is ignored rune by
// rune, so a place in the folded text is a place in the text. The piece
// is on one line: each run of spaces and line breaks is one space.
func snippet(text string, words []string, phrase string) Match {
	orig := shown(text)
	// r is the text on one line, at[i] where orig[i] is in it (a space
	// run's every rune at its one space).
	r := make([]rune, 0, len(orig))
	at := make([]int, len(orig))
	for i, c := range orig {
		switch {
		case !unicode.IsSpace(c):
			r = append(r, c)
		case len(r) > 0 && r[len(r)-1] != ' ' && i+1 < len(orig) && !unicode.IsSpace(orig[i+1]):
			r = append(r, ' ')
		}
		at[i] = max(len(r)-1, 0)
	}
	low := make([]rune, len(r))
	for i, c := range r {
		low[i] = unicode.ToLower(c)
	}
	var spans []span
	if q := []rune(fold(phrase)); strings.TrimSpace(phrase) != "" {
		origLow := make([]rune, len(orig))
		for i, c := range orig {
			origLow[i] = unicode.ToLower(c)
		}
		for _, s := range find(origLow, q, 0) {
			spans = append(spans, span{at[s.from], at[s.to-1] + 1, 0})
		}
	}
	phrased := len(spans) > 0
	if !phrased {
		for i, w := range words {
			spans = append(spans, find(low, []rune(fold(w)), i)...)
		}
		slices.SortStableFunc(spans, func(a, b span) int { return a.from - b.from })
	}
	if len(spans) == 0 {
		return Match{}
	}
	first := spans[0]
	if !phrased {
		first = densest(spans)
	}
	start := max(0, first.from-snippetBefore)
	for start > 0 && start < first.from && r[start-1] != ' ' { // begin at a word
		start++
	}
	if sep := []rune(cellSep)[1:]; start > 0 && start+len(sep) <= first.from && slices.Equal(r[start:start+len(sep)], sep) {
		start += len(sep) // at a table's cell, not the mark between two
	}
	end := min(len(r), start+snippetRunes)
	for end < len(r) && end > first.to && r[end] != ' ' { // end at a word
		end--
	}
	// The place shows whole, up to a bound: a pasted page found whole
	// would be a snippet as long.
	end = min(max(end, first.to), len(r), start+maxSnippetRunes)
	var b strings.Builder
	if start > 0 {
		b.WriteString("…")
	}
	off := b.Len()
	b.WriteString(string(r[start:end]))
	if end < len(r) {
		b.WriteString("…")
	}
	m := Match{Snippet: b.String()}
	byteAt := func(i int) int { return off + len(string(r[start:i])) }
	for _, s := range spans {
		from, to := max(s.from, start), min(s.to, end)
		if from >= to || !phrased && (from != s.from || to != s.to) {
			continue // outside the piece, or a word cut by its edge (a phrase is cut only by the bound)
		}
		mk := [2]int{byteAt(from), byteAt(to)}
		// In order, none overlapping (two words may share letters).
		if n := len(m.Marks); n > 0 && mk[0] < m.Marks[n-1][1] {
			m.Marks[n-1][1] = max(m.Marks[n-1][1], mk[1])
			continue
		}
		m.Marks = append(m.Marks, mk)
	}
	return m
}

// maxSnippetRunes bounds a snippet whose place alone is longer than
// snippetRunes.
const maxSnippetRunes = 2 * snippetRunes

// span is a place in a text, in runes: [from, to), of the word-th word
// looked for.
type span struct{ from, to, word int }

// find is where q is in text, each time, not overlapping.
func find(text, q []rune, word int) []span {
	var out []span
	for i := 0; len(q) > 0 && i+len(q) <= len(text); i++ {
		if slices.Equal(text[i:i+len(q)], q) {
			out = append(out, span{i, i + len(q), word})
			i += len(q) - 1
		}
	}
	return out
}

// densest is the span (of spans, in order) that begins the piece of text
// holding the most different words found (a snippet's length after it),
// the first such. One pass, the piece sliding along: a long answer holds
// a short word thousands of times.
func densest(spans []span) span {
	best, most := spans[0], 0
	count := map[int]int{} // in the piece: the times each word is
	j := 0
	for i, s := range spans {
		for ; j < len(spans) && spans[j].to <= s.from+snippetRunes-snippetBefore; j++ {
			count[spans[j].word]++
		}
		if len(count) > most {
			best, most = s, len(count)
		}
		if j > i { // s leaves the piece
			if count[s.word]--; count[s.word] == 0 {
				delete(count, s.word)
			}
		} else {
			j = i + 1 // s alone is longer than the piece: it never came in
		}
	}
	return best
}
