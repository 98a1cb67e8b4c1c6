package store

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// twoSessions logs s1 and s2, each with a finished run, messages, a tool
// result and usage; s1 also has a grant.
func twoSessions(t testing.TB, db *DB) {
	t.Helper()
	t0 := time.UnixMilli(1_800_000_000_000)
	ev := func(id, session, run, kind string, at time.Duration, data any) Event {
		raw, _ := json.Marshal(data)
		return Event{ID: id, SessionID: session, RunID: run, Time: t0.Add(at), Kind: kind, Data: raw}
	}
	if err := db.Write(t.Context(), &Batch{
		NewSessions: []NewSession{{ID: "s1", Time: t0}, {ID: "s2", Time: t0}},
		NewRuns:     []NewRun{{ID: "r1", SessionID: "s1", Time: t0}, {ID: "r2", SessionID: "s2", Time: t0.Add(time.Second)}},
		Titles:      []Title{{SessionID: "s1", Title: "Plan the trip"}, {SessionID: "s2", Title: "Käse 100% _sure_"}},
		Events: []Event{
			ev("e1", "s1", "", KindSessionCreated, 0, map[string]any{"model": "m"}),
			ev("e2", "s1", "r1", KindRunStarted, 1, map[string]any{"text": "Plan the trip to Zürich, \"quoted\" and C:\\path"}),
			ev("e3", "s1", "r1", KindToolSucceeded, 2, map[string]any{"call": "c1", "tool": "t.search", "output": "found-in-tool-output: a train at 9"}),
			ev("e4", "s1", "r1", KindAssistantMessage, 3, map[string]any{"text": "Take the TRAIN over the Alps."}),
			ev("e5", "s1", "r1", KindRunSucceeded, 4, map[string]any{"text": "only-in-run-succeeded"}),
			ev("e6", "s2", "r2", KindRunStarted, time.Second, map[string]any{"text": "cheese please"}),
			ev("e7", "s2", "r2", KindAssistantDelta, time.Second+1, map[string]any{"text": "Gruyère, cut off mid"}),
			ev("e8", "s2", "r2", KindNotice, time.Second+2, map[string]any{"text": "only-in-a-notice"}),
		},
		Finished: []FinishedRun{
			{ID: "r1", SessionID: "s1", Time: t0.Add(5), Status: RunSucceeded, Usage: Usage{InputTokens: 10, OutputTokens: 2, CostUSD: 0.1}},
			{ID: "r2", SessionID: "s2", Time: t0.Add(time.Second + 3), Status: RunStopped, Usage: Usage{InputTokens: 30, OutputTokens: 4, CostUSD: 0.3}},
		},
		Grants: []Grant{{ID: "g1", Tool: "t.search", Scope: "always", By: "user", SessionID: "s1", Time: t0}},
	}); err != nil {
		t.Fatal(err)
	}
}

func TestRenameSession(t *testing.T) {
	db := open(t, filepath.Join(t.TempDir(), "log.db"))
	ctx := t.Context()
	twoSessions(t, db)
	if err := db.RenameSession(ctx, "s1", "  Trip\n to   the Alps \t"); err != nil {
		t.Fatal(err)
	}
	s, err := db.Session(ctx, "s1")
	if err != nil || s.Title != "Trip to the Alps" {
		t.Fatalf("Session() = %q, %v; want the title trimmed, on one line", s.Title, err)
	}
	// A later run's first message does not take the person's title back.
	if err := db.Write(ctx, &Batch{
		NewRuns: []NewRun{{ID: "r3", SessionID: "s1", Time: time.Now()}},
		Titles:  []Title{{SessionID: "s1", Title: "the next message"}},
	}); err != nil {
		t.Fatal(err)
	}
	if s, _ := db.Session(ctx, "s1"); s.Title != "Trip to the Alps" {
		t.Errorf("after a later run the title is %q", s.Title)
	}

	for _, bad := range []struct {
		title string
		want  error
	}{{"", ErrEmptyTitle}, {" \n\t ", ErrEmptyTitle}, {strings.Repeat("é", MaxTitle+1), ErrTitleTooLong}} {
		if err := db.RenameSession(ctx, "s1", bad.title); !errors.Is(err, bad.want) {
			t.Errorf("RenameSession(%q) = %v, want %v", bad.title, err, bad.want)
		}
	}
	if s, _ := db.Session(ctx, "s1"); s.Title != "Trip to the Alps" {
		t.Errorf("a refused title changed it to %q", s.Title)
	}
	long := strings.Repeat("é", MaxTitle)
	if err := db.RenameSession(ctx, "s1", long); err != nil {
		t.Errorf("a title of exactly %d characters: %v", MaxTitle, err)
	}
	if err := db.RenameSession(ctx, "nope", "x"); !errors.Is(err, ErrNotFound) {
		t.Errorf("renaming an unknown session = %v, want ErrNotFound", err)
	}
	if err := db.RenameSession(ctx, "s", "x"); !errors.Is(err, ErrNotFound) {
		t.Errorf("renaming by a prefix = %v; only whole ids rename", err)
	}
}

