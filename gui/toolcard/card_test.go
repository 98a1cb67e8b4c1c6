package toolcard

import (
	"encoding/json"
	"fmt"
	"image/color"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/apps"
	"deckhand/gui/appview"
	"deckhand/gui/guitest"
	"deckhand/testutil"
	"deckhand/toolcall"
	"deckhand/tools"
)

func mediaOf(content ...tools.Image) *tools.Media { return &tools.Media{Images: content} }

func TestToolCardShowsAnImage(t *testing.T) {
	h := newHarness(t)
	h.finished("c1", "m.shot", "[image: image/png, 1 KiB]", mediaOf(tools.Image{MIME: "image/png", Data: testutil.TestPNG(400, 200), Size: 1024}))
	c := h.card("m.shot")
	m := c.Media
	h.until("the decoded image", func() bool { return m.Pic.Pic.Image != nil })
	if !m.Pic.Visible() || m.noteBox.Visible() || m.head.Visible() {
		t.Errorf("image %v, note %v (%q), pager %v: want the image alone", m.Pic.Visible(), m.noteBox.Visible(), m.note.Text, m.head.Visible())
	}
	if s := m.Pic.Size(); s.Width < 400 || m.Pic.MinSize().Height != 200 {
		t.Errorf("the image takes %v (min %v); want its own 400×200 in a wider card", s, m.Pic.MinSize())
	}
	if b := m.Pic.Pic.Image.Bounds(); b.Dx() != 400 || b.Dy() != 200 {
		t.Errorf("the bitmap is %v, want the image's 400×200", b)
	}
	if hgt := c.View().MinSize().Height; hgt < 200 {
		t.Errorf("the card is %v high, less than its image", hgt)
	}

	// Folded, the card drops its bitmap and shrinks to its header.
	open := c.View().MinSize().Height
	test.Tap(c.Fold)
	if !h.rows[0].row.Collapsed {
		t.Error("the fold did not fold the row")
	}
	if c.Args.Visible() || m.obj.Visible() || m.Pic.Pic.Image != nil {
		t.Errorf("a folded card shows its arguments %v, media %v, bitmap %v", c.Args.Visible(), m.obj.Visible(), m.Pic.Pic.Image != nil)
	}
	if folded := c.View().MinSize().Height; folded >= open-150 {
		t.Errorf("folded, the card is %v high (open: %v)", folded, open)
	}
	test.Tap(c.Fold)
	h.until("the image again", func() bool { return m.Pic.Pic.Image != nil })
	if got := c.View().MinSize().Height; got != open {
		t.Errorf("opened again, the card is %v high, want %v", got, open)
	}
}

func TestToolCardImagePagerAndScaling(t *testing.T) {
	h := newHarness(t)
	h.finished("c1", "m.gallery", "three images", mediaOf(
		tools.Image{MIME: "image/png", Data: testutil.TestPNG(64, 64)},
		tools.Image{MIME: "image/png", Data: testutil.TestPNG(2000, 100)},
		tools.Image{MIME: "image/png", Data: testutil.TestPNG(100, 900)},
	))
	var m *Media
	m = h.card("m.gallery").Media
	h.until("the first image", func() bool { return m.Pic.Pic.Image != nil })
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
	h := newHarness(t)
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
	m := h.card("m.bad").Media
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
		// The note that took the undecodable image's place (found only
		// once decoded) gives the row its new height.
		if i == 1 && h.rows[0].remeasured == 0 {
			t.Error("the card did not ask its row to be measured again after the image failed to decode")
		}
		if i < 4 {
			test.Tap(m.next)
		}
	}
}

