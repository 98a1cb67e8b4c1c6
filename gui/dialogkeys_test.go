package gui

import (
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"

	"deckhand/config"
	serverspanel "deckhand/gui/servers"
	"deckhand/keys"
	"deckhand/testutil"
	"deckhand/tools"
	"deckhand/transport/llm"
)

// key presses name in the window as Fyne's driver does: to the focused
// widget, else to the canvas's own handler.
func (h *harness) key(name fyne.KeyName) {
	h.t.Helper()
	c := h.ui.win.Canvas()
	ev := &fyne.KeyEvent{Name: name}
	if f := c.Focused(); f != nil {
		f.TypedKey(ev)
		return
	}
	if f := c.OnTypedKey(); f != nil {
		f(ev)
	}
}

// dialogCase is one of the window's dialogs: open shows it; enter and
// escape check what Enter and Escape did (the dialog gone and the page
// behind unmoved are checked for each).
type dialogCase struct {
	name          string
	opts          harnessOptions
	open          func(t *testing.T, h *harness)
	enter, escape func(t *testing.T, h *harness)
	noEnter       bool // Enter is the dialog's field's alone
	// enterLeaves: Enter's action goes on elsewhere, rightly leaving the
	// page (Run… shows the chat it makes).
	enterLeaves bool
}

