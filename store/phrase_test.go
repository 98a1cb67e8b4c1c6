package store

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// versions logs one session whose first message has three versions (runs
// v1, v2, v3), as Edit and Retry leave them: the words of "write a poem"
// are apart in v1, together in v2; v3 holds code.
func versions(t *testing.T, db *DB) {
	t.Helper()
	t0 := time.UnixMilli(1_800_000_000_000)
	ev := func(id, run, kind string, at time.Duration, text string) Event {
		raw, _ := json.Marshal(map[string]any{"text": text})
		return Event{ID: id, SessionID: "s", RunID: run, Time: t0.Add(at), Kind: kind, Data: raw}
	}
	if err := db.Write(t.Context(), &Batch{
		NewSessions: []NewSession{{ID: "s", Time: t0}},
		NewRuns:     []NewRun{{ID: "v1", SessionID: "s", Time: t0}, {ID: "v2", SessionID: "s", Time: t0.Add(time.Second)}, {ID: "v3", SessionID: "s", Time: t0.Add(2 * time.Second)}},
		Events: []Event{
			ev("e1", "v1", KindRunStarted, 1, "Write me something, a poem perhaps"),
			ev("e2", "v1", KindAssistantMessage, 2, "Here it is: la la la. I write, you read."),
			ev("e3", "v2", KindRunStarted, time.Second, "now write a poem"),
			ev("e4", "v2", KindAssistantMessage, time.Second+1, "Roses are red. La la, la la."),
			ev("e5", "v3", KindRunStarted, 2*time.Second, "add 17 and 25"),
			ev("e6", "v3", KindAssistantMessage, 2*time.Second+1, "```python\ndef add(a, b):\n    return a + b\n```"),
		},
	}); err != nil {
		t.Fatal(err)
	}
}

// TestPhraseRun: the version a find bar's words are in is the one holding
// them together as typed, whatever the words (one letter, punctuation,
// repeated) and their case, and not one of the versions shown.
func TestPhraseRun(t *testing.T) {
	db := open(t, filepath.Join(t.TempDir(), "log.db"))
	versions(t, db)
	for _, c := range []struct {
		name, phrase string
		skip         []string
		want         string
	}{
		{"one-letter word", "write a poem", nil, "v2"},
		{"one-letter word last", "return a", nil, "v3"},
		{"case", "WRITE A Poem", nil, "v2"},
		{"punctuation", "add(a, b):", nil, "v3"},
		{"operator", "a + b", nil, "v3"},
		{"repeated words", "la la la", nil, "v1"},
		{"repeated words, other version", "la la, la", nil, "v2"},
		{"the shown version skipped", "a poem", []string{"v1"}, "v2"},
		{"only in the shown version", "roses", []string{"v2"}, ""},
		{"words apart", "poem write", nil, ""},
		{"blank", "  ", nil, ""},
		{"not text but JSON", `"text"`, nil, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := db.PhraseRun(t.Context(), "s", c.phrase, c.skip)
			if err != nil || got != c.want {
				t.Errorf("PhraseRun(%q, skip %v) = %q, %v; want %q", c.phrase, c.skip, got, err, c.want)
			}
		})
	}
}

// TestSearchMatchPrefersPhrase: a search's match is the message holding
// its words together when one does, though an earlier one holds them all
// apart: opening the result shows the version the words were typed from.
// It chose v1 for "write a poem", where the chat's find bar then found
// only "a".
func TestSearchMatchPrefersPhrase(t *testing.T) {
	db := open(t, filepath.Join(t.TempDir(), "log.db"))
	versions(t, db)
	for _, c := range []struct{ query, run string }{
		{"write a poem", "v2"},
		{"Write  A poem", "v1"}, // two spaces: together nowhere, the first with all the words
		{"return a", "v3"},
		{"poem write", "v1"},
	} {
		got, err := db.SearchSessions(t.Context(), c.query, 0)
		if err != nil || len(got) != 1 || got[0].Match.Run != c.run {
			t.Errorf("SearchSessions(%q) = %+v, %v; want the match in %s", c.query, got, err, c.run)
		}
	}
}

