package store

import (
	"fmt"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// story is an answer of sentences "Sentence number N of a slow story."
// for N from 1 to 100, and storyWords the words of "number 78 of a slow".
var (
	story      = storyText(100)
	storyWords = SearchWords("number 78 of a slow")
)

func storyText(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "Sentence number %d of a slow story. ", i+1)
	}
	return b.String()
}

func TestSnippet(t *testing.T) {
	long := "The first part of a long message talks about many things at length before it names the Zebra in passing, and then goes on for a while about other matters entirely unrelated to it."
	for _, c := range []struct {
		name   string
		text   string
		words  []string
		phrase string
		want   Match
	}{
		{"none", "nothing here", []string{"zebra"}, "", Match{}},
		// As the chat shows it: "**bold**" showed in the sidebar.
		{"markdown's marks", "## Notes\nA **bold** zebra, `code` and _this_; snake_case and 2 * 3 stay.", []string{"zebra"}, "", Match{
			Snippet: "Notes A bold zebra, code and this; snake_case and 2 * 3 stay.", Marks: [][2]int{{13, 18}}}},
		// A table as the chat shows it, its cells apart, not its pipes:
		// "| Mars | 2 | no | | Saturn | 146 |" (new-user pass 15, N8).
		{"a table's cells", "Moons:\n\n| Planet | Moons | Rings |\n|:-------|------:|:-----:|\n| Mars | 2 | no |\n| Saturn | 146 | yes |\n\nThat is all.",
			[]string{"saturn", "146"}, "saturn 146", Match{
				Snippet: "…Moons · Rings Mars · 2 · no Saturn · 146 · yes That is all.", Marks: [][2]int{{34, 40}, {44, 47}}}},
		{"a table without its outer pipes", "a | b\n--- | ---\nzebra \\| horse | 3", []string{"zebra"}, "", Match{
			Snippet: "a · b zebra | horse · 3", Marks: [][2]int{{7, 12}}}},
		{"pipes that are no table", "a | b and c | d", []string{"b"}, "", Match{Snippet: "a | b and c | d", Marks: [][2]int{{4, 5}}}},
		// A code block as the chat shows it: its code, as written, without
		// the fences and their language ("print(add(2, 3)) ```").
		{"a code block", "Here:\n```python\ndef add(a, b):\n    return a + b\nprint(add(2, 3))\n```\nDone.", []string{"print(add"}, "", Match{
			Snippet: "…def add(a, b): return a + b print(add(2, 3)) Done.", Marks: [][2]int{{31, 40}}}},
		{"a code block keeps its marks", "~~~\ndef f(*args, **kwargs): _x = `y`\n~~~", []string{"kwargs"}, "", Match{
			Snippet: "def f(*args, **kwargs): _x = `y`", Marks: [][2]int{{15, 21}}}},
		{"a code block's language", "```python\nx = 1\n```", []string{"python"}, "", Match{}},
		{"a table in a code block", "```\n| a | b |\n|---|---|\n| zebra | 1 |\n```", []string{"zebra"}, "", Match{
			Snippet: "| a | b | |---|---| | zebra | 1 |", Marks: [][2]int{{22, 27}}}},
		{"short", "a Zebra!", []string{"zebra"}, "", Match{Snippet: "a Zebra!", Marks: [][2]int{{2, 7}}}},
		{"two words, lines joined", "Train to\nthe ALPS", []string{"alps", "train"}, "",
			Match{Snippet: "Train to the ALPS", Marks: [][2]int{{0, 5}, {13, 17}}}},
		{"beyond ASCII", "fahrt nach Zürich", []string{"zürich"}, "", Match{Snippet: "fahrt nach Zürich", Marks: [][2]int{{11, 18}}}},
		{"cut at words", long, []string{"zebra"}, "", Match{
			Snippet: "…at length before it names the Zebra in passing, and then goes on for a while about other matters entirely…",
			Marks:   [][2]int{{33, 38}},
		}},
		// The phrase as typed, whole: "number 78 of a slow" showed the
		// first sentence's words, the sidebar's cut "3 of a slow".
		{"the phrase, not its words apart", story, storyWords, "number 78 of a slow", Match{
			Snippet: "…77 of a slow story. Sentence number 78 of a slow story. Sentence number 79 of a slow story. Sentence number 80…",
			Marks:   [][2]int{{32, 51}},
		}},
		{"the phrase repeated, each marked", "Here it is: la la la. Then la, la la la la.", []string{"la"}, "la la la", Match{
			Snippet: "Here it is: la la la. Then la, la la la la.",
			Marks:   [][2]int{{12, 20}, {31, 39}},
		}},
		{"the phrase in another case", "Now WRITE a Poem, then write a poem again", []string{"write", "a", "poem"}, "write A POEM", Match{
			Snippet: "Now WRITE a Poem, then write a poem again",
			Marks:   [][2]int{{4, 16}, {23, 35}},
		}},
		{"the phrase beyond ASCII", "Straße nach ZÜRICH über BERN: die Fahrt nach Zürich über Bern", []string{"zürich", "über"}, "zürich über bern", Match{
			Snippet: "Straße nach ZÜRICH über BERN: die Fahrt nach Zürich über Bern",
			Marks:   [][2]int{{13, 31}, {48, 66}},
		}},
		// Spaces as typed, as the chat's find bar reads them: a line break
		// is not the space of "to the". The piece is on one line.
		{"the phrase across a line break", "Train to\n  the ALPS", []string{"to", "the"}, "to the", Match{
			Snippet: "Train to the ALPS", Marks: [][2]int{{6, 8}, {9, 12}},
		}},
		{"the phrase with its spaces", "Train  to the ALPS, to  the sea", []string{"to", "the"}, "to  the", Match{
			Snippet: "Train to the ALPS, to the sea", Marks: [][2]int{{19, 25}},
		}},
		{"the phrase not there: where most words are together", "zebra here. " + strings.Repeat("filler words go on. ", 8) + "a zebra and a robin",
			[]string{"zebra", "robin"}, "robin zebra", Match{
				Snippet: "…go on. filler words go on. a zebra and a robin",
				Marks:   [][2]int{{32, 37}, {44, 49}},
			}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := snippet(c.text, c.words, c.phrase)
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("snippet(%q, %q, %q) (-want +got):\n%s", c.text, c.words, c.phrase, diff)
			}
		})
	}
}

