package toolcard

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2/storage"

	"deckhand/tools"
)

// A result the limit cut: its Show says it shows what the model saw (it
// said "the whole result", and showed the 31 KiB of a 4 MiB result the
// model saw: new-user pass 13, F3). Kept whole by Deckhand, the card
// offers Save the whole result…, which writes the kept file; not kept,
// it says the rest was not kept, and offers no Save.
func TestCutResultSaysWhatItShowsAndSavesTheWhole(t *testing.T) {
	h := newHarness(t)
	h.host.Results = t.TempDir()
	part := strings.Repeat("a line the model saw\n", 300)
	h.finished("c1", "s.big", part, nil)
	h.tr.ToolCut("c1", tools.Cut{Kept: len(part), Whole: 4 << 20, Saved: true})
	h.frame()
	c := h.card("s.big")
	if more := c.OutMore.Text; !strings.HasPrefix(more, "Show all the model saw (") {
		t.Errorf("the cut result's end says %q, want Show all the model saw (…)", more)
	}
	if !c.SaveWhole.Visible() || !strings.Contains(c.CutNote.Text, "kept the whole result") {
		t.Fatalf("a kept result: Save the whole result… shown %v, note %q", c.SaveWhole.Visible(), c.CutNote.Text)
	}

	whole := part + strings.Repeat("the rest\n", 1000)
	row := h.rows[0].row
	if err := os.WriteFile(h.host.ResultFile("c1", row.Run, row.Call), []byte(whole), 0o600); err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(t.TempDir(), wholeName(row.Tool))
	wc, err := storage.Writer(storage.NewFileURI(dst))
	if err != nil {
		t.Fatal(err)
	}
	h.cards.writeWhole(wc, h.host.ResultFile("c1", row.Run, row.Call))
	if got, err := os.ReadFile(dst); err != nil || string(got) != whole {
		t.Errorf("saved %d bytes (%v), want the %d kept", len(got), err, len(whole))
	}
	if told := h.host.Told(); len(told) != 1 || !strings.HasPrefix(told[0].(string), "Saved the whole result") {
		t.Errorf("the person was told %v", told)
	}

	h.tr.ToolCut("c1", tools.Cut{Kept: len(part), Whole: 4 << 20})
	h.frame()
	if c.SaveWhole.Visible() || !strings.HasSuffix(c.CutNote.Text, "The rest was not kept.") {
		t.Errorf("a result not kept: Save shown %v, note %q", c.SaveWhole.Visible(), c.CutNote.Text)
	}
	if more := c.OutMore.Text; !strings.HasPrefix(more, "Show all the model saw (") {
		t.Errorf("the cut result's end says %q, want Show all the model saw (…)", more)
	}
}