func TestDeleteSession(t *testing.T) {
	db := open(t, filepath.Join(t.TempDir(), "log.db"))
	ctx := t.Context()
	twoSessions(t, db)
	before, _ := db.Session(ctx, "s2")
	if err := db.DeleteSession(ctx, "s1"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Session(ctx, "s1"); !errors.Is(err, ErrNotFound) {
		t.Errorf("the deleted session is still there: %v", err)
	}
	var events, runs int
	db.sql.QueryRow(`SELECT count(*) FROM events WHERE session_id = 's1' OR run_id = 'r1'`).Scan(&events)
	db.sql.QueryRow(`SELECT count(*) FROM runs WHERE session_id = 's1'`).Scan(&runs)
	if events != 0 || runs != 0 {
		t.Errorf("left behind: %d events, %d runs", events, runs)
	}
	after, err := db.Session(ctx, "s2")
	if err != nil || after.Usage != before.Usage || after.Runs != 1 || after.Title != before.Title {
		t.Errorf("the other session changed: %+v, %v; was %+v", after, err, before)
	}
	if evs, _ := db.Events(ctx, Filter{SessionID: "s2"}); len(evs) != 3 {
		t.Errorf("the other session has %d events, want 3", len(evs))
	}
	if g, _ := db.Grants(ctx); len(g) != 1 {
		t.Errorf("grants = %+v; an always-allow outlives the session it was given in", g)
	}
	if err := db.DeleteSession(ctx, "s1"); !errors.Is(err, ErrNotFound) {
		t.Errorf("deleting it again = %v, want ErrNotFound", err)
	}
	if ok, _ := db.IntegrityCheck(ctx); ok != "ok" {
		t.Errorf("integrity_check = %q", ok)
	}

	// A run still running in a live process holds its session; one whose
	// process is gone does not.
	if err := db.Write(ctx, &Batch{
		NewSessions: []NewSession{{ID: "live", Time: time.Now()}, {ID: "dead", Time: time.Now()}},
		NewRuns: []NewRun{{ID: "rl", SessionID: "live", Time: time.Now(), Owner: Owner()},
			{ID: "rd", SessionID: "dead", Time: time.Now(), Owner: deadOwner(t)}},
	}); err != nil {
		t.Fatal(err)
	}
	if err := db.DeleteSession(ctx, "live"); !errors.Is(err, ErrSessionRunning) {
		t.Errorf("deleting a running session = %v, want ErrSessionRunning", err)
	}
	if _, err := db.Session(ctx, "live"); err != nil {
		t.Errorf("the refused delete removed it: %v", err)
	}
	if err := db.DeleteSession(ctx, "dead"); err != nil {
		t.Errorf("deleting an interrupted session = %v", err)
	}
}

func ids(list []Session) []string {
	var out []string
	for _, s := range list {
		out = append(out, s.ID)
	}
	return out
}

func TestSearchSessions(t *testing.T) {
	db := open(t, filepath.Join(t.TempDir(), "log.db"))
	ctx := t.Context()
	twoSessions(t, db)
	for _, c := range []struct {
		query string
		want  []string
	}{
		{"", []string{"s2", "s1"}},
		{"   ", []string{"s2", "s1"}},
		{"trip", []string{"s1"}},                             // the title
		{"zürich", []string{"s1"}},                           // the person's message
		{"ZÜRICH", []string{"s1"}},                           // any case, beyond ASCII
		{"train alps", []string{"s1"}},                       // the model's, all words
		{"train cheese", nil},                                // all words must match, in any of its texts
		{"plan cheese", nil},                                 //
		{"gruyère", []string{"s2"}},                          // streamed text of a run cut off
		{"KÄSE", []string{"s2"}},                             // title, folded
		{"100%", []string{"s2"}},                             // % is a character
		{"%", []string{"s2"}},                                //
		{"_", []string{"s2"}},                                // so is _
		{"_sure_", []string{"s2"}},                           //
		{`"quoted"`, []string{"s1"}},                         // quotes as written, not as JSON escapes them
		{`c:\path`, []string{"s1"}},                          // a backslash
		{`\"`, nil},                                          // JSON's escapes are not text
		{"text", nil},                                        // nor are its keys
		{"model", nil},                                       //
		{"in-tool-output", []string{"s1"}},                   // a tool's result, as the chat shows it
		{"t.search", nil},                                    // not its tool's name
		{"only-in-run-succeeded", nil},                       //
		{"only-in-a-notice", nil},                            //
		{"e", []string{"s2", "s1"}},                          // most recent first
		{"trip trip TRIP", []string{"s1"}},                   // a word once
		{"zz' OR 1=1 --", nil},                               // parameters, not SQL
		{"\x00", nil},                                        //
		{"\xff", nil},                                        // invalid UTF-8
		{strings.Repeat("x", 1<<20), nil},                    // a pasted megabyte
		{strings.Repeat("a ", 10_000), []string{"s2", "s1"}}, // thousands of words: the first ones count
	} {
		got, err := db.SearchSessions(ctx, c.query, 0)
		if err != nil {
			t.Errorf("SearchSessions(%.40q) = %v", c.query, err)
			continue
		}
		if !slices.Equal(ids(got), c.want) {
			t.Errorf("SearchSessions(%.40q) = %v, want %v", c.query, ids(got), c.want)
		}
	}
	// Each session found says where: the message holding the most words.
	if got, _ := db.SearchSessions(ctx, "alps zürich train", 0); len(got) != 1 || got[0].Match.Snippet != "Take the TRAIN over the Alps." ||
		len(got[0].Match.Marks) != 2 {
		t.Errorf("SearchSessions(alps zürich train) = %+v, want s1 with the answer's snippet, two words marked", got)
	}
	// One found in a tool's result says so: the snippet names the tool.
	if got, _ := db.SearchSessions(ctx, "TOOL-output", 0); len(got) != 1 || got[0].Match.Snippet != "found-in-tool-output: a train at 9" ||
		got[0].Match.Tool != "t.search" || got[0].Match.Run != "r1" {
		t.Errorf("SearchSessions(TOOL-output) = %+v, want s1 with the result's snippet, from t.search", got)
	}
	// A message is the match before a tool's result holding as many
	// words, even an earlier one.
	if got, _ := db.SearchSessions(ctx, "train", 0); len(got) != 1 || got[0].Match.Tool != "" || got[0].Match.Snippet != "Take the TRAIN over the Alps." {
		t.Errorf("SearchSessions(train) = %+v, want the model's answer", got)
	}
	if got, _ := db.SearchSessions(ctx, "e", 1); !slices.Equal(ids(got), []string{"s2"}) {
		t.Errorf("limit 1 = %v", ids(got))
	}
	// A renamed session is found by its new title, a deleted one no more.
	db.RenameSession(ctx, "s2", "Fondue night")
	if got, _ := db.SearchSessions(ctx, "fondue", 0); !slices.Equal(ids(got), []string{"s2"}) {
		t.Errorf("by the new title = %v", ids(got))
	}
	db.DeleteSession(ctx, "s2")
	if got, _ := db.SearchSessions(ctx, "cheese", 0); len(got) != 0 {
		t.Errorf("the deleted session is found: %v", ids(got))
	}
}

// TestSearchSessionsBadJSON: an event whose data is not JSON (a file
// damaged, an older writer) neither fails the search nor matches.
func TestSearchSessionsBadJSON(t *testing.T) {
	db := open(t, filepath.Join(t.TempDir(), "log.db"))
	twoSessions(t, db)
	if _, err := db.sql.Exec(`INSERT INTO events (event_id, session_id, run_id, ts, kind, data_json) VALUES ('bad', 's1', 'r1', 9, ?, '{"text": "broken')`, KindAssistantMessage); err != nil {
		t.Fatal(err)
	}
	got, err := db.SearchSessions(t.Context(), "broken", 0)
	if err != nil || len(got) != 0 {
		t.Errorf("SearchSessions = %v, %v", ids(got), err)
	}
	if got, _ := db.SearchSessions(t.Context(), "alps", 0); !slices.Equal(ids(got), []string{"s1"}) {
		t.Errorf("the session with a bad event is not found by its good ones: %v", ids(got))
	}
}

// FuzzSearchSessions: whatever the query (quotes, %, _, backslashes, NUL,
// invalid UTF-8, huge), the search neither fails nor finds other sessions
// than a plain reading of the texts in Go does.
func FuzzSearchSessions(f *testing.F) {
	for _, s := range []string{"", "trip", "ZÜRICH", "100%", "%", "_", "%_%", `\`, `\%`, `"`, `'`, "''", `\"`, "\x00", "a\x00b",
		"\xff\xfe", "train alps", "text", "' OR '1'='1", "%' --", strings.Repeat("%", 300), strings.Repeat("ab ", 40), "İ", "ß", "ǅ"} {
		f.Add(s)
	}
	db, err := Open(f.Context(), filepath.Join(f.TempDir(), "log.db"))
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { db.Close() })
	twoSessions(f, db)
	texts := map[string][]string{
		"s1": {"Plan the trip", "Plan the trip to Zürich, \"quoted\" and C:\\path", "found-in-tool-output: a train at 9", "Take the TRAIN over the Alps."},
		"s2": {"Käse 100% _sure_", "cheese please", "Gruyère, cut off mid"},
	}
	f.Fuzz(func(t *testing.T, query string) {
		got, err := db.SearchSessions(t.Context(), query, 0)
		if err != nil {
			t.Fatalf("SearchSessions(%q) = %v", query, err)
		}
		var want []string
		for _, id := range []string{"s2", "s1"} { // most recent first
			all := true
			for _, w := range SearchWords(query) {
				all = all && slices.ContainsFunc(texts[id], func(s string) bool { return strings.Contains(fold(s), w) })
			}
			if all {
				want = append(want, id)
			}
		}
		if !slices.Equal(ids(got), want) {
			t.Errorf("SearchSessions(%q) = %v, want %v", query, ids(got), want)
		}
	})
}

