package gui

import (
	"fmt"
	"os"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"deckhand/tools"
)

// A tool's image, shown large over the window when its card's picture is
// clicked: as large as the window allows (a small image enlarged up to
// viewMaxEnlarge times, its pixels kept sharp), with Save… and Close; Escape closes it. It is
// decoded again for the size shown, off the UI goroutine.

// viewMaxEnlarge is the most a small image is enlarged in the large view.
const viewMaxEnlarge = 24

// imageViewer is the image shown large, while it shows.
type imageViewer struct {
	pop   *widget.PopUp
	pic   *canvas.Image
	keys  func(*fyne.KeyEvent) // the window's key handler, back when it closes
	shown *tools.Image
}

// enlarge shows the card's image large.
func (m *mediaView) enlarge() {
	if m.media == nil || m.page >= len(m.media.Images) {
		return
	}
	_, tool, _ := strings.Cut(m.t.row.row.Tool, ".")
	m.t.row.cv.ui.showImage(&m.media.Images[m.page], tool)
}

// showImage shows img over the main window; tool names the file Save…
// offers.
func (u *UI) showImage(img *tools.Image, tool string) {
	w, h, format, err := checkToolImage(img.MIME, img.Data)
	if err != nil {
		u.showError("The image cannot be shown: " + err.Error())
		return
	}
	c := u.win.Canvas()
	u.closeImage()
	room := c.Size().SubtractWidthHeight(80, 160)
	s := min(room.Width/float32(w), room.Height/float32(h), viewMaxEnlarge)
	size := fyne.NewSize(float32(w)*s, float32(h)*s)
	v := &imageViewer{pic: canvas.NewImageFromImage(nil), keys: c.OnTypedKey(), shown: img}
	v.pic.FillMode = canvas.ImageFillContain
	v.pic.ScaleMode = canvas.ImageScaleSmooth
	if s >= 2 {
		v.pic.ScaleMode = canvas.ImageScalePixels // a small image enlarged: crisp, not blurred
	}
	v.pic.SetMinSize(size)
	name := imageFileName(tool, format)
	info := widget.NewLabel(fmt.Sprintf("%s · %d×%d · %s", name, w, h, tools.Size(len(img.Data))))
	info.Truncation = fyne.TextTruncateEllipsis
	save := widget.NewButtonWithIcon("Save…", theme.DocumentSaveIcon(), func() { u.saveImage(img, name) })
	closeB := widget.NewButtonWithIcon("Close", theme.CancelIcon(), u.closeImage)
	bar := container.NewBorder(nil, nil, nil, container.NewHBox(save, closeB), info)
	v.pop = widget.NewModalPopUp(container.NewBorder(nil, bar, nil, nil, container.NewCenter(v.pic)), c)
	u.image = v
	c.Unfocus()
	c.SetOnTypedKey(func(k *fyne.KeyEvent) {
		if k.Name == fyne.KeyEscape {
			u.closeImage()
		}
	})
	v.pop.Show()

	px := func(f float32) int { return max(1, int(f*c.Scale()+0.5)) }
	go func() {
		bm, err := decodeToolImageIn(img.MIME, img.Data, px(size.Width), px(size.Height))
		u.post(func() {
			if u.image != v {
				return // closed, or another shown
			}
			if err != nil {
				u.closeImage()
				u.showError("The image cannot be shown: " + err.Error())
				return
			}
			v.pic.Image = bm
			v.pic.Refresh()
		})
	}()
}

// closeImage closes the image shown large, if any.
func (u *UI) closeImage() {
	v := u.image
	if v == nil {
		return
	}
	u.image = nil
	v.pop.Hide()
	u.win.Canvas().SetOnTypedKey(v.keys)
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

// saveImage asks where to save img and writes it there: the bytes the
// server sent (a PNG's broken optional chunk dropped, as shown).
func (u *UI) saveImage(img *tools.Image, name string) {
	d := dialog.NewFileSave(func(wc fyne.URIWriteCloser, err error) {
		if err != nil {
			u.showError("Could not save the image: " + err.Error())
			return
		}
		if wc == nil {
			return // cancelled
		}
		data, _ := tools.RepairPNG(img.Data)
		_, err = wc.Write(data)
		if cerr := wc.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			u.showError(fmt.Sprintf("Could not save the image to %s: %v", wc.URI().Path(), err))
		}
	}, u.win)
	d.SetFileName(name)
	if home, err := os.UserHomeDir(); err == nil {
		if l, err := storage.ListerForURI(storage.NewFileURI(home)); err == nil {
			d.SetLocation(l)
		}
	}
	d.Show()
	d.Resize(fyne.NewSize(820, 560)) // after Show: a FileDialog not shown yet has no size to change
}
