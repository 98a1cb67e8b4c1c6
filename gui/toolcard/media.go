package toolcard

import (
	"fmt"
	"image"
	"net/url"
	"strings"
	"sync/atomic"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	lru "github.com/hashicorp/golang-lru/v2"

	"deckhand/gui/widgets"
	"deckhand/gui/widgets/imageview"
	"deckhand/tools"
)

// How a card shows a tool's images (checked and decoded by package tools).
const (
	imageMaxHeight = 320 // the most a card's image is high on screen
	// imageMinSide is the side a small image is enlarged to on a card (at
	// most imageMaxEnlarge times): server-everything's 20-pixel logo
	// was a speck.
	imageMinSide    = 160
	imageMaxEnlarge = 8
	// A decoded image is scaled down to fit this box (twice the shown
	// size, for HiDPI screens) and the full decode dropped: a card keeps
	// a bitmap of at most about 2.6 MB.
	bitmapMaxW, bitmapMaxH = 1280, 2 * imageMaxHeight
)

// Media shows a tool result's images and resource links on its card.
//
// Memory: the transcript keeps an image's encoded bytes only. A card
// decodes the image it shows when it is on screen (never the off-screen
// view that measures rows), off the UI goroutine, one image at a time per
// card, scaled down to a small bitmap; the bitmap is dropped when the card
// shows something else, folds, or is among the least recently decoded once
// more than maxBitmaps are held (the list keeps a few views of rows that
// scrolled away).
type Media struct {
	t   *Card
	obj *fyne.Container

	media *tools.Media
	page  int // the image shown, when there are several

	head       *fyne.Container // the pager: ‹ 2 of 3 ›
	prev, next *widgets.TipButton
	count      *widget.Label
	Pic        *imageview.Fit
	note       *widget.Label // why an image is not shown
	noteBox    fyne.CanvasObject
	Links      *fyne.Container

	// The bitmap shown, or being decoded.
	shown   *tools.Image
	pending *atomic.Bool // set to drop the decode under way
	gen     int
}

func newMedia(t *Card) *Media {
	m := &Media{t: t, Pic: imageview.NewFit(imageMaxHeight, imageMinSide, imageMaxEnlarge), Links: container.NewVBox()}
	m.Pic.OnTap = m.enlarge
	m.prev = widgets.NewTipButton("", theme.NavigateBackIcon(), "Previous image", t.cards.Tips, func() { m.turn(-1) })
	m.next = widgets.NewTipButton("", theme.NavigateNextIcon(), "Next image", t.cards.Tips, func() { m.turn(1) })
	m.prev.Importance, m.next.Importance = widget.LowImportance, widget.LowImportance
	var count fyne.CanvasObject
	m.count, count = widgets.Subtle("")
	m.head = container.NewHBox(m.prev, count, m.next)
	m.note, m.noteBox = widgets.Subtle("")
	m.note.Wrapping = fyne.TextWrapWord
	m.obj = container.NewVBox(m.head, m.Pic, m.noteBox, m.Links)
	return m
}

