package toolcard

import (
	"fmt"
	"image"
	"os"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"

	"deckhand/gui/widgets"
	"deckhand/gui/widgets/imageview"
	"deckhand/tools"
)

// A tool's image, shown large over the window when its card's picture is
// clicked (imageview.View), checked against Deckhand's limits first.

// enlarge shows the card's image large.
func (m *Media) enlarge() {
	if m.media == nil || m.page >= len(m.media.Images) {
		return
	}
	row, _ := m.t.row.Shown()
	_, tool, _ := strings.Cut(row.Tool, ".")
	m.t.cards.showImage(&m.media.Images[m.page], tool)
}

// showImage shows img over the main window; tool names the file Save…
// offers.
func (cs *Cards) showImage(img *tools.Image, tool string) {
	w, h, format, err := tools.CheckImage(img.MIME, img.Data)
	if err != nil {
		cs.host.ShowError("The image cannot be shown: " + err.Error())
		return
	}
	cs.closeImage()
	name := imageFileName(tool, format)
	v := imageview.Show(cs.host.Window().Canvas(), imageview.Image{
		Width: w, Height: h,
		// The size of the file Save… writes (a PNG's broken chunk
		// dropped): the view said 3.9 KiB of a file of 1,285 bytes.
		Info: fmt.Sprintf("%s · %d×%d · %s", name, w, h, tools.Size(len(savedImage(img)))),
		Decode: func(maxW, maxH int) (image.Image, error) {
			return tools.DecodeImage(img.MIME, img.Data, maxW, maxH)
		},
		Save: func() { cs.saveImage(img, name) },
	}, cs.host.Post, func(err error) { cs.host.ShowError("The image cannot be shown: " + err.Error()) })
	v.OnClosed = func() {
		if cs.image == v {
			cs.image = nil
		}
	}
	cs.image = v
}

// closeImage closes the image shown large, if any.
func (cs *Cards) closeImage() {
	if cs.image != nil {
		cs.image.Close()
	}
}

// imageFileName is the name Save… offers: the tool's, with the format's
// extension.
func imageFileName(tool, format string) string {
	ext := map[string]string{"jpeg": ".jpg"}[format]
	if ext == "" {
		ext = "." + format
	}
	name := strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r < ' ' {
			return '-'
		}
		return r
	}, tool)
	if name == "" {
		name = "image"
	}
	return name + ext
}

// savedImage is what Save… writes: the bytes the server sent, a PNG's
// broken optional chunk dropped, as shown.
func savedImage(img *tools.Image) []byte {
	data, _ := tools.RepairPNG(img.Data)
	return data
}

// writeImage writes img to wc, then closes the large view and says where
// the file went: the view stayed open, with no word that it was saved.
func (cs *Cards) writeImage(wc fyne.URIWriteCloser, img *tools.Image) {
	data := savedImage(img)
	_, err := wc.Write(data)
	if cerr := wc.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		cs.host.ShowError(fmt.Sprintf("Could not save the image to %s: %v", wc.URI().Path(), err))
		return
	}
	cs.closeImage()
	cs.host.ShowInfo(fmt.Sprintf("Saved the image to %s (%s).", wc.URI().Path(), tools.Size(len(data))))
}

// saveImage asks where to save img and writes it there: the bytes the
// server sent (a PNG's broken optional chunk dropped, as shown).
//
// Escape cancels, as it does the sidebar's Export, once a click in the
// list took the keyboard from the name's field (widgets.DialogKeys: Fyne's
// file dialog takes no keys, and its field keeps Escape and does nothing
// with it). Without it, Escape went to the large view behind the dialog,
// then to the window, where it stops the answer being written.
func (cs *Cards) saveImage(img *tools.Image, name string) {
	cs.saveAs(name, "the image", func(wc fyne.URIWriteCloser) { cs.writeImage(wc, img) })
}

// saveAs asks where to save a file offered as name, in the person's home
// folder first, and gives write the file chosen; what names the thing
// saved in an error ("the image").
func (cs *Cards) saveAs(name, what string, write func(fyne.URIWriteCloser)) {
	win := cs.host.Window()
	var d *dialog.FileDialog
	restore, shown := widgets.FileDialogKeys(win, func() { d.Dismiss() })
	d = dialog.NewFileSave(func(wc fyne.URIWriteCloser, err error) {
		// The keys go back before the large view closes (writeImage),
		// which gives the window its own: Fyne calls this before its
		// OnClosed when it asked Overwrite?, after it otherwise.
		restore()
		if err != nil {
			cs.host.ShowError("Could not save " + what + ": " + err.Error())
			return
		}
		if wc == nil {
			return // cancelled
		}
		write(wc)
	}, win)
	d.SetOnClosed(restore)
	d.SetFileName(name)
	if home, err := os.UserHomeDir(); err == nil {
		if l, err := storage.ListerForURI(storage.NewFileURI(home)); err == nil {
			d.SetLocation(l)
		}
	}
	d.Show()
	shown()
	d.Resize(fyne.NewSize(820, 560)) // after Show: a FileDialog not shown yet has no size to change
}