// A pinned session is listed first, also by a search and after the log is
// opened again, until it is unpinned.
func TestPinSession(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.db")
	db := open(t, path)
	ctx := t.Context()
	twoSessions(t, db)
	ids := func(list []Session, err error) string {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, s := range list {
			id := s.ID
			if s.Pinned {
				id += "*"
			}
			out = append(out, id)
		}
		return strings.Join(out, ",")
	}
	if got := ids(db.Sessions(ctx, 0)); got != "s2,s1" {
		t.Fatalf("Sessions() before pinning = %s, want s2,s1 (most recent first)", got)
	}
	if err := db.PinSession(ctx, "s1", true); err != nil {
		t.Fatal(err)
	}
	if got := ids(db.Sessions(ctx, 0)); got != "s1*,s2" {
		t.Errorf("Sessions() after pinning s1 = %s, want s1*,s2", got)
	}
	if got := ids(db.SearchSessions(ctx, "e", 0)); got != "s1*,s2" {
		t.Errorf("SearchSessions() after pinning s1 = %s, want s1*,s2", got)
	}
	db.Close()
	db = open(t, path)
	if got := ids(db.Sessions(ctx, 0)); got != "s1*,s2" {
		t.Errorf("Sessions() after reopening = %s, want s1*,s2", got)
	}
	if err := db.PinSession(ctx, "s1", false); err != nil {
		t.Fatal(err)
	}
	if got := ids(db.Sessions(ctx, 0)); got != "s2,s1" {
		t.Errorf("Sessions() after unpinning = %s, want s2,s1", got)
	}
	if err := db.PinSession(ctx, "nope", true); !errors.Is(err, ErrNotFound) {
		t.Errorf("PinSession(nope) = %v, want ErrNotFound", err)
	}
}

