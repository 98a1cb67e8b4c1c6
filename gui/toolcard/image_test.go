package toolcard

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/widget"

	"deckhand/gui/guitest"
	"deckhand/tools"
)

// TestImageSaveConfirmsAndCloses: Save… in the large view writes the file,
// says where it went and closes the view; the view stayed open with no
// word that anything was saved. The size it shows is the file's.
func TestImageSaveConfirmsAndCloses(t *testing.T) {
	h := newHarness(t)
	u := h.host
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewRGBA(image.Rect(0, 0, 20, 20))); err != nil {
		t.Fatal(err)
	}
	img := &tools.Image{MIME: "image/png", Data: b.Bytes(), Size: b.Len()}
	h.cards.showImage(img, "get-tiny-image")
	if h.cards.image == nil {
		t.Fatal("the image is not shown large")
	}
	var info []string
	guitest.Walk(u.Win.Canvas().Overlays().Top(), func(o fyne.CanvasObject) {
		if l, ok := o.(*widget.Label); ok {
			info = append(info, l.Text)
		}
	})
	if want := tools.Size(b.Len()); !slices.ContainsFunc(info, func(s string) bool { return strings.HasSuffix(s, " · "+want) }) {
		t.Errorf("the view does not show the file's size %s: %q", want, info)
	}
	// Shown whole, not cut beside the buttons: a 20×20 image's view
	// showed "get-t…".
	guitest.Walk(u.Win.Canvas().Overlays().Top(), func(o fyne.CanvasObject) {
		if l, ok := o.(*widget.Label); ok && strings.HasPrefix(l.Text, "get-tiny-image") && l.Truncation != fyne.TextTruncateOff {
			t.Errorf("the image's name and size are cut to fit: %q", l.Text)
		}
	})
	path := filepath.Join(t.TempDir(), "get-tiny-image.png")
	wc, err := storage.Writer(storage.NewFileURI(path))
	if err != nil {
		t.Fatal(err)
	}
	h.cards.writeImage(wc, img)
	got, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(got, b.Bytes()) {
		t.Fatalf("the file holds %d bytes (%v), want the %d sent", len(got), err, b.Len())
	}
	if h.cards.image != nil {
		t.Error("the large view stayed open after saving")
	}
	if told := u.Told(); !slices.Contains(told, any("Saved the image to "+path+" ("+tools.Size(b.Len())+").")) {
		t.Errorf("no word of the file saved: %q", told)
	}
}

// TestImageSaveDialogKeys: the large view's Save… dialog takes Escape once
// a click in its list took the keyboard from its name's field: Escape
// cancels the dialog and goes no further (the large view stays; the
// window's own Escape, which stops a running answer, is not reached). It
// went to the large view behind the dialog, then to the window. Saved,
// new or over a file (Overwrite?), the window has its own keys back.
func TestImageSaveDialogKeys(t *testing.T) {
	t.Setenv("HOME", t.TempDir()) // where the dialog opens, and saves
	h := newHarness(t)
	c := h.host.Win.Canvas()
	stops := 0
	window := func(k *fyne.KeyEvent) { // the main window's: Escape stops the answer
		if k.Name == fyne.KeyEscape {
			stops++
		}
	}
	c.SetOnTypedKey(window)
	key := func(name fyne.KeyName) { // as Fyne's driver gives a key
		ev := &fyne.KeyEvent{Name: name}
		if f := c.Focused(); f != nil {
			f.TypedKey(ev)
		} else if f := c.OnTypedKey(); f != nil {
			f(ev)
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewRGBA(image.Rect(0, 0, 20, 20))); err != nil {
		t.Fatal(err)
	}
	img := &tools.Image{MIME: "image/png", Data: b.Bytes(), Size: b.Len()}
	tap := func(label string) { t.Helper(); guitest.TapTop(t, c, label) }
	open := func() (view, dlg fyne.CanvasObject) {
		t.Helper()
		h.cards.showImage(img, "get-tiny-image")
		view = c.Overlays().Top()
		tap("Save…")
		if dlg = c.Overlays().Top(); dlg == view {
			t.Fatal("Save… opened no dialog")
		}
		return view, dlg
	}

	view, _ := open()
	c.Unfocus() // a click in the list of files
	key(fyne.KeyEscape)
	if top := c.Overlays().Top(); top != view || h.cards.image == nil {
		t.Fatalf("after Escape the top is the large view %v, the view open %v; want the dialog closed alone", top == view, h.cards.image != nil)
	}
	if stops != 0 {
		t.Fatal("Escape in the dialog reached the window (a running answer stopped)")
	}
	key(fyne.KeyEscape) // the large view's
	if h.cards.image != nil || stops != 0 {
		t.Fatalf("the second Escape: the view open %v, the window reached %d times; want the view closed", h.cards.image != nil, stops)
	}
	key(fyne.KeyEscape)
	if stops != 1 {
		t.Fatalf("with nothing over it the window heard Escape %d times, want once", stops)
	}

	for _, again := range []bool{false, true} { // a new file, then over it
		open()
		tap("Save")
		if again {
			tap("Yes") // Overwrite?
		}
		if h.cards.image != nil || len(c.Overlays().List()) != 0 {
			t.Fatalf("saved (over a file %v): the view open %v, %d overlays", again, h.cards.image != nil, len(c.Overlays().List()))
		}
		stops = 0
		key(fyne.KeyEscape)
		if stops != 1 {
			t.Errorf("saved (over a file %v): the window heard Escape %d times, want once: its keys are not back", again, stops)
		}
	}
	if got, err := os.ReadFile(filepath.Join(os.Getenv("HOME"), "get-tiny-image.png")); err != nil || !bytes.Equal(got, b.Bytes()) {
		t.Errorf("the file holds %d bytes (%v), want the %d sent", len(got), err, b.Len())
	}

	// Escape on Fyne's Overwrite? is its No: back to the dialog, which
	// stays (it was closed under the question).
	stops = 0
	_, dlg := open()
	tap("Save")
	c.Unfocus()
	key(fyne.KeyEscape)
	if top := c.Overlays().Top(); top != dlg {
		t.Errorf("Escape on Overwrite? left %v on top, want the Save dialog", top)
	}
	key(fyne.KeyEscape)
	if top := c.Overlays().Top(); h.cards.image == nil || top == dlg || stops != 0 {
		t.Errorf("Escape in the dialog again: the dialog open %v, the view open %v, the window heard %d Escapes; want the view alone, no Escape", top == dlg, h.cards.image != nil, stops)
	}
}
