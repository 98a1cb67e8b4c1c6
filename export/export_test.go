package export

import (
	"strings"
	"testing"

	"deckhand/replay"
	"deckhand/store"
)

// What the person, the model and the tools wrote cannot change the
// document's structure: an answer cut off inside a code block has it
// closed, a message's fence stays in its quote, a title's Markdown is
// escaped, and a broken chain is said first.
func TestMarkdownEscapes(t *testing.T) {
	c := Chat{ID: "s1", Title: "# *big* [link](x)", Broken: "this session's record was changed outside Deckhand",
		Runs: []replay.Run{{ID: "r1", Text: "look:\n```\ncode", End: replay.End{Status: store.RunStopped},
			Steps: []replay.Step{{Answer: &replay.Answer{Text: "Here:\n\n~~~~go\nfunc f() {", Partial: true}}}}}}
	var b strings.Builder
	if err := WriteMarkdown(&b, c); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	for _, want := range []string{
		"# \\# \\*big\\* \\[link\\]\\(x\\)\n",
		"> **Warning:** this session's record was changed outside Deckhand.",
		"> look:\n> ```\n> code\n> ```\n",
		"func f() {\n~~~~\n",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("WriteMarkdown lacks %q:\n%s", want, md)
		}
	}
}