func TestToolCardLinks(t *testing.T) {
	var opened []string

	h := newHarness(t)
	h.host.Browser = func(u *url.URL) error { opened = append(opened, u.String()); return nil }
	h.finished("c1", "m.shot", "links", &tools.Media{Links: []tools.Link{
		{Name: "The page", URI: "https://example.com/page"},
		{Name: "notes.txt", URI: "file:///tmp/notes.txt"},
		{Name: "note\x1b[31m\u202e one", URI: "mem://notes/1"},
		{URI: "javascript:alert(1)"},
	}})
	c := h.card("m.shot")
	var links []*widget.Hyperlink
	var labels []string
	var buttons []*widget.Button
	guitest.Walk(c.Media.Links, func(o fyne.CanvasObject) {
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
	if got := h.host.FyneApp.Clipboard().Content(); got != "javascript:alert(1)" {
		t.Errorf("Copy put %q on the clipboard", got)
	}
}

// TestToolCardWrapsAtSpaces: monospace text wraps at spaces and breaks
// only a token longer than the line.
func TestToolCardWrapsAtSpaces(t *testing.T) {
	h := newHarness(t)
	h.finished("c1", "t.echo", "alpha beta gamma "+strings.Repeat("x", 400), nil)
	c := h.card("t.echo")
	for _, rt := range []*widget.RichText{&c.Args.RichText, &c.Out.RichText} {
		if rt.Wrapping != fyne.TextWrapWord {
			t.Errorf("%q wraps with %v, want TextWrapWord", rt.String(), rt.Wrapping)
		}
	}
	// The long token is broken over several lines: the result is taller
	// than two lines.
	line := fyne.MeasureText("x", 14, fyne.TextStyle{Monospace: true}).Height
	if got := c.Out.MinSize().Height; got < 3*line {
		t.Errorf("the result is %v high: the 400-character token was not broken (a line is %v)", got, line)
	}
}

// TestShellCommandCardShowsItsArguments: a local.exec card shows the
// command in its JSON arguments as it is, not with <, > and & escaped.
func TestShellCommandCardShowsItsArguments(t *testing.T) {
	h := newHarness(t)
	args, _ := json.Marshal(map[string]string{"command": "ls -la /tmp > out && cat <out"}) // as toolcall.CommandRequest makes them
	h.tr.ToolRequested("cmd-1", "local.exec", args)
	h.frame()
	c := h.card("local.exec")
	if got, want := c.Args.String(), "{\n  \"command\": \"ls -la /tmp > out && cat <out\"\n}"; got != want || !c.Args.Visible() {
		t.Errorf("the card shows %q (visible %v), want %q", got, c.Args.Visible(), want)
	}
}

// Each window holds its own decoded images: another window's (another
// test's, run in parallel) showing many does not take this one's away.
func TestToolCardBitmapsArePerWindow(t *testing.T) {
	a := newHarness(t)
	a.finished("a1", "m.shot", "[image]", mediaOf(tools.Image{MIME: "image/png", Data: testutil.TestPNG(40, 20), Size: 100}))
	ca := a.card("m.shot")
	a.until("the first window's image", func() bool { return ca.Media.Pic.Pic.Image != nil })
	b := newHarness(t)
	b.host.Win.Resize(fyne.NewSize(900, 6000))
	for i := range maxBitmaps + 1 {
		b.finished(fmt.Sprintf("b%d", i), fmt.Sprintf("m.shot%d", i), "[image]", mediaOf(tools.Image{MIME: "image/png", Data: testutil.TestPNG(40+i, 20), Size: 100}))
	}
	b.until("the other window's images", func() bool {
		n := 0
		for _, r := range b.rows {
			if r.card != nil && r.card.Media.Pic.Pic.Image != nil {
				n++
			}
		}
		return n == maxBitmaps
	})
	a.drain()
	if ca.Media.Pic.Pic.Image == nil {
		t.Error("another window's images took this window's away")
	}
}

// A card offers Open view when its tool names a view, and not otherwise;
// the view is given the card's result (package appview).
func TestToolCardOffersItsView(t *testing.T) {
	h := newHarness(t)
	h.host.Tools = tools.NewCatalog(map[string]tools.Source{"app": {Tools: []*sdk.Tool{
		{Name: "get-time", InputSchema: map[string]any{"type": "object"}, Meta: sdk.Meta{"ui": map[string]any{"resourceUri": "ui://get-time/view.html"}}},
		{Name: "plain", InputSchema: map[string]any{"type": "object"}},
	}}})
	h.finished("c1", "app.get-time", "12:00", nil)
	h.tr.ToolStructured("c1", []byte(`{"time":"12:00"}`), nil)
	h.finished("c2", "app.plain", "ok", nil)
	h.frame()
	if !h.card("app.get-time").OpenView.Visible() {
		t.Error("the card of a tool with a view does not offer Open view")
	}
	if h.card("app.plain").OpenView.Visible() {
		t.Error("the card of a tool without a view offers Open view")
	}
}

// A card holding a match of the find bar's (the chat's) is drawn with a
// thick border of the mark's colour, and with its own once the match is
// gone.
func TestToolCardShowsTheFindMark(t *testing.T) {
	h := newHarness(t)
	h.finished("c1", "t.echo", "found here", nil)
	c, r := h.card("t.echo"), h.rows[0]
	plain := c.Border.StrokeColor
	mark := color.NRGBA{R: 0xff, G: 0x8f, A: 0xc0}
	r.mark = mark
	c.Set(r.row)
	if c.Border.StrokeColor != mark || c.Border.StrokeWidth != 3 {
		t.Errorf("marked, the border is %v, %v wide; want %v, 3 wide", c.Border.StrokeColor, c.Border.StrokeWidth, mark)
	}
	r.mark = nil
	c.Set(r.row)
	if c.Border.StrokeColor != plain || c.Border.StrokeWidth != 1 {
		t.Errorf("unmarked, the border is %v, %v wide; want %v, 1 wide", c.Border.StrokeColor, c.Border.StrokeWidth, plain)
	}
}

// A call waiting for approval offers Approve or deny…, which asks the
// window for its approval (by conversation and call); it goes once the
// call runs. Its dialog may be on the quick prompt's window, out of sight.
func TestToolCardOffersItsApproval(t *testing.T) {
	h := newHarness(t)
	h.tr.ToolRequested("call-1", "t.echo", []byte(`{"text":"hi"}`))
	h.frame()
	c := h.card("t.echo")
	if c == nil || !c.Answer.Visible() || !c.answerBox.Visible() {
		t.Fatalf("the waiting card offers no Approve or deny…")
	}
	test.Tap(c.Answer)
	if got, want := h.host.Told(), []any{guitest.AnswerCall{Conv: "c1", Call: "call-1"}}; !slices.Equal(got, want) {
		t.Errorf("Approve or deny… told %v, want %v", got, want)
	}
	h.tr.ToolStarted("call-1", "t.echo", []byte(`{"text":"hi"}`))
	h.frame()
	if c.Answer.Visible() || c.answerBox.Visible() {
		t.Errorf("the running card still offers Approve or deny…")
	}
}

// The card of a call a tool's view made says so, and offers no Open view
// (the view that asked has the result; another would show a call it never
// made). It was not in the chat at all.
func TestViewsCallCard(t *testing.T) {
	h := newHarness(t)
	h.host.Tools = tools.NewCatalog(map[string]tools.Source{"app": {Tools: []*sdk.Tool{
		{Name: "get-time", InputSchema: map[string]any{"type": "object"}, Meta: sdk.Meta{"ui": map[string]any{"resourceUri": "ui://get-time/view.html"}}},
	}}})
	h.tr.ViewCall("view-1", "app.get-time", "the view of app.get-time", []byte(`{}`), "12:00", false, false, false)
	h.frame()
	c := h.card("app.get-time")
	if c == nil {
		t.Fatal("no card for the view's call")
	}
	if want := "Called from the view of app.get-time, not by the model (the model does not see it)."; !c.StatusBox.Visible() || c.Status.Text != want {
		t.Errorf("the card's status = %q (shown %v), want %q", c.Status.Text, c.StatusBox.Visible(), want)
	}
	if c.OpenView.Visible() {
		t.Error("the card of a view's own call offers Open view")
	}
}

// The card of a view's call Deckhand refused, for a tool it withholds,
// says it was not run and why, in the person's words, as a model's call's
// card does; it said "failed".
func TestViewsRefusedCallCard(t *testing.T) {
	h := newHarness(t)
	w := toolcall.Withheld{Held: toolcall.Quarantined, Server: "app", Tool: "wipe"}
	h.tr.ViewCall("view-1", "app.wipe", "the view of app.get-time", []byte(`{}`), w.Refusal(), true, false, true)
	h.frame()
	c := h.card("app.wipe")
	if c == nil {
		t.Fatal("no card for the view's call")
	}
	if want := "not run: Deckhand refused it: " + w.Why(); c.State.Text != want {
		t.Errorf("the card says %q, want %q", c.State.Text, want)
	}
}

// Open view with no view helper beside deckhand (a plain `go build` of
// cmd/deckhand) says so on the card: the path looked at and how to get
// it. It did nothing at all, and the notice it meant to show never showed.
// A helper put there later is not run (it is looked for once, at the
// start: one a program that may write the folder planted would run with
// the display); the card says the same again.
func TestOpenViewSaysTheHelperIsMissing(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if exe, err = filepath.EvalSymlinks(exe); err != nil {
		t.Fatal(err)
	}
	helper := filepath.Join(filepath.Dir(exe), apps.HelperName)
	if _, err := os.Stat(helper); err == nil {
		t.Skipf("a view helper is beside the test binary: %s", helper)
	}
	h := newHarness(t)
	h.host.Tools = tools.NewCatalog(map[string]tools.Source{"app": {Tools: []*sdk.Tool{
		{Name: "get-time", InputSchema: map[string]any{"type": "object"}, Meta: sdk.Meta{"ui": map[string]any{"resourceUri": "ui://get-time/view.html"}}},
	}}})
	h.finished("c1", "app.get-time", "12:00", nil)
	c := h.card("app.get-time")
	test.Tap(c.OpenView)
	h.drain()
	if !c.StatusBox.Visible() || !strings.Contains(c.Status.Text, helper) || !strings.Contains(c.Status.Text, "make build") {
		t.Fatalf("with no helper, the card says %q (shown %v); want the path looked at, %s, and make build", c.Status.Text, c.StatusBox.Visible(), helper)
	}
	remeasured := h.rows[0].remeasured
	if remeasured == 0 {
		t.Error("the card's row was not given its new height")
	}

	if err := os.WriteFile(helper, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(helper) })
	said := c.Status.Text
	test.Tap(c.OpenView)
	h.drain()
	if !c.StatusBox.Visible() || c.Status.Text != said {
		t.Errorf("with a helper put there after the start, the card says %q (shown %v); want it missing still: %q", c.Status.Text, c.StatusBox.Visible(), said)
	}
	for _, m := range h.host.Told() {
		if n, ok := m.(*appview.Notice); ok && strings.Contains(n.Text, "no servers in tests") {
			t.Errorf("a helper put there after the start was taken: the view went on to be read (%q)", n.Text)
		}
	}
}

// Open view on a card whose tool is not offered any more (its server
// disconnected, the tool turned off since the card was drawn) says so on
// the card, in Open view's place: it did nothing at all. With the tool
// back, the card offers Open view again and says nothing of it.
func TestOpenViewSaysTheToolIsGone(t *testing.T) {
	h := newHarness(t)
	withView := tools.NewCatalog(map[string]tools.Source{"app": {Tools: []*sdk.Tool{
		{Name: "get-time", InputSchema: map[string]any{"type": "object"}, Meta: sdk.Meta{"ui": map[string]any{"resourceUri": "ui://get-time/view.html"}}},
	}}})
	h.host.Tools = withView
	h.finished("c1", "app.get-time", "12:00", nil)
	c := h.card("app.get-time")
	if !c.OpenView.Visible() {
		t.Fatal("the card offers no Open view")
	}
	h.host.Tools = tools.NewCatalog(nil) // its server disconnected
	test.Tap(c.OpenView)
	h.drain()
	if !c.StatusBox.Visible() || !strings.Contains(c.Status.Text, "app.get-time is not offered now") || c.OpenView.Visible() {
		t.Errorf("Open view of a tool gone: the card says %q (shown %v), Open view shown %v", c.Status.Text, c.StatusBox.Visible(), c.OpenView.Visible())
	}
	h.host.Tools = withView
	c.Set(h.rows[0].row)
	if c.StatusBox.Visible() || !c.OpenView.Visible() {
		t.Errorf("the tool back: the card says %q (shown %v), Open view shown %v", c.Status.Text, c.StatusBox.Visible(), c.OpenView.Visible())
	}
}
