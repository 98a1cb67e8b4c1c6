package gui

import (
	"fmt"
	"image"
	"net/url"
	"slices"
	"strings"
	"sync/atomic"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	lru "github.com/hashicorp/golang-lru/v2"

	"deckhand/actors/servers"
	"deckhand/gui/widgets"
	"deckhand/tools"
)

// mediaView shows a tool result's images and resource links on its card.
//
// Memory: the transcript keeps an image's encoded bytes only. A card
// decodes the image it shows when it is on screen (never the off-screen
// view that measures rows), off the UI goroutine, one image at a time per
// card, scaled down to a small bitmap; the bitmap is dropped when the card
// shows something else, folds, or is among the least recently decoded once
// more than maxBitmaps are held (the list keeps a few views of rows that
// scrolled away).
type mediaView struct {
	t   *toolView
	obj *fyne.Container

	media *tools.Media
	page  int // the image shown, when there are several

	head       *fyne.Container // the pager: ‹ 2 of 3 ›
	prev, next *widget.Button
	count      *widget.Label
	pic        *cardImage
	note       *widget.Label // why an image is not shown
	noteBox    fyne.CanvasObject
	links      *fyne.Container

	// The bitmap shown, or being decoded.
	shown   *tools.Image
	pending *atomic.Bool // set to drop the decode under way
	gen     int
}

func newMediaView(t *toolView) *mediaView {
	m := &mediaView{t: t, pic: newCardImage(), links: container.NewVBox()}
	m.pic.onTap = m.enlarge
	m.prev = widget.NewButtonWithIcon("", theme.NavigateBackIcon(), func() { m.turn(-1) })
	m.next = widget.NewButtonWithIcon("", theme.NavigateNextIcon(), func() { m.turn(1) })
	m.prev.Importance, m.next.Importance = widget.LowImportance, widget.LowImportance
	var count fyne.CanvasObject
	m.count, count = widgets.Subtle("")
	m.head = container.NewHBox(m.prev, count, m.next)
	m.note, m.noteBox = widgets.Subtle("")
	m.note.Wrapping = fyne.TextWrapWord
	m.obj = container.NewVBox(m.head, m.pic, m.noteBox, m.links)
	return m
}

// set shows media; onScreen says whether the card is in the list (not the
// measuring view) and open, so that its image may be decoded.
func (m *mediaView) set(media *tools.Media, onScreen bool) {
	if media != m.media {
		m.media, m.page = media, 0
		m.setLinks(media)
	}
	if media == nil || len(media.Images) == 0 {
		m.release()
		widgets.SetVisible(m.head, false)
		widgets.SetVisible(m.pic, false)
		widgets.SetVisible(m.noteBox, false)
		widgets.SetVisible(m.obj, media != nil && len(media.Links) > 0)
		return
	}
	widgets.SetVisible(m.obj, true)
	n := len(media.Images)
	m.page = min(m.page, n-1)
	widgets.SetVisible(m.head, n > 1)
	if n > 1 {
		widgets.SetText(m.count, fmt.Sprintf("image %d of %d", m.page+1, n))
		if m.page == 0 {
			m.prev.Disable()
		} else {
			m.prev.Enable()
		}
		if m.page == n-1 {
			m.next.Disable()
		} else {
			m.next.Enable()
		}
	}
	img := &media.Images[m.page]
	why := img.Refused
	var w, h int
	if why == "" {
		var err error
		if w, h, _, err = checkToolImage(img.MIME, img.Data); err != nil {
			why = err.Error()
		} else if failed, ok := m.t.row.cv.undecodable.Get(imageKey(img)); ok {
			why = failed
		}
	}
	if why != "" {
		m.release()
		widgets.SetText(m.note, placeholder(img, why))
		widgets.SetVisible(m.pic, false)
		widgets.SetVisible(m.noteBox, true)
		return
	}
	widgets.SetVisible(m.noteBox, false)
	widgets.SetVisible(m.pic, true)
	m.pic.setSize(w, h)
	if !onScreen {
		m.release()
		return
	}
	m.load(img)
}

// imageKey names an image by its bytes (its length and ends), for the
// undecodable cache.
func imageKey(img *tools.Image) string {
	d := img.Data
	head, tail := d[:min(len(d), 64)], d[max(0, len(d)-64):]
	return fmt.Sprintf("%d:%x:%x", len(d), head, tail)
}

// placeholder is an image's line when it is not shown: the rendered
// result's, with the reason.
func placeholder(img *tools.Image, why string) string {
	mime := img.MIME
	if mime == "" {
		mime = "unknown type"
	}
	return fmt.Sprintf("[image: %s, %s: %s]", mime, tools.Size(img.Size), why)
}

