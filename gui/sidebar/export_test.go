package sidebar

import (
	"os"
	"path/filepath"
	"testing"

	"fyne.io/fyne/v2"
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
	tap := func(label string) { t.Helper(); guitest.TapTop(t, c, label) }
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

// TestExportEscapeInTheName: Escape in the Export dialog's name field,
// which has the keyboard as it opens, cancels the dialog, telling nothing
// and with the window not hearing it; it did nothing (Fyne's field keeps
// the key). A name typed there is the file's, and Enter in it saves.
func TestExportEscapeInTheName(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	h, s := newFake(t)
	h.win.Resize(fyne.NewSize(900, 700))
	c := h.win.Canvas()
	heard := 0
	c.SetOnTypedKey(func(*fyne.KeyEvent) { heard++ })
	item := Item{ID: "a", Title: "a chat"}

	s.askExport(item, export.Markdown)
	if c.Overlays().Top() == nil {
		t.Fatal("Export as Markdown… opened no dialog")
	}
	name, ok := c.Focused().(fyne.Widget)
	if !ok || name == nil {
		t.Fatalf("the name's field has not the keyboard as the dialog opens: %T", c.Focused())
	}
	c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if n := len(c.Overlays().List()); n != 0 || heard != 0 || len(h.told) != 0 {
		t.Fatalf("Escape in the name's field: %d overlays left, the window heard %d keys, told %v; want the dialog cancelled, nothing more", n, heard, h.told)
	}

	// A file chosen in the list is the name the field shows.
	if err := os.WriteFile(filepath.Join(home, "old notes.md"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	s.askExport(item, export.Markdown)
	f := c.Focused()
	var file fyne.Tappable
	guitest.Walk(c.Overlays().Top(), func(o fyne.CanvasObject) {
		tp, ok := o.(fyne.Tappable)
		if !ok {
			return // the deepest tappable holding the name: the file's item
		}
		for _, l := range guitest.All[*widget.Label](o) {
			if l.Text == "old notes.md" || l.Text == "old notes" { // the grid shows no extension
				file = tp
			}
		}
	})
	if file == nil {
		t.Fatal("the dialog lists no old notes.md")
	}
	file.Tapped(&fyne.PointEvent{})
	if got := f.(interface{ EntryWidget() *widget.Entry }).EntryWidget().Text; got != "old notes.md" {
		t.Errorf("after a file chosen in the list the name's field shows %q, want %q", got, "old notes.md")
	}
	f.(fyne.Shortcutable).TypedShortcut(&fyne.ShortcutSelectAll{})
	for _, r := range "other.md" {
		f.TypedRune(r)
	}
	f.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if n := len(c.Overlays().List()); n != 0 || len(h.told) != 1 {
		t.Fatalf("Enter in the name's field: %d overlays left, told %v", n, h.told)
	}
	ex, ok := h.last().(*Export)
	if want := filepath.Join(home, "other.md"); !ok || ex.Name != want {
		t.Fatalf("Enter in the name's field told %#v, want the export to %s", h.last(), want)
	}
	ex.W.Close()
}
