package transcript

import (
	"deckhand/clean"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

const answer = "Here is the plan.\n\nFirst, list the files:\n\n```sh\nls -la\necho done\n```\n\nThen read **todo.txt**:\n- one\n- two\n"

func rows(t *Transcript) []Row {
	out := make([]Row, t.Len())
	for i := range out {
		out[i] = t.Row(i)
	}
	return out
}

func TestSplitAll(t *testing.T) {
	got := Blocks(answer)
	want := []Row{
		{Kind: Text, Text: "Here is the plan."},
		{Kind: Text, Text: "First, list the files:"},
		{Kind: Code, Text: "ls -la\necho done", Lang: "sh"},
		{Kind: Text, Text: "Then read **todo.txt**:\n- one\n- two"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Blocks (-want +got):\n%s", diff)
	}
}

// Streaming an answer delta by delta ends with the rows of the whole answer,
// and each delta touches only the last rows.
func TestStreaming(t *testing.T) {
	for _, size := range []int{1, 3, 7, 1000} {
		tr := New()
		now := time.Now()
		for i := 0; i < len(answer); i += size {
			before := tr.Len()
			tr.Delta(answer[i:min(i+size, len(answer))], now)
			_, changed := tr.Changes()
			for idx := range changed {
				if idx < before-1 {
					t.Fatalf("size %d: a delta changed row %d of the %d before it", size, idx, before)
				}
			}
		}
		tr.Assistant(answer, now)
		got := rows(tr)
		want := append([]Row{{Kind: Header, Role: "assistant", Text: answer, Time: now}}, Blocks(answer)...)
		for i := range want[1:] {
			want[i+1].Role = "assistant"
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("size %d: streamed rows (-want +got):\n%s", size, diff)
		}
	}
}

func TestLongParagraphIsCut(t *testing.T) {
	tr := New()
	word := "word "
	for range 5000 {
		tr.Delta(word, time.Time{})
	}
	for i := 1; i < tr.Len(); i++ {
		if r := tr.Row(i); len(r.Text) > MaxBlock {
			t.Fatalf("row %d is %d bytes", i, len(r.Text))
		}
	}
	if tr.Len() < 10 {
		t.Errorf("%d rows for 25,000 bytes of one paragraph", tr.Len())
	}
}

func TestFinalTextDiffers(t *testing.T) {
	tr := New()
	tr.User("hi", time.Time{})
	tr.Delta("partial ans", time.Time{})
	tr.Assistant("A different, final answer.", time.Time{})
	got := rows(tr)
	if len(got) != 4 || got[2].Kind != Header || got[3].Text != "A different, final answer." {
		t.Errorf("rows = %+v", got)
	}
}

func TestToolCard(t *testing.T) {
	tr := New()
	args := json.RawMessage(`{"path":"/tmp/a"}`)
	tr.ToolRequested("c1", "fs.read", args)
	tr.ToolStarted("c1", "fs.read", args)
	tr.ToolProgress("c1", 2, 4, "half way")
	r := tr.Row(0)
	if r.State != Running || r.Progress != 2 || r.Total != 4 || r.Status != "half way" || r.Args != "{\n  \"path\": \"/tmp/a\"\n}" {
		t.Errorf("running card = %+v", r)
	}
	long := strings.Repeat("line\n", 50)
	tr.ToolFinished("c1", "fs.read", args, long, false, false, time.Second)
	r = tr.Row(0)
	if r.State != Succeeded || !Long(r.Output) || r.Expanded || r.Elapsed != time.Second {
		t.Errorf("finished card = %+v", r)
	}
	if head, hidden := Cut(r.Output); strings.Count(head, "line") != CollapseAfter || hidden != len(long)-len(head) {
		t.Errorf("Cut = %q, %d hidden", head, hidden)
	}
	tr.Expand(0, true)
	if !tr.Row(0).Expanded {
		t.Errorf("Expand did not expand")
	}
	tr.ToolFinished("c2", "fs.write", nil, "no", false, true, 0)
	if r := tr.Row(1); r.State != Denied || r.Tool != "fs.write" {
		t.Errorf("denied card = %+v", r)
	}
}

func FuzzStreaming(f *testing.F) {
	f.Add(answer, 3)
	f.Add("```\nunclosed\ncode", 2)
	f.Add("a\r\n\r\nb ```x\n~~~\n~~~", 1)
	f.Fuzz(func(t *testing.T, text string, size int) {
		size = max(1, size%50)
		text = text[:min(len(text), 20000)] // longer inputs teach nothing new and cost seconds
		tr := New()
		for i := 0; i < len(text); i += size {
			tr.Delta(text[i:min(i+size, len(text))], time.Time{})
		}
		tr.Assistant(text, time.Time{})
		got := rows(tr)
		text = clean.Text(text) // what a server or model sends is shown cleaned
		if text == "" {
			return
		}
		want := append([]Row{{Kind: Header, Role: "assistant", Text: text}}, Blocks(text)...)
		for i := range want[1:] {
			want[i+1].Role = "assistant"
		}
		if !reflect.DeepEqual(want, got) {
			t.Fatalf("streamed %d bytes in pieces of %d: %d rows, whole: %d rows", len(text), size, len(got), len(want))
		}
	})
}

// What servers and models send reaches the rows cleaned.
func TestRowsAreClean(t *testing.T) {
	tr := New()
	tr.Delta("hi\x1b[2J\u202e", time.Time{})
	tr.ToolRequested("c", "x\u202eevil", json.RawMessage(`{"a":"\u202e"}`))
	tr.ToolProgress("c", 1, 2, "step\x1b]0;t\x07")
	tr.ToolFinished("c", "x\u202eevil", nil, "out\x1b[31m\u2066", false, false, 0)
	tr.Note("note\x07", false)
	for i := range tr.Len() {
		r := tr.Row(i)
		for _, s := range []string{r.Text, r.Tool, r.Args, r.Output, r.Status} {
			if strings.ContainsAny(s, "\x1b\x07\u202e\u2066") {
				t.Errorf("row %d holds %q", i, s)
			}
		}
	}
}

// A tool card knows the run that made its call: its view (an MCP App) is
// closed when that run is taken out, and told what happens to the call.
func TestToolCardKnowsItsRun(t *testing.T) {
	tr := New()
	tr.ToolRequested("c0", "fs.read", nil) // before any run: none
	tr.StartRun("r1")
	tr.ToolRequested("c1", "app.show", nil)
	tr.Calls()
	tr.StartRun("r2")
	tr.ToolRequested("c1", "app.show", nil) // the same call id in the next run
	var got []string
	for i := range tr.Len() {
		if r := tr.Row(i); r.Kind == Tool {
			got = append(got, r.Call+"@"+r.Run)
		}
	}
	if want := []string{"c0@", "c1@r1", "c1@r2"}; !slices.Equal(got, want) {
		t.Errorf("cards = %q, want %q", got, want)
	}
}

// A card is found by its run and call as it stands, and a call stopped is
// marked cancelled on its card (for its view); an unknown call is not.
func TestCardAndToolCancelled(t *testing.T) {
	tr := New()
	tr.StartRun("r1")
	tr.ToolRequested("c1", "app.show", nil)
	tr.ToolFinished("c1", "app.show", nil, "stopped", true, false, 0)
	tr.ToolCancelled("c1")
	tr.ToolCancelled("c9")
	if r, ok := tr.Card("r1", "c1"); !ok || !r.Cancelled || r.State != Failed {
		t.Errorf("Card(r1, c1) = %+v, %v; want the failed card, cancelled", r, ok)
	}
	if _, ok := tr.Card("r2", "c1"); ok {
		t.Error("Card(r2, c1) found the card of another run")
	}
	if _, ok := tr.Card("r1", "c9"); ok {
		t.Error("Card(r1, c9) found a card never made")
	}
}

// Continue extends the stopped answer in its rows: streamed or not, the
// two parts read as one text, a space after a sentence that ended and
// none inside a word cut in two.
func TestContinueJoins(t *testing.T) {
	for _, tc := range []struct {
		name, stopped, more, want string
		stream                    bool
	}{
		{"a sentence, streamed", "It ends here.", "Next one.", "It ends here. Next one.", true},
		{"a sentence, whole", "It ends here.", "Next one.", "It ends here. Next one.", false},
		{"a word, streamed", "the quick bro", "wn fox.", "the quick brown fox.", true},
		{"a word, whole", "the quick bro", "wn fox.", "the quick brown fox.", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := New()
			now := time.Now()
			tr.StartRun("r1")
			tr.User("q", now)
			tr.Delta(tc.stopped, now)
			tr.Assistant(tc.stopped, now)
			tr.Continue("r2")
			if tc.stream {
				for _, piece := range strings.SplitAfter(tc.more, " ") {
					tr.Delta(piece, now)
				}
			}
			tr.Assistant(tc.more, now)
			var texts []string
			for _, r := range rows(tr) {
				if r.Role == "assistant" && r.Kind == Text {
					texts = append(texts, r.Text)
				}
			}
			if got := strings.Join(texts, "|"); got != tc.want {
				t.Errorf("the continued answer's rows read %q, want %q", got, tc.want)
			}
		})
	}
}
