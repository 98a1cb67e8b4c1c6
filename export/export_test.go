package export

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"deckhand/replay"
	"deckhand/store"
	"deckhand/toolcall"
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

// A call Deckhand refused before the gate is "refused", not "failed";
// one refused for a tool Deckhand keeps from the model says why in the
// person's words, as its card does (the Markdown heading, the JSON's why).
func TestExportSaysWhyACallWasRefused(t *testing.T) {
	quarantined := toolcall.Withheld{Held: toolcall.Quarantined, Server: "bad", Tool: "escape"}.Refusal()
	unknown := `Error: there is no tool named "bad__nope". Use one of the tools in this request's tools field, by its exact name.`
	c := Chat{ID: "s1", Title: "calls",
		Runs: []replay.Run{{ID: "r1", Text: "go", End: replay.End{Status: store.RunSucceeded},
			Steps: []replay.Step{{Answer: &replay.Answer{Calls: []*replay.Call{
				{ID: "q", Tool: "bad.escape", Outcome: replay.Finished, Output: quarantined, IsError: true, Refused: true},
				{ID: "u", Tool: "bad__nope", Outcome: replay.Finished, Output: unknown, IsError: true, Refused: true},
				{ID: "f", Tool: "bad.crash", Outcome: replay.Finished, Output: "Error: the tool call failed: boom", IsError: true, Sent: true},
				{ID: "o", Tool: "bad.old", Outcome: replay.Finished, Output: quarantined, IsError: true}, // a log from before "refused" was kept
			}}}}}}}
	var md strings.Builder
	if err := WriteMarkdown(&md, c); err != nil {
		t.Fatal(err)
	}
	var headings []string
	for line := range strings.SplitSeq(md.String(), "\n") {
		if strings.HasPrefix(line, "### Tool call") {
			headings = append(headings, line)
		}
	}
	want := []string{
		"### Tool call `bad.escape`: refused: bad.escape is quarantined \\(its definition has high-risk flags you have not reviewed\\); review it in Servers ▸ bad ▸ Tools to offer it to the model",
		"### Tool call `bad__nope`: refused",
		"### Tool call `bad.crash`: failed",
		"### Tool call `bad.old`: failed",
	}
	if diff := cmp.Diff(want, headings); diff != "" {
		t.Errorf("WriteMarkdown's tool call headings (-want +got):\n%s", diff)
	}

	var js strings.Builder
	if err := WriteJSON(&js, c); err != nil {
		t.Fatal(err)
	}
	var out struct {
		Messages []struct {
			ToolCalls []struct{ ID, Outcome, Why, Result string } `json:"tool_calls"`
		} `json:"messages"`
	}
	if err := json.Unmarshal([]byte(js.String()), &out); err != nil {
		t.Fatal(err)
	}
	type call struct{ ID, Outcome, Why, Result string }
	var got []call
	for _, m := range out.Messages {
		for _, c := range m.ToolCalls {
			got = append(got, call(c))
		}
	}
	wantJSON := []call{
		{"q", "refused", "bad.escape is quarantined (its definition has high-risk flags you have not reviewed); review it in Servers ▸ bad ▸ Tools to offer it to the model", quarantined},
		{"u", "refused", "", unknown},
		{"f", "failed", "", "Error: the tool call failed: boom"},
		{"o", "failed", "", quarantined},
	}
	if diff := cmp.Diff(wantJSON, got); diff != "" {
		t.Errorf("WriteJSON's tool calls (-want +got):\n%s", diff)
	}
}