func (m *mediaView) turn(by int) {
	if m.media == nil {
		return
	}
	m.page = max(0, min(m.page+by, len(m.media.Images)-1))
	m.set(m.media, m.t.onScreen())
}

// load decodes img for the card, unless it shows (or is decoding) it.
func (m *mediaView) load(img *tools.Image) {
	if m.shown == img {
		return
	}
	m.release()
	m.shown = img
	m.gen++
	gen, stop := m.gen, &atomic.Bool{}
	m.pending = stop
	ui, slots := m.t.row.cv.ui, m.t.row.cv.decodes
	mime, data := img.MIME, img.Data
	go func() {
		slots <- struct{}{}
		var bm image.Image
		var err error
		if !stop.Load() {
			bm, err = decodeToolImage(mime, data)
		}
		<-slots
		if stop.Load() {
			return
		}
		ui.post(func() {
			if m.gen != gen || stop.Load() {
				return
			}
			m.pending = nil
			if err != nil {
				// The note takes the picture's place now, and the row
				// its new height: not after the card is folded.
				m.t.row.cv.undecodable.Add(imageKey(img), err.Error())
				m.shown = nil
				m.set(m.media, m.t.onScreen())
				m.t.resize()
				return
			}
			m.pic.setBitmap(bm)
			holdBitmap(m)
		})
	}()
}

// release drops the card's bitmap, and any decode under way.
func (m *mediaView) release() {
	if !m.t.row.cv.bitmaps.Remove(m) { // dropped as it leaves
		m.dropBitmap()
	}
}

func (m *mediaView) dropBitmap() {
	if m.pending != nil {
		m.pending.Store(true)
		m.pending = nil
	}
	m.shown = nil
	m.gen++
	m.pic.setBitmap(nil)
}

// current reports whether the card still shows the image it decoded.
func (m *mediaView) current() bool {
	return m.shown != nil && m.t.onScreen() && m.t.row.row.Media == m.media
}

// maxBitmaps bounds the decoded images a window holds in all its cards.
const maxBitmaps = 8

// newBitmaps is a window's cards holding a decoded image, least recent
// first: one that leaves drops its bitmap.
func newBitmaps() *lru.Cache[*mediaView, struct{}] {
	c, _ := lru.NewWithEvict(maxBitmaps, func(m *mediaView, _ struct{}) { m.dropBitmap() })
	return c
}

// holdBitmap notes that m holds a bitmap: views that no longer show theirs
// (reused for another row) drop them, and the least recent go past
// maxBitmaps.
func holdBitmap(m *mediaView) {
	held := m.t.row.cv.bitmaps
	for _, v := range held.Keys() {
		if v != m && !v.current() {
			held.Remove(v)
		}
	}
	held.Add(m, struct{}{})
}

// setLinks makes a row per link: http(s) links open in the browser, a
// file's path is shown with a button to open it, anything else is text to
// copy.
func (m *mediaView) setLinks(media *tools.Media) {
	m.links.Objects = nil
	if media != nil {
		for _, l := range media.Links {
			m.links.Objects = append(m.links.Objects, m.linkRow(l))
		}
	}
	m.links.Refresh()
}

func (m *mediaView) linkRow(l tools.Link) fyne.CanvasObject {
	u, err := url.Parse(l.URI)
	scheme := ""
	if err == nil {
		scheme = strings.ToLower(u.Scheme)
	}
	name := l.Name
	open := func() {
		ui := m.t.row.cv.ui
		if err := ui.openURL(u); err != nil {
			ui.showError("Could not open " + l.URI + ": " + err.Error())
		}
	}
	switch {
	case (scheme == "http" || scheme == "https") && u.Host != "":
		text := l.URI
		if name != "" && name != l.URI {
			text = name + " — " + l.URI
		}
		link := widget.NewHyperlink(text, u)
		link.Truncation = fyne.TextTruncateEllipsis
		link.OnTapped = open
		return container.NewBorder(nil, nil, widget.NewIcon(theme.ComputerIcon()), nil, link)
	case scheme == "file" && u.Path != "":
		path := widget.NewLabel(u.Path)
		path.Selectable = true
		path.Wrapping = fyne.TextWrapBreak
		b := widget.NewButtonWithIcon("Open", theme.FolderOpenIcon(), open)
		b.Importance = widget.LowImportance
		return container.NewBorder(nil, nil, widget.NewIcon(theme.FileIcon()), m.withAttach(l, b), path)
	}
	text := l.URI
	if name != "" && name != l.URI {
		text = name + ": " + l.URI
	}
	t := widget.NewLabel(text)
	t.Selectable = true
	t.Wrapping = fyne.TextWrapBreak
	var b *widget.Button
	b = widget.NewButtonWithIcon("Copy", theme.ContentCopyIcon(), func() { m.t.row.copy(l.URI, b) })
	b.Importance = widget.LowImportance
	return container.NewBorder(nil, nil, widget.NewIcon(theme.InfoIcon()), m.withAttach(l, b), t)
}

