package gui

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"deckhand/gui/guitest"
	"deckhand/gui/sidebar"
	"deckhand/store"
	"deckhand/testutil"
)

// sessionRowOf is the on-screen row of the session titled title, or nil.
func (h *harness) sessionRowOf(title string) *sidebar.Row {
	var found *sidebar.Row
	guitest.Walk(h.ui.side.List, func(o fyne.CanvasObject) {
		if r, ok := o.(*sidebar.Row); ok && r.Item().Title == title && found == nil {
			found = r
		}
	})
	return found
}

// menuItem runs the item labelled label of the row menu on screen.
func (h *harness) menuItem(label string) {
	h.t.Helper()
	s := h.ui.side
	if s.Menu == nil || !s.Menu.Visible() {
		h.t.Fatalf("no row menu on screen")
	}
	for _, it := range s.MenuItems.Items {
		if it.Label == label {
			s.Menu.Hide()
			it.Action()
			return
		}
	}
	h.t.Fatalf("the row menu has no %q", label)
}

func (h *harness) titles() []string {
	var out []string
	for _, s := range h.ui.side.Items {
		out = append(out, s.Title)
	}
	return out
}

// chat sends text in a new chat and waits for its answer.
func (h *harness) chat(text, answer string) {
	h.t.Helper()
	h.tap(h.ui.win, "New chat")
	h.until("an empty chat", func() bool { return len(h.ui.chat.Rows) == 0 })
	h.say(text)
	h.until("the answer "+answer, func() bool { return h.shows(h.ui.win, answer) })
}

// pressInList gives the sessions list the focus and presses key.
func (h *harness) pressInList(key fyne.KeyName) {
	h.ui.win.Canvas().Focus(h.ui.side.List)
	h.ui.side.List.TypedKey(&fyne.KeyEvent{Name: key})
}

// TestSessionRename: a session is renamed from its row's menu; the sidebar
// and the window's title change, the log keeps the title, a later message
// does not take it back, and the next Deckhand shows it. F2 in the list
// renames too, not in the message box; an empty title cannot be given.
func TestSessionRename(t *testing.T) {
	dbPath := filepath.Join(t.TempDir(), "deckhand.db")
	h := newHarness(t, harnessOptions{dbPath: dbPath, responses: []testutil.ModelResponse{
		{Body: testutil.TextChunks("The first answer.")}, {Body: testutil.TextChunks("The second answer.")},
	}})
	h.say("the first question")
	h.until("the answer", func() bool { return h.shows(h.ui.win, "The first answer.") })
	h.until("the session in the sidebar", func() bool { return h.sessionRowOf("the first question") != nil })

	test.TapSecondary(h.sessionRowOf("the first question"))
	h.menuItem("Rename…")
	if h.ui.side.Rename == nil || h.ui.side.Title.Text != "the first question" {
		t.Fatalf("the rename dialog is not open with the title in it")
	}
	h.ui.side.Title.SetText("  Trip\tplanning ")
	h.tap(h.ui.win, "Rename")
	h.until("the new title in the sidebar and the window", func() bool {
		return slices.Equal(h.titles(), []string{"Trip planning"}) && h.ui.title.Text == "Trip planning"
	})
	id := h.ui.side.Items[0].ID
	h.until("the title in the log", func() bool {
		s, err := h.db.Session(t.Context(), id)
		return err == nil && s.Title == "Trip planning"
	})

	h.say("a second message")
	h.until("its answer", func() bool { return h.shows(h.ui.win, "The second answer.") })
	h.sys.SyncLog(t.Context())
	h.until("the sessions reread", func() bool { return len(h.ui.side.Items) == 1 && h.ui.side.Items[0].Run == store.RunSucceeded })
	if s, _ := h.db.Session(t.Context(), id); s.Title != "Trip planning" || s.Runs != 2 {
		t.Errorf("after a second run the log has %q (%d runs); want the chosen title kept", s.Title, s.Runs)
	}
	if h.ui.title.Text != "Trip planning" || h.titles()[0] != "Trip planning" {
		t.Errorf("after a second run the window shows %q, the sidebar %q", h.ui.title.Text, h.titles())
	}

	// F2 and Delete in the message box are the message box's.
	h.ui.win.Canvas().Focus(h.ui.input)
	h.ui.input.TypedKey(&fyne.KeyEvent{Name: fyne.KeyF2})
	h.ui.input.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDelete})
	if h.ui.side.Rename != nil || h.ui.side.Delete != nil {
		t.Fatalf("F2 or Delete typed in the message box opened a dialog")
	}
	// F2 in the list renames the selected session; empty is refused.
	h.pressInList(fyne.KeyF2)
	if h.ui.side.Rename == nil || h.ui.side.Title.Text != "Trip planning" {
		t.Fatalf("F2 in the list did not open the rename dialog")
	}
	h.texts(h.ui.win) // drawn, as on a screen, before the person types
	h.ui.side.Title.SetText("   ")
	if err := h.ui.side.Title.Validate(); !errors.Is(err, store.ErrEmptyTitle) {
		t.Errorf("an empty title validates as %v", err)
	}
	if b := h.button(h.ui.win, "Rename"); b == nil || !b.Disabled() {
		t.Errorf("Rename can be pressed with an empty title")
	}
	h.ui.side.Title.SetText(strings.Repeat("x", store.MaxTitle+1))
	if b := h.button(h.ui.win, "Rename"); b == nil || !b.Disabled() {
		t.Errorf("Rename can be pressed with a title too long")
	}
	h.tap(h.ui.win, "Cancel")
	if h.ui.side.Rename != nil {
		t.Errorf("Cancel left the dialog")
	}
	// A refused title sent anyway (another path) is said, and changes nothing.
	h.ui.tell(&sidebar.Rename{ID: id, Title: " "})
	h.until("the refusal", func() bool { return h.shows(h.ui.win, "cannot be empty") })
	if h.ui.title.Text != "Trip planning" {
		t.Errorf("a refused rename changed the title to %q", h.ui.title.Text)
	}

	// The next Deckhand lists it under its new name.
	h.ui.Stop()
	h.sys.SyncLog(t.Context())
	h2 := newHarness(t, harnessOptions{dbPath: dbPath})
	h2.until("the renamed session", func() bool { return slices.Equal(h2.titles(), []string{"Trip planning"}) })
}

