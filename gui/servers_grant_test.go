package gui

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"deckhand/config"
	"deckhand/gui/guitest"
	"deckhand/gui/widgets"
)

// TestServersGrantQuestionPlain: a command server whose arguments name a
// folder outside the policy's roots is asked about it in short sentences
// (one ran to 18 words and packed the sandbox, the roots and
// server-filesystem into three clauses, and no answer was explained):
// what the server asked for, then what each answer lets it do, each
// answer's line starting with its button's name.
// Neither then grants nothing and the try goes on.
func TestServersGrantQuestionPlain(t *testing.T) {
	h, sw := serversHarness(t, nil)
	docs := filepath.Join(t.TempDir(), "Documents")
	if err := os.Mkdir(docs, 0o755); err != nil {
		t.Fatal(err)
	}
	sw.ShowConnect()
	f := sw.Form
	f.Kind.SetSelected("Command")
	f.Target.SetText("/nonexistent/mcp-server-filesystem " + docs)
	f.Alias.SetText("files")
	h.tap(f.Win, "Connect and save")
	if !h.shows(f.Win, "outside the folders servers may use") {
		t.Fatalf("no question; the form shows:\n%s", strings.Join(h.texts(f.Win), "\n"))
	}
	var text string
	for _, s := range h.texts(f.Win) {
		if strings.Contains(s, "outside the folders servers may use") {
			text = s
		}
	}
	if !strings.Contains(text, docs) {
		t.Errorf("the question does not name %s:\n%s", docs, text)
	}
	for _, answer := range []string{"Read only", "Read and write", "Neither"} {
		if h.button(f.Win, answer) == nil {
			t.Errorf("no %q button", answer)
		}
		if !regexp.MustCompile(`(?m)^` + answer + `: `).MatchString(text) {
			t.Errorf("no line says what %q does:\n%s", answer, text)
		}
	}
	// Neither says both: the server reads nothing there either.
	if !strings.Contains(text, "Neither: nothing is granted. The server can neither read nor write there.") {
		t.Errorf("Neither does not say the server can neither read nor write there:\n%s", text)
	}
	// Sentences end at a full stop or a line's end; a folder's name is
	// one word, whatever its dots.
	plain := strings.ReplaceAll(text, docs, "FOLDER")
	for _, s := range regexp.MustCompile(`[.?!](\s|$)|\n`).Split(plain, -1) {
		if n := len(strings.Fields(s)); n > 15 {
			t.Errorf("a sentence of %d words (at most 15): %q", n, strings.TrimSpace(s))
		}
	}

	h.tap(f.Win, "Neither")
	h.until("the try to end", func() bool { return !f.Trying() && f.Problem.Text != "" })
	if h.shows(f.Win, "outside the folders servers may use") {
		t.Error("the question stayed open after Neither")
	}
	if text := h.configText(); strings.Contains(text, docs) {
		t.Errorf("Neither granted the folder:\n%s", text)
	}
}

// TestServersGrantFitsASmallWindow: at 640×480 with the text at 128%,
// the grant question shows every line whole, above its buttons and
// inside the window, or in a scroller that reaches them all. Its last
// line, the warning about Neither, was half under the buttons ("sta t at
// all"), and the dialog did not scroll. A folder's name as short as
// the report's (/tmp/nu5/home-small/Documents) leaves the dialog at its
// own width, and the question's lines at their most; a long one widens the
// dialog to the window's. On a 640×480 screen the window is less high
// than the screen (its title bar): 480, 450 and 420 px are tried.
func TestServersGrantFitsASmallWindow(t *testing.T) {
	short, err := os.MkdirTemp("", "home-small")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(short) })
	for _, home := range []struct{ name, dir string }{{"short", short}, {"long", t.TempDir()}} {
		for _, height := range []float32{480, 450, 420} {
			t.Run(fmt.Sprintf("%s folder, 640x%.0f", home.name, height), func(t *testing.T) { grantFits(t, home.dir, height) })
		}
	}
}

func grantFits(t *testing.T, home string, height float32) {
	h := newHarness(t, harnessOptions{cfg: func(c *config.Config) { c.UI.TextScale = 1.28 }})
	h.ui.win.Resize(fyne.NewSize(640, height))
	h.ui.showServers()
	sw := h.ui.serversW
	docs := filepath.Join(home, "Documents")
	if err := os.MkdirAll(docs, 0o755); err != nil {
		t.Fatal(err)
	}
	sw.ShowConnect()
	f := sw.Form
	f.Kind.SetSelected("Command")
	f.Target.SetText("/nonexistent/mcp-server-filesystem " + docs)
	h.tap(f.Win, "Connect and save")
	h.drain()
	c := h.ui.win.Canvas()
	dlg := c.Overlays().Top()
	if dlg == nil {
		t.Fatal("no question")
	}
	var msg *widget.Label
	var scroll *container.Scroll
	guitest.Walk(dlg, func(o fyne.CanvasObject) {
		switch x := o.(type) {
		case *container.Scroll:
			if msg == nil {
				scroll = x
			}
		case *widget.Label:
			if strings.Contains(x.Text, "names no other folder") {
				msg = x
			}
		}
	})
	if msg == nil {
		t.Fatalf("no warning about Neither:\n%s", strings.Join(h.texts(f.Win), "\n"))
	}
	d := fyne.CurrentApp().Driver()
	top := float32(c.Size().Height)
	for _, b := range guitest.All[*widget.Button](dlg) {
		top = min(top, d.AbsolutePositionForObject(b).Y)
	}
	// The label is as tall as its lines at its width.
	if need, got := msg.MinSize().Height, msg.Size().Height; got < need {
		t.Errorf("the question needs %.0f px high at %.0f wide, it has %.0f", need, msg.Size().Width, got)
	}
	// What shows of it ends above the buttons: all of it, or the
	// scroller's view of it.
	shown := fyne.CanvasObject(msg)
	if scroll != nil {
		shown = scroll
		if w, view := msg.Size().Width, scroll.Size().Width; w > view {
			t.Errorf("the question is %.0f px wide in a view of %.0f", w, view)
		}
	}
	if bottom := d.AbsolutePositionForObject(shown).Y + shown.Size().Height; bottom > top {
		t.Errorf("the question ends at y=%.0f, under the buttons at y=%.0f", bottom, top)
	}
	// The title, the buttons and the question's view lie in the window.
	inside := []fyne.CanvasObject{shown}
	for _, o := range guitest.All[*widget.Label](dlg) {
		if o != msg {
			inside = append(inside, o)
		}
	}
	for _, o := range guitest.All[*widget.Button](dlg) {
		inside = append(inside, o)
	}
	for _, o := range inside {
		p := d.AbsolutePositionForObject(o)
		if p.X < 0 || p.Y < 0 || p.X+o.Size().Width > c.Size().Width+0.5 || p.Y+o.Size().Height > c.Size().Height+0.5 {
			t.Errorf("%s lies outside the %v window: at %v, %v", what(o), c.Size(), p, o.Size())
		}
	}
}

// what says which object o is, for a test's message.
func what(o fyne.CanvasObject) string {
	switch x := o.(type) {
	case *widget.Label:
		return fmt.Sprintf("%q", widgets.Shorten(x.Text, 50))
	case *widget.Button:
		return "[" + x.Text + "]"
	}
	return fmt.Sprintf("%T", o)
}
