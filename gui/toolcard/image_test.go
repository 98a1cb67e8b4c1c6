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