// TestSearchSnippetShowsThePhrase: searching "number 78 of a slow" in a
// chat whose answer tells "Sentence number N of a slow story." for N from
// 1 to 100 gives a snippet around sentence 78, the phrase marked whole,
// from the answer's run. It gave sentence 1's words marked apart, which
// the sidebar cut to "3 of a slow".
func TestSearchSnippetShowsThePhrase(t *testing.T) {
	db := open(t, filepath.Join(t.TempDir(), "log.db"))
	t0 := time.UnixMilli(1_800_000_000_000)
	ev := func(id, kind string, text string) Event {
		raw, _ := json.Marshal(map[string]any{"text": text})
		return Event{ID: id, SessionID: "s", RunID: "r", Time: t0, Kind: kind, Data: raw}
	}
	if err := db.Write(t.Context(), &Batch{
		NewSessions: []NewSession{{ID: "s", Time: t0}},
		NewRuns:     []NewRun{{ID: "r", SessionID: "s", Time: t0}},
		Events: []Event{
			ev("e1", KindRunStarted, "tell a slow story of 100 sentences"),
			ev("e2", KindAssistantMessage, storyText(100)),
		},
	}); err != nil {
		t.Fatal(err)
	}
	for _, query := range []string{"number 78 of a slow", "Number 78 OF A SLOW"} {
		got, err := db.SearchSessions(t.Context(), query, 0)
		if err != nil || len(got) != 1 {
			t.Fatalf("SearchSessions(%q) = %v, %v; want the session", query, got, err)
		}
		m := got[0].Match
		if len(m.Marks) == 0 {
			t.Fatalf("SearchSessions(%q) snippet %q marks nothing", query, m.Snippet)
		}
		if first := m.Snippet[m.Marks[0][0]:m.Marks[0][1]]; first != "number 78 of a slow" {
			t.Errorf("SearchSessions(%q) marks %q first in %q, want the phrase", query, first, m.Snippet)
		}
		if !strings.Contains(m.Snippet, "Sentence number 78 of a slow story.") || m.Run != "r" {
			t.Errorf("SearchSessions(%q) = snippet %q of run %q, want sentence 78 in it, of run r", query, m.Snippet, m.Run)
		}
	}
}

// TestSearchAsTheFindBarReads: a code block's language ("python" after
// its fence) is not searched, as the chat's find bar does not find it,
// while the code is, in a message; the sidebar's search found a chat by
// it, which then opened on "No matches" (new-user pass 15, N8). A tool's
// result is searched as its card shows it, fences and all.
func TestSearchAsTheFindBarReads(t *testing.T) {
	db := open(t, filepath.Join(t.TempDir(), "log.db"))
	versions(t, db) // v3's answer: ```python, def add(a, b): …
	t0 := time.UnixMilli(1_800_000_000_000)
	ev := func(id, session, kind string, data map[string]any) Event {
		raw, _ := json.Marshal(data)
		return Event{ID: id, SessionID: session, RunID: "r" + session, Time: t0, Kind: kind, Data: raw}
	}
	if err := db.Write(t.Context(), &Batch{
		NewSessions: []NewSession{{ID: "p", Time: t0}, {ID: "t", Time: t0}, {ID: "r", Time: t0}},
		NewRuns:     []NewRun{{ID: "rp", SessionID: "p", Time: t0}, {ID: "rt", SessionID: "t", Time: t0}, {ID: "rr", SessionID: "r", Time: t0}},
		Events: []Event{
			ev("p1", "p", KindRunStarted, map[string]any{"text": "I like python, the language"}),
			ev("t1", "t", KindRunStarted, map[string]any{"text": "a tilde block"}),
			ev("t2", "t", KindAssistantMessage, map[string]any{"text": "~~~ ruby\nputs 1\n~~~\n```go\nnot a fence inside\n````"}),
			ev("r1", "r", KindRunStarted, map[string]any{"text": "read it"}),
			ev("r2", "r", KindToolSucceeded, map[string]any{"tool": "fs.read", "output": "```haskell\nmain = pure ()\n```"}),
		},
	}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		query string
		want  []string
	}{
		{"python", []string{"p"}},
		{"return a", []string{"s"}},
		{"ruby", nil},
		{"puts", []string{"t"}},
		{"go", nil},
		{"not a fence inside", []string{"t"}},
		{"haskell", []string{"r"}}, // a result shows its fences
	} {
		list, err := db.SearchSessions(t.Context(), c.query, 0)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, s := range list {
			got = append(got, s.ID)
		}
		slices.Sort(got)
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("SearchSessions(%q) (-want +got):\n%s", c.query, diff)
		}
	}
	for _, c := range []struct{ phrase, want string }{{"python", ""}, {"```python", ""}, {"def add", "v3"}} {
		if got, err := db.PhraseRun(t.Context(), "s", c.phrase, nil); err != nil || got != c.want {
			t.Errorf("PhraseRun(%q) = %q, %v; want %q", c.phrase, got, err, c.want)
		}
	}
}