// Pinning a chat and choosing which version of a message shows leave its
// last activity as it was: the sidebar said "2 min ago", then "just now"
// after the version switch, and the JSON export's last_activity was the
// time of the switch.
func TestLastActivityNotMovedByPinOrVersion(t *testing.T) {
	db := open(t, filepath.Join(t.TempDir(), "log.db"))
	ctx := t.Context()
	twoSessions(t, db)
	updated := func() time.Time {
		t.Helper()
		s, err := db.Session(ctx, "s1")
		if err != nil {
			t.Fatal(err)
		}
		return s.Updated
	}
	before := updated()
	if err := db.PinSession(ctx, "s1", true); err != nil {
		t.Fatal(err)
	}
	if got := updated(); !got.Equal(before) {
		t.Errorf("after pinning, last activity = %v, want %v", got, before)
	}
	later := before.Add(time.Hour)
	if err := db.Write(ctx, &Batch{Events: []Event{{ID: "e9", SessionID: "s1", RunID: "r1", Time: later, Kind: KindRunChosen, Data: []byte(`{}`)}}}); err != nil {
		t.Fatal(err)
	}
	if got := updated(); !got.Equal(before) {
		t.Errorf("after choosing a version, last activity = %v, want %v", got, before)
	}
}

// FuzzContainsFold: the search's comparison without folding ASCII text
// finds exactly what folding it would.
func FuzzContainsFold(f *testing.F) {
	for _, s := range [][2]string{{"Take the TRAIN", "train"}, {"ZÜRICH", "zürich"}, {"abc", ""}, {"", "a"}, {"aaab", "aab"}, {"\xff\xfeA", "a"}, {"İ", "i"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, s, w string) {
		w = fold(w)
		if got, want := containsFold(s, w), strings.Contains(fold(s), w); got != want {
			t.Errorf("containsFold(%q, %q) = %v, want %v", s, w, got, want)
		}
	})
}