// TestSessionDelete: a session is deleted after a confirmation naming it:
// its events and runs leave the log, the other session and its usage stay.
// Deleting the current one shows a new chat. The menu and the Delete key
// both ask.
func TestSessionDelete(t *testing.T) {
	h := newHarness(t, harnessOptions{log: true, responses: []testutil.ModelResponse{
		{Body: testutil.TextChunks("The first answer.")}, {Body: testutil.TextChunks("The second answer.")},
	}})
	h.say("the first question")
	h.until("the answer", func() bool { return h.shows(h.ui.win, "The first answer.") })
	h.chat("the second question", "The second answer.")
	h.sys.SyncLog(t.Context())
	h.until("both sessions", func() bool {
		return slices.Equal(h.titles(), []string{"the second question", "the first question"}) && h.ui.side.Items[0].Current
	})
	first, second := h.ui.side.Items[1].ID, h.ui.side.Items[0].ID
	h.until("the usage of both logged", func() bool {
		s, _ := h.db.Sessions(t.Context(), 0)
		return len(s) == 2 && s[0].Usage.InputTokens+s[0].Usage.OutputTokens > 0 && s[1].Usage.InputTokens+s[1].Usage.OutputTokens > 0
	})
	kept, _ := h.db.Session(t.Context(), second)

	// The other session, from its menu; Cancel first changes nothing.
	test.TapSecondary(h.sessionRowOf("the first question"))
	h.menuItem("Delete…")
	want := "Delete “the first question”? Its messages and tool results are removed from this computer's log; usage totals of other sessions are kept."
	if !h.shows(h.ui.win, want) {
		t.Fatalf("the confirmation does not say %q:\n%s", want, strings.Join(h.texts(h.ui.win), "\n"))
	}
	h.tap(h.ui.win, "Cancel")
	test.TapSecondary(h.sessionRowOf("the first question"))
	h.menuItem("Delete…")
	h.tap(h.ui.win, "Delete")
	h.until("one session left", func() bool { return slices.Equal(h.titles(), []string{"the second question"}) })
	h.until("the session gone from the log", func() bool {
		_, err := h.db.Session(t.Context(), first)
		return errors.Is(err, store.ErrNotFound)
	})
	if ev, _ := h.db.Events(t.Context(), store.Filter{SessionID: first}); len(ev) != 0 {
		t.Errorf("%d events of the deleted session are left", len(ev))
	}
	if runs, _ := h.db.Runs(t.Context(), first); len(runs) != 0 {
		t.Errorf("%d runs of the deleted session are left", len(runs))
	}
	if s, err := h.db.Session(t.Context(), second); err != nil || s.Usage != kept.Usage || s.Runs != kept.Runs {
		t.Errorf("the other session changed: %+v, %v; was %+v", s, err, kept)
	}
	if h.ui.title.Text != "the second question" || !h.shows(h.ui.win, "The second answer.") {
		t.Errorf("deleting another session changed the chat shown: %q", h.ui.title.Text)
	}

	// The current one, with the Delete key in the list, then Enter: it
	// does the dialog's default, Delete (the filled button), as Enter
	// does in the other dialogs; it did nothing. A new chat.
	h.pressInList(fyne.KeyDelete)
	if h.ui.side.Delete == nil {
		t.Fatalf("Delete in the list did not ask")
	}
	h.ui.win.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyReturn})
	h.until("a new chat, no sessions", func() bool {
		return len(h.ui.side.Items) == 0 && h.ui.title.Text == "New chat" && len(h.ui.chat.Rows) == 0 && h.ui.conv != second
	})
	h.until("the log empty", func() bool { s, _ := h.db.Sessions(t.Context(), 0); return len(s) == 0 })
	if !h.shows(h.ui.win, sidebar.HintNoSessions) {
		t.Errorf("the empty sidebar does not say what it will hold")
	}
	// The new chat works, and the deleted one is not brought back.
	h.model.Fallback = func(map[string]any) testutil.ModelResponse {
		return testutil.ModelResponse{Body: testutil.TextChunks("Fresh.")}
	}
	h.say("a fresh start")
	h.until("its answer", func() bool { return h.shows(h.ui.win, "Fresh.") })
	h.sys.SyncLog(t.Context())
	if s, _ := h.db.Sessions(t.Context(), 0); len(s) != 1 || s[0].Title != "a fresh start" {
		t.Errorf("the log holds %+v", s)
	}
	if ok, _ := h.db.IntegrityCheck(t.Context()); ok != "ok" {
		t.Errorf("integrity_check = %q", ok)
	}
}