// set shows media; onScreen says whether the card is in the list (not the
// measuring view) and open, so that its image may be decoded.
func (m *Media) set(media *tools.Media, onScreen bool) {
	if media != m.media {
		m.media, m.page = media, 0
		m.setLinks(media)
	}
	if media == nil || len(media.Images) == 0 {
		m.release()
		widgets.SetVisible(m.head, false)
		widgets.SetVisible(m.Pic, false)
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
		if w, h, _, err = tools.CheckImage(img.MIME, img.Data); err != nil {
			why = err.Error()
		} else if failed, ok := m.t.cards.undecodable.Get(imageKey(img)); ok {
			why = failed
		}
	}
	if why != "" {
		m.release()
		widgets.SetText(m.note, placeholder(img, why))
		widgets.SetVisible(m.Pic, false)
		widgets.SetVisible(m.noteBox, true)
		return
	}
	widgets.SetVisible(m.noteBox, false)
	widgets.SetVisible(m.Pic, true)
	m.Pic.SetSize(w, h)
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

func (m *Media) turn(by int) {
	if m.media == nil {
		return
	}
	m.page = max(0, min(m.page+by, len(m.media.Images)-1))
	m.set(m.media, m.t.onScreen())
}

// load decodes img for the card, unless it shows (or is decoding) it.
func (m *Media) load(img *tools.Image) {
	if m.shown == img {
		return
	}
	m.release()
	m.shown = img
	m.gen++
	gen, stop := m.gen, &atomic.Bool{}
	m.pending = stop
	host, slots := m.t.cards.host, m.t.cards.decodes
	mime, data := img.MIME, img.Data
	go func() {
		slots <- struct{}{}
		var bm image.Image
		var err error
		if !stop.Load() {
			bm, err = tools.DecodeImage(mime, data, bitmapMaxW, bitmapMaxH)
		}
		<-slots
		if stop.Load() {
			return
		}
		host.Post(func() {
			if m.gen != gen || stop.Load() {
				return
			}
			m.pending = nil
			if err != nil {
				// The note takes the picture's place now, and the row
				// its new height: not after the card is folded.
				m.t.cards.undecodable.Add(imageKey(img), err.Error())
				m.shown = nil
				m.set(m.media, m.t.onScreen())
				m.t.row.Remeasure()
				return
			}
			m.Pic.SetBitmap(bm)
			holdBitmap(m)
		})
	}()
}

// release drops the card's bitmap, and any decode under way.
func (m *Media) release() {
	if !m.t.cards.bitmaps.Remove(m) { // dropped as it leaves
		m.dropBitmap()
	}
}

func (m *Media) dropBitmap() {
	if m.pending != nil {
		m.pending.Store(true)
		m.pending = nil
	}
	m.shown = nil
	m.gen++
	m.Pic.SetBitmap(nil)
}

// current reports whether the card still shows the image it decoded.
func (m *Media) current() bool {
	row, _ := m.t.row.Shown()
	return m.shown != nil && m.t.onScreen() && row.Media == m.media
}

// maxBitmaps bounds the decoded images a window holds in all its cards.
const maxBitmaps = 8

// newBitmaps is a window's cards holding a decoded image, least recent
// first: one that leaves drops its bitmap.
func newBitmaps() *lru.Cache[*Media, struct{}] {
	c, _ := lru.NewWithEvict(maxBitmaps, func(m *Media, _ struct{}) { m.dropBitmap() })
	return c
}

// holdBitmap notes that m holds a bitmap: views that no longer show theirs
// (reused for another row) drop them, and the least recent go past
// maxBitmaps.
func holdBitmap(m *Media) {
	held := m.t.cards.bitmaps
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
func (m *Media) setLinks(media *tools.Media) {
	m.Links.Objects = nil
	if media != nil {
		for _, l := range media.Links {
			m.Links.Objects = append(m.Links.Objects, m.linkRow(l))
		}
	}
	m.Links.Refresh()
}

func (m *Media) linkRow(l tools.Link) fyne.CanvasObject {
	u, err := url.Parse(l.URI)
	scheme := ""
	if err == nil {
		scheme = strings.ToLower(u.Scheme)
	}
	name := l.Name
	open := func() {
		host := m.t.cards.host
		if err := host.OpenURL(u); err != nil {
			host.ShowError("Could not open " + l.URI + ": " + err.Error())
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
	b = widget.NewButtonWithIcon("Copy", theme.ContentCopyIcon(), func() { m.t.row.Copy(l.URI, b) })
	b.Importance = widget.LowImportance
	return container.NewBorder(nil, nil, widget.NewIcon(theme.InfoIcon()), m.withAttach(l, b), t)
}

// withAttach puts Attach before a link's button when the link is a
// resource of the card's server and that server is connected: it attaches
// the resource to the next message (package composer).
func (m *Media) withAttach(l tools.Link, b *widget.Button) fyne.CanvasObject {
	host := m.t.cards.host
	row, _ := m.t.row.Shown()
	alias, _, _ := strings.Cut(row.Tool, ".")
	if !host.ServerReady(alias) {
		return b
	}
	a := widget.NewButtonWithIcon("Attach", theme.MailAttachmentIcon(), func() { host.AttachResource(alias, l.URI) })
	a.Importance = widget.LowImportance
	return container.NewHBox(a, b)
}