// A session's kept whole results (KeepResult) are files beside the log,
// named by hashes of the ids (a model's call id such as "../../x" writes
// nowhere else), readable by the person alone, and go with the session;
// another session's stay.
func TestKeptResultsGoWithTheirSession(t *testing.T) {
	dir := t.TempDir()
	db := open(t, filepath.Join(dir, "log.db"))
	ctx := t.Context()
	twoSessions(t, db)
	for _, s := range []string{"s1", "s2"} {
		if err := db.KeepResult(s, "r1", "../../x", "the whole of "+s); err != nil {
			t.Fatal(err)
		}
	}
	p1, p2 := db.ResultPath("s1", "r1", "../../x"), db.ResultPath("s2", "r1", "../../x")
	if rel, err := filepath.Rel(ResultsDir(db.path), p1); err != nil || strings.Contains(rel, "..") {
		t.Errorf("the kept result is at %s, outside %s", p1, ResultsDir(db.path))
	}
	if fi, err := os.Stat(p1); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the kept result's file: %v, %v; want mode 0600", fi, err)
	}
	if err := db.DeleteSession(ctx, "s1"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Dir(p1)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the deleted session's kept results: %v", err)
	}
	if b, err := os.ReadFile(p2); err != nil || string(b) != "the whole of s2" {
		t.Errorf("the other session's kept result: %q, %v", b, err)
	}
}
