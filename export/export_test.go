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

// An export holds the version of each message shown, and says how many
// others it leaves out (it said nothing of them); a model's name is
// written as it is (gpt\-4o had a needless backslash).
func TestExportSaysWhatVersionsItHolds(t *testing.T) {
	c := Chat{ID: "s1", Title: "birds", Model: "gpt-4o",
		Runs: []replay.Run{
			{ID: "r1", Text: "name a bird", Versions: []string{"r0", "r1"}, End: replay.End{Status: store.RunSucceeded},
				Steps: []replay.Step{{Answer: &replay.Answer{Text: "A robin."}}}},
			{ID: "r3", Text: "another", Versions: []string{"r2", "r3", "r4"}, End: replay.End{Status: store.RunSucceeded}},
		}}
	if got := c.OtherVersions(); got != 3 {
		t.Errorf("OtherVersions() = %d, want 3", got)
	}
	var md strings.Builder
	if err := WriteMarkdown(&md, c); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"- Model: gpt-4o\n",
		"## Deckhand (gpt-4o)\n",
		"- Versions: only the version of each message shown in Deckhand; 3 other versions of messages are not in this file",
	} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("WriteMarkdown lacks %q:\n%s", want, md.String())
		}
	}
	var js strings.Builder
	if err := WriteJSON(&js, c); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(js.String(), `"other_versions_left_out": 3`) {
		t.Errorf("WriteJSON does not say the versions left out:\n%s", js.String())
	}
}

// A turn whose answer took two steps (a tool call, then the text) has one
// "Deckhand" heading, and no doubled blank line: it had one heading per
// step, the first followed by two blank lines.
func TestMarkdownOneHeadingPerTurn(t *testing.T) {
	c := Chat{ID: "s1", Title: "sum", Model: "gpt-4o",
		Runs: []replay.Run{{ID: "r1", Text: "please add 17 and 25", End: replay.End{Status: store.RunSucceeded},
			Steps: []replay.Step{
				{Answer: &replay.Answer{Calls: []*replay.Call{{Tool: "everything.get-sum", Arguments: []byte(`{"a":17,"b":25}`)}}}},
				{Answer: &replay.Answer{Text: "The sum is 42."}},
			}}}}
	var b strings.Builder
	if err := WriteMarkdown(&b, c); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	if n := strings.Count(md, "## Deckhand"); n != 1 {
		t.Errorf("WriteMarkdown wrote %d Deckhand headings for one turn, want 1:\n%s", n, md)
	}
	if strings.Contains(md, "\n\n\n") {
		t.Errorf("WriteMarkdown wrote a doubled blank line:\n%s", md)
	}
	call, answer := strings.Index(md, "### Tool call"), strings.Index(md, "The sum is 42.")
	if head := strings.Index(md, "## Deckhand"); head < 0 || call < head || answer < call {
		t.Errorf("want the heading, the call, then the answer:\n%s", md)
	}
}
