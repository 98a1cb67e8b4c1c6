package gui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"net/url"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"deckhand/config"
	"deckhand/testutil"
	"deckhand/tools"
	"deckhand/transcript"
)

// cardHarness is a window whose transcript the test writes itself: a
// transcript of its own, drawn into the chat view as the bridge's frames
// would.
type cardHarness struct {
	*harness
	tr *transcript.Transcript
}

func newCardHarness(t *testing.T) *cardHarness { return newCardHarnessWith(t, harnessOptions{}) }

func newCardHarnessWith(t *testing.T, o harnessOptions) *cardHarness {
	h := newHarness(t, o)
	h.until("a new conversation", func() bool { return h.ui.conv != "" })
	h.drain()
	h.ui.win.Resize(fyne.NewSize(900, 700))
	return &cardHarness{harness: h, tr: transcript.New()}
}

// drain runs the window's queued work until none is left for a moment.
func (h *harness) drain() {
	for {
		select {
		case f := <-h.queue:
			f()
		case <-time.After(100 * time.Millisecond):
			return
		}
	}
}

// finished adds a finished call of tool with output and media, and draws it.
func (h *cardHarness) finished(call, tool, output string, media *tools.Media) {
	h.tr.ToolRequested(call, tool, []byte(`{"q": "x"}`))
	h.tr.ToolStarted(call, tool, nil)
	h.tr.ToolFinished(call, tool, nil, output, false, false, 12*time.Millisecond)
	h.tr.ToolMedia(call, media)
	h.frame()
}

// frame draws the transcript's changes, as a bridge frame does.
func (h *cardHarness) frame() {
	n, changed := h.tr.Changes()
	h.ui.chat.update(n, changed)
}

func mediaOf(content ...tools.Image) *tools.Media { return &tools.Media{Images: content} }

func TestToolCardShowsAnImage(t *testing.T) {
	h := newCardHarness(t)
	h.finished("c1", "m.shot", "[image: image/png, 1 KiB]", mediaOf(tools.Image{MIME: "image/png", Data: testutil.TestPNG(400, 200), Size: 1024}))
	var c *rowView
	h.until("the decoded image", func() bool {
		c = h.card("m.shot")
		return c != nil && c.tool().media.pic.pic.Image != nil
	})
	m := c.tool().media
	if !m.pic.Visible() || m.noteBox.Visible() || m.head.Visible() {
		t.Errorf("image %v, note %v (%q), pager %v: want the image alone", m.pic.Visible(), m.noteBox.Visible(), m.note.Text, m.head.Visible())
	}
	if s := m.pic.Size(); s.Width < 400 || m.pic.MinSize().Height != 200 {
		t.Errorf("the image takes %v (min %v); want its own 400×200 in a wider card", s, m.pic.MinSize())
	}
	if b := m.pic.pic.Image.Bounds(); b.Dx() != 400 || b.Dy() != 200 {
		t.Errorf("the bitmap is %v, want the image's 400×200", b)
	}
	// The row is as high as the card with its image.
	if hgt := h.ui.chat.heights[0]; hgt < 200 {
		t.Errorf("the row is %v high, less than its image", hgt)
	}

	// Folded, the card drops its bitmap and shrinks to its header.
	open := h.ui.chat.heights[0]
	test.Tap(c.tool().fold)
	if c.tool().args.Visible() || m.obj.Visible() || m.pic.pic.Image != nil {
		t.Errorf("a folded card shows its arguments %v, media %v, bitmap %v", c.tool().args.Visible(), m.obj.Visible(), m.pic.pic.Image != nil)
	}
	if folded := h.ui.chat.heights[0]; folded >= open-150 || folded != c.MinSize().Height {
		t.Errorf("folded, the row is %v high (open: %v, the card's own: %v)", folded, open, c.MinSize().Height)
	}
	test.Tap(c.tool().fold)
	h.until("the image again", func() bool { return m.pic.pic.Image != nil })
	if h.ui.chat.heights[0] != open {
		t.Errorf("opened again, the row is %v high, want %v", h.ui.chat.heights[0], open)
	}
}

