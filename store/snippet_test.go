package store

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSnippet(t *testing.T) {
	long := "The first part of a long message talks about many things at length before it names the Zebra in passing, and then goes on for a while about other matters entirely unrelated to it."
	for _, c := range []struct {
		name  string
		text  string
		words []string
		want  Match
	}{
		{"none", "nothing here", []string{"zebra"}, Match{}},
		{"short", "a Zebra!", []string{"zebra"}, Match{Snippet: "a Zebra!", Marks: [][2]int{{2, 7}}}},
		{"two words, lines joined", "Train to\nthe ALPS", []string{"alps", "train"},
			Match{Snippet: "Train to the ALPS", Marks: [][2]int{{0, 5}, {13, 17}}}},
		{"beyond ASCII", "fahrt nach Zürich", []string{"zürich"}, Match{Snippet: "fahrt nach Zürich", Marks: [][2]int{{11, 18}}}},
		{"cut at words", long, []string{"zebra"}, Match{
			Snippet: "…at length before it names the Zebra in passing, and then goes on for a while about other matters entirely…",
			Marks:   [][2]int{{33, 38}},
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := snippet(c.text, c.words)
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("snippet(%q, %q) (-want +got):\n%s", c.text, c.words, diff)
			}
			for _, m := range got.Marks {
				if w := got.Snippet[m[0]:m[1]]; fold(w) != c.words[0] && fold(w) != c.words[len(c.words)-1] {
					t.Errorf("mark %v is %q, not a word looked for", m, w)
				}
			}
		})
	}
}
