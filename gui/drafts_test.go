package gui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"deckhand/testutil"
)

// TestDraftsPerChatAndOverRestart: each chat keeps what was typed in the
// message box and not sent: opening another chat shows that chat's own
// (a new chat's is empty), and Enter sends the draft to the chat it was
// written in. Quit and start again (a new window on the same log file),
// the drafts are still there, the new chat's too; one sent is gone. One
// box served every chat: a draft typed in one was sent to the next one
// opened, and quitting threw it away.
func TestDraftsPerChatAndOverRestart(t *testing.T) {
	dbPath := filepath.Join(t.TempDir(), "deckhand.db")
	h := newHarness(t, harnessOptions{dbPath: dbPath, responses: []testutil.ModelResponse{
		{Body: testutil.TextChunks("The first answer.")},
		{Body: testutil.TextChunks("The second answer.")},
		{Body: testutil.TextChunks("The third answer.")},
	}})
	h.say("the first question")
	h.until("the first answer", func() bool { return h.shows(h.ui.win, "The first answer.") })
	first := h.ui.conv
	h.chat("the second question", "The second answer.")
	second := h.ui.conv
	typeDraft := func(text string) {
		t.Helper()
		h.ui.win.Canvas().Focus(h.ui.input)
		test.Type(h.ui.input, text)
	}
	open := func(title, id string) {
		t.Helper()
		h.openInMain(title)
		h.until("the chat "+title+" shown", func() bool { return h.ui.conv == id })
	}
	typeDraft("a draft for the second")
	file := filepath.Join(t.TempDir(), "notes-for-the-second.txt")
	if err := os.WriteFile(file, []byte("attached to the second"), 0o600); err != nil {
		t.Fatal(err)
	}
	h.ui.comp.Add(file)
	attached := func() bool { _, reading := h.ui.comp.Ready(); return len(h.ui.comp.Files) == 1 && !reading }
	h.until("the file read", attached)
	open("the first question", first)
	if got := h.ui.input.Text; got != "" || len(h.ui.comp.Files) != 0 {
		t.Fatalf("the first chat opens with %q and %d attachments in the box, want them empty", got, len(h.ui.comp.Files))
	}
	typeDraft("my unsent draft about tables")
	h.tap(h.ui.win, "New chat")
	h.until("the new chat", func() bool { return len(h.ui.chat.Rows) == 0 })
	if got := h.ui.input.Text; got != "" {
		t.Fatalf("the new chat opens with %q in the box, want it empty", got)
	}
	typeDraft("words for a new chat")
	open("the second question", second)
	if got := h.ui.input.Text; got != "a draft for the second" || !attached() {
		t.Fatalf("the second chat shows %q and %d attachments in the box, want its draft and file", got, len(h.ui.comp.Files))
	}
	// Enter sends it here, and the first chat's draft stays its own.
	h.ui.input.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	h.until("the third answer in the second chat", func() bool { return h.ui.conv == second && h.shows(h.ui.win, "The third answer.") })
	if got := h.lastUserMessage(); !strings.Contains(got, "a draft for the second") || !strings.Contains(got, "attached to the second") {
		t.Errorf("the model got %s", got)
	}
	open("the first question", first)
	if got := h.ui.input.Text; got != "my unsent draft about tables" {
		t.Fatalf("the first chat shows %q in the box, want its draft", got)
	}
	// The caret is at the draft's end, where typing goes on (it kept the
	// column it had in the chat before, and typing landed inside).
	if row, col := h.ui.input.CursorRow, h.ui.input.CursorColumn; row != 0 || col != len("my unsent draft about tables") {
		t.Errorf("the caret is at row %d, column %d; want the draft's end, 0, %d", row, col, len("my unsent draft about tables"))
	}

	// Quit (the window stops), and start again on the same log.
	h.ui.Stop()
	h.sys.SyncLog(t.Context())
	h2 := newHarness(t, harnessOptions{dbPath: dbPath})
	h2.until("the new chat with its draft", func() bool { return h2.ui.input.Text == "words for a new chat" })
	h2.until("the logged chats", func() bool { return len(h2.ui.side.Items) == 2 })
	h2.openInMain("the first question")
	h2.until("the first chat with its draft", func() bool {
		return h2.ui.conv == first && h2.ui.input.Text == "my unsent draft about tables"
	})
	if col := h2.ui.input.CursorColumn; col != len("my unsent draft about tables") {
		t.Errorf("after a restart the caret is at column %d of the draft, want its end", col)
	}
	h2.openInMain("the second question")
	h2.until("the second chat", func() bool { return h2.ui.conv == second })
	if got := h2.ui.input.Text; got != "" {
		t.Errorf("the second chat shows %q, a draft already sent", got)
	}
}