func TestToolCardImagePagerAndScaling(t *testing.T) {
	h := newCardHarness(t)
	h.finished("c1", "m.gallery", "three images", mediaOf(
		tools.Image{MIME: "image/png", Data: testutil.TestPNG(64, 64)},
		tools.Image{MIME: "image/png", Data: testutil.TestPNG(2000, 100)},
		tools.Image{MIME: "image/png", Data: testutil.TestPNG(100, 900)},
	))
	var m *mediaView
	h.until("the first image", func() bool {
		c := h.card("m.gallery")
		if c == nil {
			return false
		}
		m = c.tool().media
		return m.pic.pic.Image != nil
	})
	if !m.head.Visible() || m.count.Text != "image 1 of 3" || !m.prev.Disabled() {
		t.Errorf("pager: shown %v, %q, back disabled %v", m.head.Visible(), m.count.Text, m.prev.Disabled())
	}
	width := m.pic.Size().Width
	test.Tap(m.next)
	h.until("the wide image", func() bool { return m.pic.pic.Image != nil && m.count.Text == "image 2 of 3" })
	h.drain()
	// 2000×100 is scaled to the card's width, its aspect kept.
	if got := m.pic.MinSize().Height; got < 100*width/2000-1 || got > 100*width/2000+1 {
		t.Errorf("the wide image is %v high in %v; want %v", got, width, 100*width/2000)
	}
	if b := m.pic.pic.Image.Bounds(); b.Dx() > bitmapMaxW || b.Dy() > bitmapMaxH {
		t.Errorf("the bitmap is %v, more than %d×%d", b, bitmapMaxW, bitmapMaxH)
	}
	test.Tap(m.next)
	h.until("the tall image", func() bool { return m.pic.pic.Image != nil && m.count.Text == "image 3 of 3" })
	if got := m.pic.MinSize().Height; got != imageMaxHeight {
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
	var m *mediaView
	h.until("the card", func() bool {
		if c := h.card("m.bad"); c != nil {
			m = c.tool().media
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
		if m.pic.pic.Image != nil {
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
	var c *rowView
	h.until("the card", func() bool { c = h.card("m.shot"); return c != nil })
	var links []*widget.Hyperlink
	var labels []string
	var buttons []*widget.Button
	walk(c.tool().media.links, func(o fyne.CanvasObject) {
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
	if got := h.app.Clipboard().Content(); got != "javascript:alert(1)" {
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
	if !cv.atEnd() {
		t.Fatal("the view is not at the end before the test")
	}
	var c *rowView
	h.until("the long card", func() bool { c = h.card("t.echo"); return c != nil && c.tool().expand.Visible() })
	before := cv.list.GetScrollOffset()
	test.Tap(c.tool().expand)
	h.drain()
	// The bridge's copy of the row, as it comes a frame later.
	h.tr.Expand(c.id, true)
	h.frame()
	h.drain()
	if got := strings.Count(c.tool().out.String(), "a line of output"); got != 200 {
		t.Errorf("the expanded card shows %d lines", got)
	}
	if after := cv.list.GetScrollOffset(); after != before {
		t.Errorf("Show all moved the view from %v to %v", before, after)
	}
}

// TestToolCardWrapsAtSpaces: monospace text wraps at spaces and breaks
// only a token longer than the line.
func TestToolCardWrapsAtSpaces(t *testing.T) {
	h := newCardHarness(t)
	h.finished("c1", "t.echo", "alpha beta gamma "+strings.Repeat("x", 400), nil)
	var c *rowView
	h.until("the card", func() bool { c = h.card("t.echo"); return c != nil })
	for _, rt := range []*widget.RichText{c.tool().args, c.tool().out} {
		if rt.Wrapping != fyne.TextWrapWord {
			t.Errorf("%q wraps with %v, want TextWrapWord", rt.String(), rt.Wrapping)
		}
	}
	// The long token is broken over several lines: the result is taller
	// than two lines.
	line := fyne.MeasureText("x", 14, fyne.TextStyle{Monospace: true}).Height
	if got := c.tool().out.MinSize().Height; got < 3*line {
		t.Errorf("the result is %v high: the 400-character token was not broken (a line is %v)", got, line)
	}
}

// TestLongRunCardsCollapse: the finished cards of a run of several calls
// fold when the next message is sent; each can be opened again.
func TestLongRunCardsCollapse(t *testing.T) {
	var calls []testutil.ToolCallSpec
	for i := range transcript.CollapseRun {
		calls = append(calls, testutil.ToolCallSpec{ID: fmt.Sprintf("c%d", i), Name: "t__echo", Arguments: fmt.Sprintf(`{"text": "hi %d"}`, i)})
	}
	h := newHarness(t, harnessOptions{
		cfg: func(c *config.Config) { c.MCP.AutoApprove = map[string]bool{"t.*": true} },
		fallback: func(req map[string]any) testutil.ModelResponse {
			msgs, _ := req["messages"].([]any)
			last, _ := msgs[len(msgs)-1].(map[string]any)
			if last["role"] == "user" && last["content"] == "echo four times" {
				return testutil.ModelResponse{Body: testutil.ToolCallChunks(calls...)}
			}
			return testutil.ModelResponse{Body: testutil.TextChunks("Done.")}
		},
	})
	h.say("echo four times")
	h.until("the answer", func() bool { return h.shows(h.ui.win, "Done.") && !h.ui.running })
	if c := h.card("t.echo"); c == nil || c.row.Collapsed {
		t.Fatal("the cards are folded while their answer is read")
	}
	h.say("thanks")
	h.until("the folded cards", func() bool {
		c := h.card("t.echo")
		return c != nil && c.row.Collapsed && !c.tool().args.Visible()
	})
	c := h.card("t.echo")
	test.Tap(c.tool().fold)
	if c.row.Collapsed || !c.tool().args.Visible() {
		t.Error("the fold button did not open the card")
	}
}

// TestToolCardMediaEndToEnd: a server's image and links reach the card
// through the actors and the bridge.
func TestToolCardMediaEndToEnd(t *testing.T) {
	srv := testutil.ServeHTTP(t, testutil.NewMediaServer("m"))
	h := newHarness(t, harnessOptions{
		cfg: func(c *config.Config) {
			c.MCP.AutoApprove = map[string]bool{"m.*": true}
			c.MCP.Servers = map[string]config.Server{"m": {URL: srv.StreamableURL}}
		},
		fallback: toolThenText(testutil.ToolCallSpec{ID: "c1", Name: "m__shot", Arguments: `{}`}, "That is the page."),
	})
	// The media server connects over HTTP after the in-process one: a
	// message sent before would offer the model no m.shot.
	h.until("m's tools", func() bool { return h.ui.catalog != nil && hasTool(h, "m.shot") })
	h.say("show me the page")
	var c *rowView
	h.until("the card's result", func() bool {
		c = h.card("m.shot")
		return c != nil && c.row.State == transcript.Succeeded
	})
	if !strings.Contains(h.lastToolResult(), "[image: image/png") {
		t.Errorf("the model was not told of the image: %s", h.lastToolResult())
	}
	h.until("the card's media", func() bool { c = h.card("m.shot"); return c.row.Media != nil })
	h.until("the image", func() bool { c = h.card("m.shot"); return c.tool().media.pic.pic.Image != nil })
	if n := len(c.row.Media.Links); n != 4 {
		t.Errorf("the card has %d links, want 4", n)
	}
	for _, l := range c.row.Media.Links {
		if strings.Contains(l.Name, "\x1b") {
			t.Errorf("a link's name is not cleaned: %q", l.Name)
		}
	}
}

func FuzzToolImage(f *testing.F) {
	f.Add("image/png", testutil.TestPNG(3, 2))
	f.Add("image/png", testutil.HugePNGHeader(5000, 10))
	f.Add("image/png", testutil.HugePNGHeader(4096, 4096))
	img := image.NewPaletted(image.Rect(0, 0, 4, 3), []color.Color{color.White, color.Black})
	var g, j bytes.Buffer
	gif.Encode(&g, img, nil)
	jpeg.Encode(&j, img, nil)
	f.Add("image/gif", g.Bytes())
	f.Add("image/jpeg", j.Bytes())
	f.Add("image/webp", []byte("RIFF\x24\x00\x00\x00WEBPVP8L\x18\x00\x00\x00\x2f\x00\x00\x00\x10\x07\x10\x11\x11\x88\x88\xfe\x07\x00"))
	f.Add("image/bmp", []byte("BM"))
	f.Fuzz(func(t *testing.T, mime string, data []byte) {
		w, h, _, err := checkToolImage(mime, data)
		if err == nil && (w <= 0 || h <= 0 || w > maxImageSide || h > maxImageSide) {
			t.Fatalf("checked an image of %d×%d", w, h)
		}
		img, derr := decodeToolImage(mime, data)
		if err != nil && derr == nil {
			t.Fatalf("decoded an image its check refused: %v", err)
		}
		if derr == nil {
			if b := img.Bounds(); b.Dx() > bitmapMaxW || b.Dy() > bitmapMaxH || b.Empty() {
				t.Fatalf("decoded to %v", b)
			}
		}
	})
}

// TestShellCommandCardShowsItsArguments: a local.exec card shows the
// command in its JSON arguments as it is, not with <, > and & escaped.
func TestShellCommandCardShowsItsArguments(t *testing.T) {
	h := newCardHarness(t)
	args, _ := json.Marshal(map[string]string{"command": "ls -la /tmp > out && cat <out"}) // as toolcall.CommandRequest makes them
	h.tr.ToolRequested("cmd-1", "local.exec", args)
	h.frame()
	var c *rowView
	h.until("the card", func() bool { c = h.card("local.exec"); return c != nil })
	if got, want := c.tool().args.String(), "{\n  \"command\": \"ls -la /tmp > out && cat <out\"\n}"; got != want || !c.tool().args.Visible() {
		t.Errorf("the card shows %q (visible %v), want %q", got, c.tool().args.Visible(), want)
	}
}

// Each window holds its own decoded images: another window's (another
// test's, run in parallel) showing many does not take this one's away.
func TestToolCardBitmapsArePerWindow(t *testing.T) {
	a := newCardHarness(t)
	a.finished("a1", "m.shot", "[image]", mediaOf(tools.Image{MIME: "image/png", Data: testutil.TestPNG(40, 20), Size: 100}))
	var ca *rowView
	a.until("the first window's image", func() bool {
		ca = a.card("m.shot")
		return ca != nil && ca.tool().media.pic.pic.Image != nil
	})
	b := newCardHarness(t)
	b.ui.win.Resize(fyne.NewSize(900, 6000))
	for i := range maxBitmaps + 1 {
		b.finished(fmt.Sprintf("b%d", i), fmt.Sprintf("m.shot%d", i), "[image]", mediaOf(tools.Image{MIME: "image/png", Data: testutil.TestPNG(40+i, 20), Size: 100}))
	}
	b.until("the other window's images", func() bool {
		n := 0
		for _, v := range b.visibleRows() {
			if v.tool() != nil && v.tool().media.pic.pic.Image != nil {
				n++
			}
		}
		return n == maxBitmaps
	})
	a.drain()
	if ca.tool().media.pic.pic.Image == nil {
		t.Error("another window's images took this window's away")
	}
}
