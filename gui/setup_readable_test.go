package gui

import (
	"os"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"strings"
	"testing"

	"deckhand/config"
	"deckhand/gui/guitest"
	"deckhand/testutil"
)

// TestChatsReadableWithoutAModel: with no model set up (here the
// config's model name gone, as the settings saved it when the Service
// changed to Other), the open chat and every past chat opened from the
// sidebar show their messages, the set-up notice (Look again, Open
// settings) above the message box; the first-run panel takes the place of
// an empty chat only. Sending says what to do and keeps the message.
// (New-user pass 13, F12: every chat showed only "Choose a language
// model".)
func TestChatsReadableWithoutAModel(t *testing.T) {
	h := newHarness(t, harnessOptions{log: true, responses: []testutil.ModelResponse{
		{Body: testutil.TextChunks("The first answer.")},
		{Body: testutil.TextChunks("The second answer.")},
	}})
	h.say("the first question")
	h.until("the first answer", func() bool { return h.shows(h.ui.win, "The first answer.") })
	h.chat("the second question", "The second answer.")
	h.until("both chats listed", func() bool { return len(h.ui.side.Items) == 2 })

	// The model's name leaves the config.
	if err := os.WriteFile(h.cfg.Path, []byte("[model]\nbase_url = \""+h.model.URL+"\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.LoadForUpdate(h.cfg.Path)
	if err != nil {
		t.Fatal(err)
	}
	h.ui.setConfig(cfg)
	h.drain()
	const notice = "No language model is set up"
	readable := func(what, answer string) {
		t.Helper()
		if !h.shows(h.ui.win, answer) || h.shows(h.ui.win, "Choose a language model") {
			t.Errorf("%s: its answer is not shown (or the first-run panel is):\n%s", what, strings.Join(h.texts(h.ui.win), "\n"))
		}
		if !h.shows(h.ui.win, notice) || h.button(h.ui.win, "Look again") == nil || h.button(h.ui.win, "Open settings") == nil {
			t.Errorf("%s: no set-up notice with Look again and Open settings:\n%s", what, strings.Join(h.texts(h.ui.win), "\n"))
		}
		// Above the message box, with room for its words and buttons.
		d := fyne.CurrentApp().Driver()
		in := d.AbsolutePositionForObject(h.ui.input).Y
		var objs []fyne.CanvasObject
		if l := h.labelWith(notice); l != nil {
			objs = append(objs, l)
		}
		for _, label := range []string{"Look again", "Open settings"} {
			if b := h.button(h.ui.win, label); b != nil {
				objs = append(objs, b)
			}
		}
		for _, o := range objs {
			if y := d.AbsolutePositionForObject(o).Y; y+o.MinSize().Height > in || o.Size().Height < o.MinSize().Height {
				t.Errorf("%s: %T at %v (%v high, needs %v), the message box at %v", what, o, y, o.Size().Height, o.MinSize().Height, in)
			}
		}
	}
	readable("the open chat", "The second answer.")
	// On a small screen the notice leaves the chat room to read: no
	// taller than the chat (its first form, the panel's words whole and
	// what Look again found under them, took 184 px and left it 85).
	size := h.ui.win.Canvas().Size()
	h.ui.win.Resize(fyne.NewSize(640, 480))
	h.drain()
	if bar, list := h.ui.setup.Bar().Size().Height, h.ui.chat.List.Size().Height; bar > list {
		t.Errorf("at 640x480 the notice is %v px high, the chat above it %v", bar, list)
	}
	h.ui.win.Resize(size)
	h.drain()

	h.ui.side.List.Select(1)
	h.until("the first chat", func() bool { return h.ui.title.Text == "the first question" })
	readable("a past chat opened from the sidebar", "The first answer.")

	// An empty chat: the first-run panel in its place, no notice besides.
	h.tap(h.ui.win, "New chat")
	h.until("an empty chat, the first-run panel in it", func() bool {
		return len(h.ui.chat.Rows) == 0 && h.shows(h.ui.win, "Choose a language model")
	})
	if h.shows(h.ui.win, notice) {
		t.Errorf("an empty chat shows the notice besides the first-run panel")
	}

	// Sending in a past chat: the settings say what to do; the message
	// stays in the box, the chat on the screen.
	h.ui.side.List.Select(1)
	h.until("the first chat again", func() bool { return h.shows(h.ui.win, "The first answer.") })
	h.say("and another thing")
	h.until("the settings, saying why", func() bool {
		return h.ui.settingsF != nil && h.ui.settingsF.Checked.Visible() && strings.Contains(h.ui.settingsF.Checked.Text, "Choose a service and a model first")
	})
	h.tap(h.ui.win, "Back to the chat")
	if h.ui.input.Text != "and another thing" || !h.shows(h.ui.win, "The first answer.") {
		t.Errorf("after Send, back to the chat: the box holds %q; the chat shows its answer: %v", h.ui.input.Text, h.shows(h.ui.win, "The first answer."))
	}

	// A model again: the notice goes.
	h.ui.setConfig(&config.Config{Path: h.cfg.Path, Model: config.Model{BaseURL: h.model.URL, Name: "scripted"}})
	h.drain()
	if h.shows(h.ui.win, notice) || !h.shows(h.ui.win, "The first answer.") {
		t.Errorf("with a model set up again:\n%s", strings.Join(h.texts(h.ui.win), "\n"))
	}
}

// labelWith is the first visible label of the main window holding text.
func (h *harness) labelWith(text string) *widget.Label {
	for _, l := range guitest.All[*widget.Label](h.ui.win.Canvas().Content()) {
		if strings.Contains(l.Text, text) {
			return l
		}
	}
	return nil
}

// TestRetryWithoutAModel: Retry in a chat while no model is set up fails
// with Settings beside the error, which opens the settings at Model saying
// what to do; the answer before is kept, as the message's first version.
func TestRetryWithoutAModel(t *testing.T) {
	h := newHarness(t, harnessOptions{responses: []testutil.ModelResponse{{Body: testutil.TextChunks("The first answer.")}}})
	h.say("the question")
	h.until("the answer", func() bool { return h.shows(h.ui.win, "The first answer.") && !h.ui.running })
	h.ui.setConfig(&config.Config{Path: h.cfg.Path, Model: config.Model{BaseURL: h.model.URL}})
	h.drain()
	h.until("the message's Retry", func() bool { hs := h.userHeaders(); return len(hs) == 1 && hs[0].Retry.Visible() })
	test.Tap(h.userHeaders()[0].Retry)
	h.until("the failure, with Settings", func() bool { return !h.ui.running && h.chatButton("Settings") != nil })
	test.Tap(h.chatButton("Settings"))
	h.until("the settings at Model, saying why", func() bool {
		f := h.ui.settingsF
		return f != nil && f.Checked.Visible() && strings.Contains(f.Checked.Text, "Choose a service and a model first") &&
			f.Window().Canvas().Focused() == f.Model
	})
	h.tap(h.ui.win, "Back to the chat")
	h.versionTo("1/2")
	if !h.shows(h.ui.win, "The first answer.") {
		t.Errorf("the first version lost its answer:\n%s", strings.Join(h.texts(h.ui.win), "\n"))
	}
}