// TestSessionDeleteRunningRefused: a session still working is not
// deleted unless the person chooses Stop and delete (Cancel here), and a
// plain Delete is refused by the bridge too, saying why.
func TestSessionDeleteRunningRefused(t *testing.T) {
	h := newHarness(t, harnessOptions{log: true, responses: []testutil.ModelResponse{{
		Body: testutil.TextChunks("Slowly ", "but ", "surely ", "and ", "on."), Pace: 300 * time.Millisecond,
	}}})
	h.say("take your time")
	h.until("the run working", func() bool { return h.ui.running && len(h.ui.side.Items) == 1 })
	id := h.ui.side.Items[0].ID
	h.pressInList(fyne.KeyDelete)
	if h.ui.side.Delete == nil || !h.shows(h.ui.win, "Stop and delete") {
		t.Fatalf("Delete on a running session does not offer Stop and delete:\n%s", strings.Join(h.texts(h.ui.win), "\n"))
	}
	h.tap(h.ui.win, "Cancel")
	h.ui.tell(&sidebar.Delete{ID: id}) // the bridge refuses without Stop
	h.until("the refusal", func() bool { return h.shows(h.ui.win, "still working") })
	h.until("the answer", func() bool { return h.shows(h.ui.win, "surely and on.") })
	h.sys.SyncLog(t.Context())
	if _, err := h.db.Session(t.Context(), id); err != nil {
		t.Errorf("the running session was deleted: %v", err)
	}
	if len(h.ui.side.Items) != 1 || h.ui.conv != id {
		t.Errorf("the sidebar lost the running session: %+v", h.ui.side.Items)
	}
}