// FuzzSnippet: whatever the text and the query, the snippet is valid
// UTF-8, a piece of the text (its spaces joined) with "…" where it was
// cut, its marks in order, apart, on its runes; the phrase, when the text
// holds it, is the first mark, whole; a word found makes a snippet.
func FuzzSnippet(f *testing.F) {
	f.Add(story, "number 78 of a slow")
	f.Add("Here it is: la la la. Then la, la la la la.", "la la la")
	f.Add("Straße nach ZÜRICH über BERN", "zürich ÜBER bern")
	f.Add("Train to\n  the ALPS", "to the")
	f.Add("İstanbul KELVIN \xff\xfe bad", "i̇stanbul kelvin")
	f.Add("aaaa aaaa", "aa a")
	f.Add("| Mars | 2 |\n|---|--:|\n| Saturn \\| x | 146 |\n```go\n**kw** | a |\n````\ntail", "saturn 146")
	f.Fuzz(func(t *testing.T, text, query string) {
		words := SearchWords(query)
		phrase := fold(strings.TrimSpace(query))
		m := snippet(text, words, phrase)
		if !utf8.ValidString(m.Snippet) {
			t.Fatalf("snippet(%q, %q) = %q: not UTF-8", text, query, m.Snippet)
		}
		joined := strings.Join(strings.Fields(string(shown(text))), " ")
		piece := m.Snippet
		if strings.HasPrefix(piece, "…") && !strings.HasPrefix(joined, piece) {
			piece = strings.TrimPrefix(piece, "…")
		}
		if strings.HasSuffix(piece, "…") && !strings.Contains(joined, piece) {
			piece = strings.TrimSuffix(piece, "…")
		}
		if !strings.Contains(joined, piece) {
			t.Fatalf("snippet(%q, %q) = %q: not a piece of the text", text, query, m.Snippet)
		}
		at := 0
		for _, mk := range m.Marks {
			if mk[0] < at || mk[0] >= mk[1] || mk[1] > len(m.Snippet) ||
				!utf8.ValidString(m.Snippet[mk[0]:mk[1]]) || !utf8.RuneStart(m.Snippet[mk[0]]) ||
				mk[1] < len(m.Snippet) && !utf8.RuneStart(m.Snippet[mk[1]]) {
				t.Fatalf("snippet(%q, %q) marks %v in %q", text, query, m.Marks, m.Snippet)
			}
			at = mk[1]
		}
		lowText := strings.Map(unicode.ToLower, joined)
		together := strings.Join(strings.Fields(phrase), " ") // as the piece shows it
		if together != "" && strings.Contains(fold(string(shown(text))), phrase) && utf8.RuneCountInString(phrase) <= snippetRunes {
			if len(m.Marks) == 0 {
				t.Fatalf("snippet(%q, %q) = %q marks nothing, the text holding the phrase", text, query, m.Snippet)
			}
			mk := m.Marks[0]
			if got := strings.Map(unicode.ToLower, m.Snippet[mk[0]:mk[1]]); got != together {
				t.Fatalf("snippet(%q, %q) marks %q first, want the phrase %q", text, query, got, together)
			}
		}
		found := false
		for _, w := range words {
			found = found || strings.Contains(lowText, w)
		}
		if found && m.Snippet == "" {
			t.Fatalf("snippet(%q, %q) is empty, the text holding a word", text, query)
		}
	})
}