// withAttach puts Attach before a link's button when the link is a
// resource of the card's server and that server is connected: it attaches
// the resource to the next message (composer_resources.go).
func (m *mediaView) withAttach(l tools.Link, b *widget.Button) fyne.CanvasObject {
	ui := m.t.row.cv.ui
	alias, _, _ := strings.Cut(m.t.row.row.Tool, ".")
	ready := slices.ContainsFunc(ui.servers, func(st servers.ServerStatus) bool {
		return st.Alias == alias && st.State == servers.StateReady
	})
	if !ready || ui.comp == nil {
		return b
	}
	a := widget.NewButtonWithIcon("Attach", theme.MailAttachmentIcon(), func() { ui.comp.attachResource(alias, l.URI) })
	a.Importance = widget.LowImportance
	return container.NewHBox(a, b)
}

// cardImage shows an image scaled to fit its width and at most
// imageMaxHeight high, its aspect kept; a small one is enlarged to
// imageMinSide. Its height follows its width, like wrapped text. Its size
// comes from the image's header, so measuring a row needs no decoding. A
// click on it (onTap) shows it larger.
type cardImage struct {
	widget.BaseWidget
	w, h  float32
	pic   *canvas.Image
	bg    *canvas.Rectangle
	onTap func()
}

var (
	_ fyne.Tappable      = (*cardImage)(nil)
	_ desktop.Cursorable = (*cardImage)(nil)
)

func (c *cardImage) Tapped(*fyne.PointEvent) {
	if c.onTap != nil {
		c.onTap()
	}
}

func (c *cardImage) Cursor() desktop.Cursor { return desktop.PointerCursor }

func newCardImage() *cardImage {
	c := &cardImage{pic: canvas.NewImageFromImage(nil), bg: canvas.NewRectangle(theme.Color(theme.ColorNameInputBackground))}
	c.pic.FillMode = canvas.ImageFillContain
	c.pic.ScaleMode = canvas.ImageScaleSmooth
	c.ExtendBaseWidget(c)
	return c
}

func (c *cardImage) setSize(w, h int) {
	if c.w != float32(w) || c.h != float32(h) {
		c.w, c.h = float32(w), float32(h)
		c.Refresh()
	}
}

func (c *cardImage) setBitmap(img image.Image) {
	if c.pic.Image != img {
		c.pic.Image = img
		c.pic.Refresh()
	}
	widgets.SetVisible(c.bg, img == nil) // a placeholder while it decodes
}

// fit is the image's size in a width (0: any).
func (c *cardImage) fit(width float32) fyne.Size {
	if c.w <= 0 || c.h <= 0 {
		return fyne.Size{}
	}
	s := float32(1)
	if side := max(c.w, c.h); side < imageMinSide {
		s = min(imageMinSide/side, imageMaxEnlarge)
	}
	if width > 0 && c.w*s > width {
		s = width / c.w
	}
	if c.h*s > imageMaxHeight {
		s = imageMaxHeight / c.h
	}
	return fyne.NewSize(c.w*s, c.h*s)
}

func (c *cardImage) CreateRenderer() fyne.WidgetRenderer {
	return &cardImageRenderer{c: c, objs: []fyne.CanvasObject{c.bg, c.pic}}
}

type cardImageRenderer struct {
	c    *cardImage
	objs []fyne.CanvasObject
}

func (r *cardImageRenderer) Layout(size fyne.Size) {
	f := r.c.fit(size.Width)
	for _, o := range r.objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(f)
	}
}

func (r *cardImageRenderer) MinSize() fyne.Size {
	f := r.c.fit(r.c.Size().Width)
	return fyne.NewSize(min(f.Width, 32), f.Height)
}

func (r *cardImageRenderer) Refresh() {
	r.Layout(r.c.Size())
	for _, o := range r.objs {
		o.Refresh()
	}
}

func (r *cardImageRenderer) Objects() []fyne.CanvasObject { return r.objs }
func (r *cardImageRenderer) Destroy()                     {}