// TestSessionSearch: the search box filters the sessions by title and
// messages, every word in any case; % and _ are plain characters; nothing
// found says so; Escape clears it.
func TestSessionSearch(t *testing.T) {
	h := newHarness(t, harnessOptions{log: true, responses: []testutil.ModelResponse{
		{Body: testutil.TextChunks("Bananas are yellow.")},
		{Body: testutil.TextChunks("Cherries are red.")},
		{Body: testutil.TextChunks("Fully 100% sure_of_it.")},
	}})
	h.say("alpha question")
	h.until("the first answer", func() bool { return h.shows(h.ui.win, "Bananas are yellow.") })
	h.chat("beta question", "Cherries are red.")
	h.chat("gamma", "Fully 100% sure_of_it.")
	h.until("three sessions", func() bool { return len(h.ui.side.Items) == 3 })
	all := h.titles()

	search := func(query string, want ...string) {
		t.Helper()
		h.ui.win.Canvas().Focus(h.ui.side.Search)
		h.ui.side.Search.SetText("")
		test.Type(h.ui.side.Search, query) // a character at a time: the search waits for a pause
		h.until("the matches of "+query, func() bool { return slices.Equal(h.titles(), want) })
	}
	search("banana", "alpha question")
	search("YELLOW Alpha", "alpha question")
	search("question", "beta question", "alpha question")
	search("red gamma")
	if !h.shows(h.ui.win, sidebar.HintNoMatch) || h.shows(h.ui.win, sidebar.HintNoSessions) {
		t.Errorf("nothing found does not say so:\n%s", strings.Join(h.texts(h.ui.win), "\n"))
	}
	search("100%", "gamma")
	search("_", "gamma")
	search("%", "gamma")
	search(`"`)

	// Escape clears the box: all sessions again.
	h.ui.side.Search.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if h.ui.side.Search.Text != "" {
		t.Errorf("Escape left %q in the box", h.ui.side.Search.Text)
	}
	h.until("every session again", func() bool { return slices.Equal(h.titles(), all) })
	if h.shows(h.ui.win, sidebar.HintNoMatch) {
		t.Errorf("the sidebar still says nothing matches")
	}

	// A session renamed is found by its new title; the current one stays
	// shown while the search hides it in the list.
	search("alpha", "alpha question")
	h.ui.tell(&sidebar.Rename{ID: h.ui.side.Items[0].ID, Title: "Fruit salad"})
	h.until("the renamed match", func() bool { return slices.Equal(h.titles(), []string{"Fruit salad"}) })
	search("salad fruit", "Fruit salad")
	if h.ui.title.Text != "gamma" {
		t.Errorf("searching changed the chat shown to %q", h.ui.title.Text)
	}
}

// TestSessionManageWithoutLog: without a log the sidebar holds this run's
// chats: they are renamed, found by title and deleted all the same.
func TestSessionManageWithoutLog(t *testing.T) {
	h := newHarness(t, harnessOptions{responses: []testutil.ModelResponse{{Body: testutil.TextChunks("Hi.")}}})
	h.say("hello there")
	h.until("the answer", func() bool { return h.shows(h.ui.win, "Hi.") && len(h.ui.side.Items) == 1 })
	h.pressInList(fyne.KeyF2)
	h.ui.side.Title.SetText("Greeting")
	h.ui.side.Title.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn}) // Enter renames
	h.until("the new title", func() bool { return slices.Equal(h.titles(), []string{"Greeting"}) && h.ui.title.Text == "Greeting" })

	test.Type(h.ui.side.Search, "greet")
	h.until("found by its title", func() bool { return slices.Equal(h.titles(), []string{"Greeting"}) })
	h.ui.side.Search.SetText("nothing like it")
	h.until("no match", func() bool { return len(h.titles()) == 0 && h.shows(h.ui.win, sidebar.HintNoMatch) })
	h.ui.side.Search.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	h.until("all again", func() bool { return slices.Equal(h.titles(), []string{"Greeting"}) })

	test.TapSecondary(h.sessionRowOf("Greeting"))
	h.menuItem("Delete…")
	h.tap(h.ui.win, "Delete")
	h.until("a new chat", func() bool { return len(h.ui.side.Items) == 0 && h.ui.title.Text == "New chat" })
}