// TestDialogsTakeEnterAndEscape: each error, notice and question the
// window shows closes with Enter (its default button) and with Escape
// (its way out); while it shows, F1 and Ctrl+W do not reach the page
// behind it, and the page is still shown after (Settings, Servers, a
// server's tools, the first-run panel, the chat). Each was Fyne's plain
// dialog: Enter did nothing, and Escape went to the page behind (closing
// Settings or a server's tools while the dialog stayed).
func TestDialogsTakeEnterAndEscape(t *testing.T) {
	keys.MockInit()
	t.Cleanup(keys.MockInit)
	tests := []dialogCase{
		{
			name: "settings: a bad field",
			open: func(t *testing.T, h *harness) {
				f := h.openSettings()
				f.Budget.SetText("lots")
				h.tap(f.Window(), "Save")
			},
		},
		{
			// Issue 29: Remove key removed the key at once, without asking.
			name: "settings: remove the saved key",
			open: func(t *testing.T, h *harness) {
				if err := keys.Store(h.model.URL, "sk-saved-4c1d"); err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { keys.Remove(h.model.URL) })
				f := h.openSettings()
				h.until("Remove key", func() bool { return !f.RemoveKey.Hidden })
				h.tap(f.Window(), "Remove key")
				h.drain()
				if _, err := keys.Get(h.model.URL); err != nil {
					t.Fatalf("Remove key removed the key before it was confirmed: %v", err)
				}
				if got := strings.Join(h.texts(f.Window()), "\n"); !strings.Contains(got, "Remove the saved API key for ") {
					t.Errorf("the question does not name the service's key:\n%s", got)
				}
			},
			enter: func(t *testing.T, h *harness) {
				f := h.ui.settingsF
				h.until("the key to be removed", func() bool { return strings.Contains(f.KeyStatus.Text, "No key saved") })
				if _, err := keys.Get(h.model.URL); err == nil {
					t.Error("Enter (Remove) left the key in the keyring")
				}
			},
			escape: func(t *testing.T, h *harness) {
				if v, err := keys.Get(h.model.URL); err != nil || v != "sk-saved-4c1d" {
					t.Errorf("Escape (Cancel) removed the key: %v", err)
				}
			},
		},
		{
			name: "settings: keep the key in a file",
			open: func(t *testing.T, h *harness) {
				keys.MockUnavailable()
				f := h.openSettings()
				h.tap(f.Window(), "Keep the key in a file…")
			},
			enter: func(t *testing.T, h *harness) {
				f := h.ui.settingsF
				if !strings.Contains(f.KeyStatus.Text, "it is kept in") {
					t.Errorf("Enter did not choose the key file: the key's status says %q", f.KeyStatus.Text)
				}
				if got := h.ui.win.Canvas().Focused(); got != f.APIKey {
					t.Errorf("after Enter the keyboard is on %T, want the key's field", got)
				}
			},
			escape: func(t *testing.T, h *harness) {
				if f := h.ui.settingsF; strings.Contains(f.KeyStatus.Text, "it is kept in") || !f.APIKey.Disabled() {
					t.Errorf("Escape chose the key file: %q", f.KeyStatus.Text)
				}
			},
		},
		{
			name: "first run: a server with no model loaded",
			opts: harnessOptions{noModel: true, probe: func(h *harness) []llm.Endpoint {
				return []llm.Endpoint{{Name: "Ollama", BaseURL: h.model.URL}}
			}},
			open: func(t *testing.T, h *harness) {
				h.until("the server found", func() bool { return h.shows(h.ui.win, "Ollama at "+h.model.URL) })
				h.tap(h.ui.win, "Use this")
			},
			enter: stillFirstRun, escape: stillFirstRun,
		},
		{
			name: "servers: a bad name",
			open: func(t *testing.T, h *harness) {
				h.ui.showServers()
				h.ui.serversW.Connect("no good", config.Server{Command: "true"})
			},
		},
		{
			name: "servers: a tool that cannot run",
			open: func(t *testing.T, h *harness) {
				tw := h.toolsOf("t", "echo")
				h.ui.catalog = &tools.Catalog{} // t went away
				test.Tap(tw.RunButton)
			},
		},
		{
			name:        "servers: run a tool",
			enterLeaves: true,
			open: func(t *testing.T, h *harness) {
				tw := h.toolsOf("t", "echo")
				test.Tap(tw.RunButton)
				if tw.Run == nil || tw.Run.Form == nil || len(tw.Run.Form.Fields()) == 0 {
					t.Fatalf("Run opened no form for echo")
				}
				tw.Run.Form.Fields()[0].Entry.EntryWidget().SetText("hi")
				h.ui.win.Canvas().Unfocus() // a click in the dialog, off the field
			},
			enter: func(t *testing.T, h *harness) {
				if rf := h.ui.serversW.Tools.Run; !rf.Sent {
					t.Errorf("Enter did not run the tool: %q", rf.Problem.Text)
				}
			},
			escape: func(t *testing.T, h *harness) {
				if rf := h.ui.serversW.Tools.Run; rf.Sent {
					t.Errorf("Escape ran the tool")
				}
			},
		},
		{
			name: "sidebar: rename",
			opts: harnessOptions{log: true, responses: []testutil.ModelResponse{{Body: testutil.TextChunks("Hello.")}}},
			open: func(t *testing.T, h *harness) {
				h.say("hello there")
				h.until("the chat in the sidebar", func() bool { return !h.ui.running && h.sessionRowOf("hello there") != nil })
				h.pressInList(fyne.KeyF2)
				if h.ui.side.Rename == nil {
					t.Fatal("F2 opened no rename dialog")
				}
				h.ui.side.Title.SetText("Greetings")
				h.ui.win.Canvas().Unfocus() // a click in the dialog, off the field
			},
			enter: func(t *testing.T, h *harness) {
				h.until("the new title", func() bool { return slices.Equal(h.titles(), []string{"Greetings"}) })
			},
			escape: func(t *testing.T, h *harness) {
				h.drain()
				if got := h.titles(); !slices.Equal(got, []string{"hello there"}) {
					t.Errorf("after Escape the chats are %q", got)
				}
			},
		},
		{
			name:    "sidebar: export",
			opts:    harnessOptions{log: true, responses: []testutil.ModelResponse{{Body: testutil.TextChunks("Hello.")}}},
			noEnter: true, // Enter in the file's name saves; Fyne's dialog has no other default
			open: func(t *testing.T, h *harness) {
				h.say("hello there")
				h.until("the chat in the sidebar", func() bool { return !h.ui.running && h.sessionRowOf("hello there") != nil })
				test.TapSecondary(h.sessionRowOf("hello there"))
				h.menuItem("Export as Markdown…")
				h.drain()
				h.ui.win.Canvas().Unfocus() // a click in the list of files
			},
		},
		{
			name: "shortcuts",
			open: func(t *testing.T, h *harness) { h.key(fyne.KeyF1) },
		},
	}
	for _, tt := range tests {
		for _, k := range []fyne.KeyName{fyne.KeyReturn, fyne.KeyEscape} {
			if k == fyne.KeyReturn && tt.noEnter {
				continue
			}
			t.Run(tt.name+"/"+string(k), func(t *testing.T) {
				h := newHarness(t, tt.opts)
				h.drain()
				tt.open(t, h)
				h.drain()
				c := h.ui.win.Canvas()
				dlg := c.Overlays().Top()
				if dlg == nil {
					t.Fatalf("no dialog; the window shows:\n%s", strings.Join(h.texts(h.ui.win), "\n"))
				}
				page, input := h.ui.panel, h.ui.input.Text
				if tt.name != "shortcuts" {
					h.key(fyne.KeyF1)
				}
				typeOnCanvas(c, &desktop.CustomShortcut{KeyName: fyne.KeyW, Modifier: fyne.KeyModifierShortcutDefault})
				if c.Overlays().Top() != dlg || h.ui.panel != page {
					t.Fatalf("F1 or Ctrl+W went to the page behind the dialog: the dialog shown %v, the page shown %v",
						c.Overlays().Top() == dlg, h.ui.panel == page)
				}
				h.key(k)
				h.drain()
				if top := c.Overlays().Top(); top == dlg {
					t.Fatalf("%s left the dialog open:\n%s", k, strings.Join(h.texts(h.ui.win), "\n"))
				}
				if h.ui.panel != page && !(k == fyne.KeyReturn && tt.enterLeaves) {
					t.Errorf("%s closed the page behind the dialog", k)
				}
				if h.ui.input.Text != input {
					t.Errorf("%s reached the message box: %q", k, h.ui.input.Text)
				}
				if check := map[fyne.KeyName]func(*testing.T, *harness){fyne.KeyReturn: tt.enter, fyne.KeyEscape: tt.escape}[k]; check != nil {
					check(t, h)
				}
			})
		}
	}
}

// toolsOf opens the tools' page of server alias with tool selected.
func (h *harness) toolsOf(alias, tool string) *serverspanel.ToolsPage {
	h.t.Helper()
	h.until(alias+"'s tools", func() bool { return h.ui.catalog != nil && hasTool(h, alias+"."+tool) })
	h.ui.showServers()
	h.ui.serversW.ShowTools(alias)
	tw := h.ui.serversW.Tools
	h.until("the listing", func() bool { return tw.Loaded && len(tw.List) > 0 })
	i := slices.IndexFunc(tw.List, func(x tools.Tool) bool { return x.Name == tool })
	if i < 0 {
		h.t.Fatalf("%s's page does not list %s", alias, tool)
	}
	tw.ToolList.Select(i)
	return tw
}

// stillFirstRun checks the first-run panel is still shown, no model
// chosen.
func stillFirstRun(t *testing.T, h *harness) {
	if !h.shows(h.ui.win, "Use this") || h.ui.cfg.Model.Configured() {
		t.Errorf("the first-run panel went:\n%s", strings.Join(h.texts(h.ui.win), "\n"))
	}
}
