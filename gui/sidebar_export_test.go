package gui

import (
	"bytes"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"deckhand/gui/sidebar"
	"deckhand/testutil"
)

// Pin on a chat's menu puts it first, marked, and the log keeps it; Unpin
// puts it back. Export as Markdown… asks where (a file dialog) and writes
// the chat there, saying so.
func TestSessionPinAndExport(t *testing.T) {
	dbPath := filepath.Join(t.TempDir(), "deckhand.db")
	h := newHarness(t, harnessOptions{dbPath: dbPath, responses: []testutil.ModelResponse{
		{Body: testutil.TextChunks("The first answer.")}, {Body: testutil.TextChunks("The second answer.")},
	}})
	h.chat("the first question", "The first answer.")
	h.chat("the second question", "The second answer.")
	h.until("both in the sidebar", func() bool {
		return h.sessionRowOf("the first question") != nil && h.sessionRowOf("the second question") != nil
	})
	test.TapSecondary(h.sessionRowOf("the first question"))
	h.menuItem("Pin")
	h.until("the pinned chat first, marked", func() bool {
		return len(h.ui.side.Items) == 2 && h.ui.side.Items[0].Title == "the first question" && h.ui.side.Items[0].Pinned &&
			strings.HasPrefix(h.sessionRowOf("the first question").Title.Text, sidebar.PinMark)
	})
	if s, err := h.db.Session(t.Context(), h.ui.side.Items[0].ID); err != nil || !s.Pinned {
		t.Errorf("the log does not keep the pin: %+v, %v", s, err)
	}
	test.TapSecondary(h.sessionRowOf("the first question"))
	h.menuItem("Unpin")
	h.until("the chats in their order again", func() bool {
		return len(h.ui.side.Items) == 2 && h.ui.side.Items[0].Title == "the second question" && !h.ui.side.Items[1].Pinned
	})

	// Export: the dialog's answer is a file, written by the bridge.
	test.TapSecondary(h.sessionRowOf("the first question"))
	h.menuItem("Export as Markdown…")
	out := filepath.Join(t.TempDir(), "chat.md")
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	var logged bytes.Buffer
	h.ui.log = slog.New(slog.NewTextHandler(&logged, nil))
	h.ui.tell(&sidebar.Export{ID: h.ui.side.Items[1].ID, Format: "markdown", Name: out, W: f})
	h.until("the export done", func() bool { return h.shows(h.ui.win, "Exported to "+out) })
	// Done as asked: logged as information, not as a warning.
	if l := logged.String(); !strings.Contains(l, "level=INFO") || strings.Contains(l, "level=WARN") {
		t.Errorf("the export is logged as:\n%s", l)
	}
	if st, err := os.Stat(out); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("the export's file: %v, %v; want it the person's own (0600), as the log's files", st.Mode(), err)
	}
	data, _ := os.ReadFile(out)
	for _, want := range []string{"# the first question", "> the first question", "The first answer.", "scripted"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("the export lacks %q:\n%s", want, data)
		}
	}
}
