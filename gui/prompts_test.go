package gui

import (
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"deckhand/gui/guitest"
	"deckhand/testutil"
)

// suggestion is the button of a prompt offered above the message box.
func (h *harness) suggestion(command string) *widget.Button {
	var found *widget.Button
	guitest.Walk(h.ui.comp.Slash.Box, func(o fyne.CanvasObject) {
		if b, ok := o.(*widget.Button); ok && strings.HasPrefix(b.Text, command) && found == nil {
			found = b
		}
	})
	return found
}

// Typing "/" offers server-everything's prompts; choosing one asks for its
// arguments (the required one required), and its message lands in the
// message box to send. A prompt typed with its arguments and Enter opens
// the form filled in; its embedded resource is attached. A message that
// merely starts with a slash is sent as it is.
func TestPromptsAsSlashCommands(t *testing.T) {
	h := everythingHarness(t, harnessOptions{responses: []testutil.ModelResponse{
		{Body: testutil.TextChunks("Oslo is cold.")},
		{Body: testutil.TextChunks("Resource five.")},
		{Body: testutil.TextChunks("A path.")},
	}})
	s := h.ui.comp.Slash
	h.ui.win.Canvas().Focus(h.ui.input)
	test.Type(h.ui.input, "/")
	h.until("the prompts", func() bool { return h.suggestion("/ev.args-prompt") != nil })
	if h.suggestion("/ev.simple-prompt") == nil || !h.ui.comp.Chips.Visible() {
		t.Error("not every prompt is offered")
	}
	test.Type(h.ui.input, "args")
	h.until("the filter", func() bool { return h.suggestion("/ev.simple-prompt") == nil })
	test.Tap(h.suggestion("/ev.args-prompt"))
	if s.Form == nil || s.Fields["city"] == nil || s.Fields["state"] == nil {
		t.Fatalf("no arguments form: %+v", s.Fields)
	}
	if s.Box.Visible() {
		t.Error("the suggestions stay while the form is open")
	}
	s.Form.Submit() // city is required: nothing happens
	if s.Fields["city"].Validate() == nil {
		t.Error("an empty city is valid")
	}
	s.Fields["city"].SetText("Oslo")
	s.Form.Submit()
	h.until("the prompt's message", func() bool { return strings.Contains(h.ui.input.Text, "Oslo") })
	h.ui.input.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	h.until("the answer", func() bool { return len(h.model.Requests()) == 1 })
	if got := h.lastUserMessage(); !strings.Contains(got, "Oslo") {
		t.Errorf("the model got %s", got)
	}

	h.ui.input.SetText("/ev.resource-prompt resourceType=Text resourceId=5")
	h.ui.input.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if s.Form == nil || s.Fields["resourceId"].Text != "5" {
		t.Fatalf("the form is not filled in: %+v", s.Fields)
	}
	s.Form.Submit()
	h.until("the prompt's resource", func() bool { return h.chipsRead(1) && h.ui.input.Text != "" })
	if !h.shows(h.ui.win, "/ev.resource-prompt  ·  ") {
		t.Errorf("no chip for the prompt's resource:\n%s", strings.Join(h.texts(h.ui.win), "\n"))
	}
	h.ui.input.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	h.until("the second answer", func() bool { return len(h.model.Requests()) == 2 })
	if got := h.lastUserMessage(); !strings.Contains(got, `[Attached file \"demo://resource/dynamic/text/5\"`) || !strings.Contains(got, "Resource 5: This is a plaintext resource") {
		t.Errorf("the model got %s", got)
	}

	h.say("/tmp/notes.txt is empty")
	h.until("the third answer", func() bool { return len(h.model.Requests()) == 3 })
	if got := h.lastUserMessage(); !strings.Contains(got, "/tmp/notes.txt is empty") {
		t.Errorf("the model got %s", got)
	}
	if slices.ContainsFunc(h.texts(h.ui.win), func(s string) bool { return strings.Contains(s, "No prompt matches") }) {
		t.Error("a path is offered prompts")
	}
}
