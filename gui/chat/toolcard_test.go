package chat

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"deckhand/testutil"
	"deckhand/tools"
)

func mediaOf(content ...tools.Image) *tools.Media { return &tools.Media{Images: content} }

func TestToolCardShowsAnImage(t *testing.T) {
	h := newCardHarness(t)
	h.finished("c1", "m.shot", "[image: image/png, 1 KiB]", mediaOf(tools.Image{MIME: "image/png", Data: testutil.TestPNG(400, 200), Size: 1024}))
	var c *RowView
	h.until("the decoded image", func() bool {
		c = h.card("m.shot")
		return c != nil && c.Tool().Media.Pic.Pic.Image != nil
	})
	m := c.Tool().Media
	if !m.Pic.Visible() || m.noteBox.Visible() || m.head.Visible() {
		t.Errorf("image %v, note %v (%q), pager %v: want the image alone", m.Pic.Visible(), m.noteBox.Visible(), m.note.Text, m.head.Visible())
	}
	if s := m.Pic.Size(); s.Width < 400 || m.Pic.MinSize().Height != 200 {
		t.Errorf("the image takes %v (min %v); want its own 400×200 in a wider card", s, m.Pic.MinSize())
	}
	if b := m.Pic.Pic.Image.Bounds(); b.Dx() != 400 || b.Dy() != 200 {
		t.Errorf("the bitmap is %v, want the image's 400×200", b)
	}
	// The row is as high as the card with its image.
	if hgt := h.ui.chat.Heights[0]; hgt < 200 {
		t.Errorf("the row is %v high, less than its image", hgt)
	}

	// Folded, the card drops its bitmap and shrinks to its header.
	open := h.ui.chat.Heights[0]
	test.Tap(c.Tool().Fold)
	if c.Tool().Args.Visible() || m.obj.Visible() || m.Pic.Pic.Image != nil {
		t.Errorf("a folded card shows its arguments %v, media %v, bitmap %v", c.Tool().Args.Visible(), m.obj.Visible(), m.Pic.Pic.Image != nil)
	}
	if folded := h.ui.chat.Heights[0]; folded >= open-150 || folded != c.MinSize().Height {
		t.Errorf("folded, the row is %v high (open: %v, the card's own: %v)", folded, open, c.MinSize().Height)
	}
	test.Tap(c.Tool().Fold)
	h.until("the image again", func() bool { return m.Pic.Pic.Image != nil })
	if h.ui.chat.Heights[0] != open {
		t.Errorf("opened again, the row is %v high, want %v", h.ui.chat.Heights[0], open)
	}
}

func TestToolCardImagePagerAndScaling(t *testing.T) {
	h := newCardHarness(t)
	h.finished("c1", "m.gallery", "three images", mediaOf(
		tools.Image{MIME: "image/png", Data: testutil.TestPNG(64, 64)},
		tools.Image{MIME: "image/png", Data: testutil.TestPNG(2000, 100)},
		tools.Image{MIME: "image/png", Data: testutil.TestPNG(100, 900)},
	))
	var m *MediaView
	h.until("the first image", func() bool {
		c := h.card("m.gallery")
		if c == nil {
			return false
		}
		m = c.Tool().Media
		return m.Pic.Pic.Image != nil
	})
	if !m.head.Visible() || m.count.Text != "image 1 of 3" || !m.prev.Disabled() {
		t.Errorf("pager: shown %v, %q, back disabled %v", m.head.Visible(), m.count.Text, m.prev.Disabled())
	}
	width := m.Pic.Size().Width
	test.Tap(m.next)
	h.until("the wide image", func() bool { return m.Pic.Pic.Image != nil && m.count.Text == "image 2 of 3" })
	h.drain()
	// 2000×100 is scaled to the card's width, its aspect kept.
	if got := m.Pic.MinSize().Height; got < 100*width/2000-1 || got > 100*width/2000+1 {
		t.Errorf("the wide image is %v high in %v; want %v", got, width, 100*width/2000)
	}
	if b := m.Pic.Pic.Image.Bounds(); b.Dx() > bitmapMaxW || b.Dy() > bitmapMaxH {
		t.Errorf("the bitmap is %v, more than %d×%d", b, bitmapMaxW, bitmapMaxH)
	}
	test.Tap(m.next)
	h.until("the tall image", func() bool { return m.Pic.Pic.Image != nil && m.count.Text == "image 3 of 3" })
	if got := m.Pic.MinSize().Height; got != imageMaxHeight {
		t.Errorf("the tall image is %v high, want at most %v", got, imageMaxHeight)
	}
	if !m.next.Disabled() {
		t.Error("the last image's next button is enabled")
	}
}

