package sidebar

import (
	"os"
	"path/filepath"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"deckhand/export"
	"deckhand/gui/guitest"
)

// Escape on Fyne's Overwrite? over the Export dialog is its No: the
// question closes alone, back to the dialog, and the window does not hear
// it (Escape there stops a running answer). It closed the Export dialog
// under the question, which stayed. A second Escape cancels the dialog;
// saved over the file (Yes), the window has its keys back.
func TestExportOverwriteEscape(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home) // where the dialog opens
	h, s := newFake(t)
	h.win.Resize(fyne.NewSize(900, 700))
	c := h.win.Canvas()
	stops := 0
	c.SetOnTypedKey(func(k *fyne.KeyEvent) { // the main window's: Escape stops the answer
		if k.Name == fyne.KeyEscape {
			stops++
		}
	})
	key := func(name fyne.KeyName) { // as Fyne's driver gives a key
		ev := &fyne.KeyEvent{Name: name}
		if f := c.Focused(); f != nil {
			f.TypedKey(ev)
		} else if f := c.OnTypedKey(); f != nil {
			f(ev)
		}
	}
	tap := func(label string) {
		t.Helper()
		var found *widget.Button
		guitest.Walk(c.Overlays().Top(), func(o fyne.CanvasObject) {
			if b, ok := o.(*widget.Button); ok && b.Text == label && b.Visible() {
				found = b
			}
		})
		if found == nil {
			t.Fatalf("no %q button on top of the window", label)
		}
		test.Tap(found)
	}
	if err := os.WriteFile(filepath.Join(home, "a chat.md"), []byte("before"), 0o600); err != nil {
		t.Fatal(err)
	}
	item := Item{ID: "a", Title: "a chat"}
	s.askExport(item, export.Markdown)
	dlg := c.Overlays().Top()
	if dlg == nil {
		t.Fatal("Export as Markdown… opened no dialog")
	}
	tap("Save")
	if c.Overlays().Top() == dlg {
		t.Fatal("Save over a file asked nothing (no Overwrite?)")
	}
	c.Unfocus() // a click outside the name's field
	key(fyne.KeyEscape)
	if top := c.Overlays().Top(); top != dlg || !dlg.Visible() {
		t.Fatalf("Escape on Overwrite?: the Export dialog on top %v, shown %v; want the question closed alone", top == dlg, dlg.Visible())
	}
	if stops != 0 || len(h.told) != 0 {
		t.Fatalf("Escape on Overwrite? reached the window %d times, told %v", stops, h.told)
	}
	key(fyne.KeyEscape)
	if n := len(c.Overlays().List()); n != 0 || stops != 0 || len(h.told) != 0 {
		t.Fatalf("Escape in the dialog: %d overlays left, the window heard %d, told %v; want it cancelled, nothing more", n, stops, h.told)
	}

	// Saved over the file: the export is asked for, the keys are back.
	s.askExport(item, export.Markdown)
	tap("Save")
	tap("Yes")
	if n := len(c.Overlays().List()); n != 0 || len(h.told) != 1 {
		t.Fatalf("Overwrite? Yes: %d overlays left, told %v", n, h.told)
	}
	ex, ok := h.last().(*Export)
	if !ok || ex.Name != filepath.Join(home, "a chat.md") {
		t.Fatalf("Overwrite? Yes told %#v, want the export to %s", h.last(), filepath.Join(home, "a chat.md"))
	}
	ex.W.Close()
	key(fyne.KeyEscape)
	if stops != 1 {
		t.Errorf("after the export the window heard Escape %d times, want once: its keys are not back", stops)
	}
}