func TestToolCardRefusesBadImages(t *testing.T) {
	h := newCardHarness(t)
	corrupt := testutil.TestPNG(50, 50)
	for i := len(corrupt) - 40; i < len(corrupt)-20; i++ {
		corrupt[i] ^= 0x5a
	}
	h.finished("c1", "m.bad", "bad images", mediaOf(
		tools.Image{MIME: "image/png", Data: testutil.HugePNGHeader(5000, 5000), Size: 33},
		tools.Image{MIME: "image/png", Data: corrupt, Size: len(corrupt)},
		tools.Image{MIME: "image/bmp", Data: []byte("BM"), Size: 2},
		tools.Image{MIME: "image/png", Size: 20 << 20, Refused: "too large to show (26.7 MiB; the limit is 16.0 MiB)"},
		tools.Image{MIME: "image/png", Data: []byte("\x89PNG\r\n\x1a\n and then nothing"), Size: 25},
	))
	var m *MediaView
	h.until("the card", func() bool {
		if c := h.card("m.bad"); c != nil {
			m = c.Tool().Media
		}
		return m != nil
	})
	for i, want := range []string{
		"[image: image/png, 33 B: too large to show (5000×5000; the limit is 4096×4096)]",
		"[image: image/png, %s: could not be decoded:",
		"[image: image/bmp, 2 B: image/bmp is not shown (PNG, JPEG, GIF and WebP are)]",
		"[image: image/png, 20.0 MiB: too large to show (26.7 MiB; the limit is 16.0 MiB)]",
		"[image: image/png, 25 B: not a readable image:",
	} {
		if strings.Contains(want, "%s") {
			want = fmt.Sprintf(want, tools.Size(len(corrupt)))
		}
		h.until(fmt.Sprintf("image %d's reason", i+1), func() bool {
			return m.noteBox.Visible() && strings.HasPrefix(m.note.Text, want)
		})
		if m.Pic.Pic.Image != nil {
			t.Errorf("image %d: a bitmap is shown with %q", i+1, m.note.Text)
		}
		if i < 4 {
			test.Tap(m.next)
		}
	}
}

func TestToolCardLinks(t *testing.T) {
	var opened []string

	h := newCardHarness(t)
	h.ui.openURL = func(u *url.URL) error { opened = append(opened, u.String()); return nil }
	h.finished("c1", "m.shot", "links", &tools.Media{Links: []tools.Link{
		{Name: "The page", URI: "https://example.com/page"},
		{Name: "notes.txt", URI: "file:///tmp/notes.txt"},
		{Name: "note\x1b[31m\u202e one", URI: "mem://notes/1"},
		{URI: "javascript:alert(1)"},
	}})
	var c *RowView
	h.until("the card", func() bool { c = h.card("m.shot"); return c != nil })
	var links []*widget.Hyperlink
	var labels []string
	var buttons []*widget.Button
	walk(c.Tool().Media.Links, func(o fyne.CanvasObject) {
		switch x := o.(type) {
		case *widget.Hyperlink:
			links = append(links, x)
		case *widget.Label:
			labels = append(labels, x.Text)
		case *widget.Button:
			buttons = append(buttons, x)
		}
	})
	if len(links) != 1 || links[0].Text != "The page — https://example.com/page" {
		t.Fatalf("hyperlinks: %v", links)
	}
	test.TapAt(links[0], fyne.NewPos(20, links[0].Size().Height/2))
	want := []string{"/tmp/notes.txt", "note one: mem://notes/1", "javascript:alert(1)"}
	if strings.Join(labels, "|") != strings.Join(want, "|") {
		t.Errorf("link labels %q, want %q", labels, want)
	}
	if len(buttons) != 3 || buttons[0].Text != "Open" || buttons[1].Text != "Copy" || buttons[2].Text != "Copy" {
		t.Fatalf("link buttons: %d", len(buttons))
	}
	test.Tap(buttons[0])
	if strings.Join(opened, " ") != "https://example.com/page file:///tmp/notes.txt" {
		t.Errorf("opened %q", opened)
	}
	test.Tap(buttons[2])
	if got := h.ui.app.Clipboard().Content(); got != "javascript:alert(1)" {
		t.Errorf("Copy put %q on the clipboard", got)
	}
}

// TestToolCardShowAllKeepsTheView: pressing Show all on a long card near
// the end grows the card below, and the view stays where it was.
func TestToolCardShowAllKeepsTheView(t *testing.T) {
	h := newCardHarness(t)
	h.tr.User("go", time.Now())
	for i := range 6 {
		h.tr.Note(strings.Repeat(fmt.Sprintf("filler %d ", i), 30), false)
	}
	long := strings.Repeat("a line of output\n", 200)
	h.finished("c1", "t.echo", long, nil)
	h.tr.Assistant("Done.", time.Now())
	h.frame()
	h.drain()
	cv := h.ui.chat
	if !cv.AtEnd() {
		t.Fatal("the view is not at the end before the test")
	}
	var c *RowView
	h.until("the long card", func() bool { c = h.card("t.echo"); return c != nil && c.Tool().Expand.Visible() })
	before := cv.List.GetScrollOffset()
	test.Tap(c.Tool().Expand)
	h.drain()
	// The bridge's copy of the row, as it comes a frame later.
	h.tr.Expand(c.ID, true)
	h.frame()
	h.drain()
	if got := strings.Count(c.Tool().Out.String(), "a line of output"); got != 200 {
		t.Errorf("the expanded card shows %d lines", got)
	}
	if after := cv.List.GetScrollOffset(); after != before {
		t.Errorf("Show all moved the view from %v to %v", before, after)
	}
}

// TestToolCardWrapsAtSpaces: monospace text wraps at spaces and breaks
// only a token longer than the line.
func TestToolCardWrapsAtSpaces(t *testing.T) {
	h := newCardHarness(t)
	h.finished("c1", "t.echo", "alpha beta gamma "+strings.Repeat("x", 400), nil)
	var c *RowView
	h.until("the card", func() bool { c = h.card("t.echo"); return c != nil })
	for _, rt := range []*widget.RichText{c.Tool().Args, c.Tool().Out} {
		if rt.Wrapping != fyne.TextWrapWord {
			t.Errorf("%q wraps with %v, want TextWrapWord", rt.String(), rt.Wrapping)
		}
	}
	// The long token is broken over several lines: the result is taller
	// than two lines.
	line := fyne.MeasureText("x", 14, fyne.TextStyle{Monospace: true}).Height
	if got := c.Tool().Out.MinSize().Height; got < 3*line {
		t.Errorf("the result is %v high: the 400-character token was not broken (a line is %v)", got, line)
	}
}

// TestShellCommandCardShowsItsArguments: a local.exec card shows the
// command in its JSON arguments as it is, not with <, > and & escaped.
func TestShellCommandCardShowsItsArguments(t *testing.T) {
	h := newCardHarness(t)
	args, _ := json.Marshal(map[string]string{"command": "ls -la /tmp > out && cat <out"}) // as toolcall.CommandRequest makes them
	h.tr.ToolRequested("cmd-1", "local.exec", args)
	h.frame()
	var c *RowView
	h.until("the card", func() bool { c = h.card("local.exec"); return c != nil })
	if got, want := c.Tool().Args.String(), "{\n  \"command\": \"ls -la /tmp > out && cat <out\"\n}"; got != want || !c.Tool().Args.Visible() {
		t.Errorf("the card shows %q (visible %v), want %q", got, c.Tool().Args.Visible(), want)
	}
}

// Each window holds its own decoded images: another window's (another
// test's, run in parallel) showing many does not take this one's away.
func TestToolCardBitmapsArePerWindow(t *testing.T) {
	a := newCardHarness(t)
	a.finished("a1", "m.shot", "[image]", mediaOf(tools.Image{MIME: "image/png", Data: testutil.TestPNG(40, 20), Size: 100}))
	var ca *RowView
	a.until("the first window's image", func() bool {
		ca = a.card("m.shot")
		return ca != nil && ca.Tool().Media.Pic.Pic.Image != nil
	})
	b := newCardHarness(t)
	b.ui.win.Resize(fyne.NewSize(900, 6000))
	for i := range maxBitmaps + 1 {
		b.finished(fmt.Sprintf("b%d", i), fmt.Sprintf("m.shot%d", i), "[image]", mediaOf(tools.Image{MIME: "image/png", Data: testutil.TestPNG(40+i, 20), Size: 100}))
	}
	b.until("the other window's images", func() bool {
		n := 0
		for _, v := range b.visibleRows() {
			if v.Tool() != nil && v.Tool().Media.Pic.Pic.Image != nil {
				n++
			}
		}
		return n == maxBitmaps
	})
	a.drain()
	if ca.Tool().Media.Pic.Pic.Image == nil {
		t.Error("another window's images took this window's away")
	}
}
