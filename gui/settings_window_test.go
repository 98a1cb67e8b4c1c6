package gui

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"deckhand/approval"
	"deckhand/config"
	"deckhand/gui/guitest"
	"deckhand/gui/settings"
	"deckhand/gui/widgets"
	"deckhand/keys"
	"deckhand/testutil"
)

// openSettings opens the settings and waits for the key's status.
func (h *harness) openSettings() *settings.Form {
	h.t.Helper()
	h.ui.showSettings()
	f := h.ui.settingsF
	h.until("the key's status", func() bool { return f.KeyStatus.Text != "" })
	return f
}

// saveSettings taps Save (without a typed key, saving is done at once).
func (h *harness) saveSettings(f *settings.Form) {
	h.t.Helper()
	h.tap(f.Window(), "Save")
	if top := f.Window().Canvas().Overlays().Top(); top != nil {
		h.t.Fatalf("saving failed:\n%s", strings.Join(h.texts(f.Window()), "\n"))
	}
}

// textsOf is the text of the labels and buttons under o.
func (h *harness) textsOf(o fyne.CanvasObject) []string {
	var out []string
	guitest.Walk(o, func(o fyne.CanvasObject) {
		if r, ok := o.(*widgets.RingButton); ok {
			o = &r.Button
		}
		switch x := o.(type) {
		case *widget.Label:
			out = append(out, x.Text)
		case *widget.Button:
			out = append(out, "["+x.Text+"]")
		}
	})
	return out
}

// buttonIn is the button labelled label under o.
func (h *harness) buttonIn(o fyne.CanvasObject, label string) *widget.Button {
	var found *widget.Button
	guitest.Walk(o, func(o fyne.CanvasObject) {
		if r, ok := o.(*widgets.RingButton); ok {
			o = &r.Button
		}
		if b, ok := o.(*widget.Button); ok && b.Text == label && found == nil {
			found = b
		}
	})
	if found == nil {
		h.t.Fatalf("no button %q in %v", label, h.textsOf(o))
	}
	return found
}

// TestSettingsAPIKeyInKeyring: a key typed into the settings is kept in the
// keyring, never in the config file; the model gets it from the next
// request on, the log never holds it, and Remove key takes it away.
func TestSettingsAPIKeyInKeyring(t *testing.T) {
	keys.MockInit()
	const secret = "sk-typed-5e1f0b7c2a9d"
	h := newHarness(t, harnessOptions{log: true, fallback: func(map[string]any) testutil.ModelResponse {
		return testutil.ModelResponse{Body: testutil.TextChunks("Your key is " + secret + ".")}
	}})
	t.Cleanup(func() { keys.Remove(h.model.URL) })
	f := h.openSettings()
	if !strings.Contains(f.KeyStatus.Text, "No key saved") || !f.RemoveKey.Hidden || f.APIKey.Disabled() {
		t.Fatalf("before: status %q, remove shown %v, entry disabled %v", f.KeyStatus.Text, !f.RemoveKey.Hidden, f.APIKey.Disabled())
	}
	if !f.APIKey.Password {
		t.Error("the key's entry shows what is typed")
	}
	test.Type(f.APIKey, secret)
	h.tap(f.Window(), "Save")
	h.until("the key to be saved", func() bool {
		return !f.Saving && f.APIKey.Text == "" && strings.Contains(f.KeyStatus.Text, "saved in this computer's keyring")
	})
	if v, err := keys.Get(h.model.URL); err != nil || v != secret {
		t.Fatalf("the keyring holds ok=%v, %v", v == secret, err)
	}
	data, _ := os.ReadFile(h.cfg.Path)
	if bytes.Contains(data, []byte(secret)) {
		t.Fatalf("the config file holds the key:\n%s", data)
	}
	if f.RemoveKey.Hidden {
		t.Error("no Remove key button with a saved key")
	}

	// The model asks for the key (a model that needs none is never sent
	// one: the keyring is read only when the model refuses without it).
	h.model.RequireKey(secret)
	h.say("what is my key?")
	h.until("the answer", func() bool { return len(h.model.Requests()) >= 1 && !h.ui.running })
	hs := h.model.Headers()
	if got := hs[len(hs)-1].Get("Authorization"); got != "Bearer "+secret {
		t.Errorf("the answered request's Authorization is not the saved key (%d bytes)", len(got))
	}
	if err := h.sys.SyncLog(t.Context()); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(h.db.Path() + "*")
	for _, p := range files {
		if data, _ := os.ReadFile(p); bytes.Contains(data, []byte(secret)) {
			t.Errorf("%s holds the key", p)
		}
	}

	// Remove key: the next request goes without it.
	h.ui.showSettings()
	h.tap(f.Window(), "Remove key")
	h.tap(f.Window(), "Remove") // the question's button
	h.until("the key to be removed", func() bool { return strings.Contains(f.KeyStatus.Text, "No key saved") })
	if _, err := keys.Get(h.model.URL); err == nil {
		t.Fatal("the keyring still holds the key")
	}
	f.Close()
	h.model.RequireKey("") // a model that takes requests without a key
	h.say("again")
	h.until("the second answer", func() bool { return len(h.model.Requests()) == 2 && !h.ui.running })
	if got := h.model.Headers()[1].Get("Authorization"); got != "" {
		t.Errorf("after Remove key the request still has Authorization (%d bytes)", len(got))
	}
}

// TestSettingsNoKeyring: without a Secret Service the settings say so and
// how to use a variable instead; the entry takes no key to lose.
func TestSettingsNoKeyring(t *testing.T) {
	keys.MockUnavailable()
	t.Cleanup(keys.MockInit)
	h := newHarness(t, harnessOptions{})
	f := h.openSettings()
	for _, want := range []string{"No keyring available", "environment variable", "API key variable under Advanced"} {
		if !strings.Contains(f.KeyStatus.Text, want) {
			t.Errorf("the status %q lacks %q", f.KeyStatus.Text, want)
		}
	}
	if !f.APIKey.Disabled() {
		t.Error("the key's entry takes a key that cannot be kept")
	}
	// The variable still works, and the status says it is used.
	h.ui.d.LookupEnv = func(k string) (string, bool) { return "sk-env", k == "MY_KEY" }
	f.APIKeyEnv.SetText("MY_KEY")
	h.until("the variable's status", func() bool { return strings.Contains(f.KeyStatus.Text, "environment variable MY_KEY") })
}

// TestSettingsAnswersAndLook: instructions, creativity, theme and text
// size are saved; the look applies at once, the rest from the next
// request; closing without saving undoes a look tried.
func TestSettingsAnswersAndLook(t *testing.T) {
	keys.MockInit()
	h := newHarness(t, harnessOptions{responses: []testutil.ModelResponse{{Body: testutil.TextChunks("Bonjour.")}}})
	f := h.openSettings()
	if !f.TempAuto.Checked || !f.Temp.Disabled() || f.Theme.Selected != "System" || f.TextLabel.Text != "100%" {
		t.Fatalf("defaults: auto %v, theme %q, size %q", f.TempAuto.Checked, f.Theme.Selected, f.TextLabel.Text)
	}
	base := theme.DefaultTheme().Size(theme.SizeNameText)

	// Tried, then closed: undone.
	f.Theme.SetSelected("Dark")
	if l, ok := h.app.Settings().Theme().(*look); !ok || l.variant == nil || *l.variant != theme.VariantDark {
		t.Fatalf("the dark theme was not applied at once: %#v", h.app.Settings().Theme())
	}
	f.Close()
	if l := h.app.Settings().Theme().(*look); l.variant != nil || f.Theme.Selected != "System" {
		t.Fatal("closing without saving kept the dark theme")
	}

	h.ui.showSettings()
	f.Prompt.SetText("Answer in French.\nBe brief.")
	f.TempAuto.SetChecked(false)
	f.Temp.SetValue(0.3)
	f.Theme.SetSelected("Light")
	f.TextSize.SetValue(125)
	f.TextSize.OnChangeEnded(125)
	h.saveSettings(f)
	l := h.app.Settings().Theme().(*look)
	if l.variant == nil || *l.variant != theme.VariantLight || l.Size(theme.SizeNameText) != base*1.25 || l.Size(theme.SizeNamePadding) != theme.DefaultTheme().Size(theme.SizeNamePadding) {
		t.Errorf("the look: variant %v, text %v (base %v)", l.variant, l.Size(theme.SizeNameText), base)
	}
	got, err := config.Load(h.cfg.Path)
	if err != nil {
		t.Fatal(err)
	}
	if got.UI.Theme != "light" || got.UI.TextScale != 1.25 || got.Model.SystemPrompt != "Answer in French.\nBe brief." || got.Model.Temperature == nil || *got.Model.Temperature != 0.3 {
		t.Fatalf("saved: %+v %+v", got.UI, got.Model)
	}
	h.say("hello")
	h.until("the answer", func() bool { return h.shows(h.ui.win, "Bonjour.") })
	req := string(h.model.Requests()[0])
	if !strings.Contains(req, `Answer in French.\nBe brief.`) || !strings.Contains(req, `"temperature":0.3`) {
		t.Errorf("the request: %s", req)
	}
}

// TestSettingsPermissions: an "always allow" grant and an auto_approve
// rule are listed; revoking or removing one asks again from the next call,
// without a restart.
func TestSettingsPermissions(t *testing.T) {
	keys.MockInit()
	h := approvalHarness(t, func(c *config.Config) { c.MCP.AutoApprove = map[string]bool{"t.add": true, "local.exec": false} })
	always := approval.AllowAlways
	if n := h.runToEnd("echo hi", &always); n != 1 {
		t.Fatalf("%d dialogs, want 1", n)
	}
	f := h.openSettings()
	f.Tabs.SelectIndex(1)
	h.until("the grant", func() bool { return h.shows(f.Window(), "t.echo") && h.button(f.Window(), "Revoke") != nil })
	for _, want := range []string{"runs without asking, since", "t.add", "always asked, even where a wider rule allows it", "local.exec"} {
		if !h.shows(f.Window(), want) {
			t.Errorf("the permissions do not show %q:\n%s", want, strings.Join(h.texts(f.Window()), "\n"))
		}
	}
	if n := h.runToEnd("echo hi again", nil); n != 0 {
		t.Fatalf("the grant did not count: %d dialogs", n)
	}
	h.tap(f.Window(), "Revoke")
	h.until("the grant to go", func() bool { return h.shows(f.Window(), "None. When you answer") })
	allow := approval.AllowOnce
	if n := h.runToEnd("echo hi once more", &allow); n != 1 {
		t.Fatalf("after Revoke: %d dialogs, want 1", n)
	}

	// Removing a rule writes the file and the rule box at once.
	var remove fyne.CanvasObject
	for _, o := range f.RulesList.Objects {
		if strings.Contains(strings.Join(h.textsOf(o), " "), "t.add") {
			remove = o
		}
	}
	if remove == nil {
		t.Fatal("no row for t.add")
	}
	test.Tap(h.buttonIn(remove, "Remove"))
	if _, ok := h.ui.cfg.MCP.AutoApprove["t.add"]; ok || len(h.ui.cfg.MCP.AutoApprove) != 1 {
		t.Errorf("the rules after Remove: %v", h.ui.cfg.MCP.AutoApprove)
	}
	if strings.Contains(f.Rules.Text, "t.add") {
		t.Errorf("the rule box still has t.add: %q", f.Rules.Text)
	}
	data, _ := os.ReadFile(h.cfg.Path)
	if strings.Contains(string(data), "t.add") || !strings.Contains(string(data), `"local.exec" = false`) {
		t.Errorf("the file after Remove:\n%s", data)
	}
}

// Saving the settings writes what the person changed, nothing more: the
// defaults the form shows stay out of the file.
func TestSettingsWriteOnlyWhatChanged(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	orig := "# mine\n[model]\nbase_url = \"" + h.model.URL + "\"\nname = \"scripted\"\n"
	os.WriteFile(h.cfg.Path, []byte(orig), 0o600)
	f := h.openSettings()
	h.saveSettings(f)
	if data, _ := os.ReadFile(h.cfg.Path); string(data) != orig {
		t.Errorf("saving an unchanged form changed the file:\n%s", data)
	}
	h.openSettings()
	f.Model.SetText("other-model")
	h.saveSettings(f)
	data, _ := os.ReadFile(h.cfg.Path)
	if want := strings.Replace(orig, `name = "scripted"`, `name = "other-model"`, 1); string(data) != want {
		t.Errorf("changing the model wrote:\n%s\nwant:\n%s", data, want)
	}
}

// What Check found is in sight at 640x480, where the person clicked: it is
// said under the API key, and the page scrolls to it (five wheel notches
// below the button, before).
func TestSettingsCheckResultInSight(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	h.model.SetModels("m-one", "m-two", "m-three", "m-four")
	h.ui.win.Resize(fyne.NewSize(640, 480))
	f := h.openSettings()
	page := f.Tabs.Items[0].Content.(*container.Scroll)
	h.tap(f.Window(), "Check")
	h.until("what Check found", func() bool { return strings.Contains(f.Checked.Text, "answers with 4 models") })
	d := fyne.CurrentApp().Driver()
	top := d.AbsolutePositionForObject(f.Checked).Y - d.AbsolutePositionForObject(page).Y
	if bottom := top + f.Checked.Size().Height; top < 0 || bottom > page.Size().Height {
		t.Errorf("what Check found is at %v–%v of the page, which shows 0–%v (scrolled %v): out of sight",
			top, bottom, page.Size().Height, page.Offset.Y)
	}
	var check fyne.CanvasObject // a ring button, whose place is its own
	for _, r := range guitest.All[*widgets.RingButton](f.Window().Canvas().Content()) {
		if r.Text == "Check" {
			check = r
		}
	}
	if check == nil {
		t.Fatal("no Check button")
	}
	if y := d.AbsolutePositionForObject(check).Y - d.AbsolutePositionForObject(page).Y; y+check.Size().Height < 0 {
		t.Errorf("Check scrolled out of sight (at %v)", y)
	}
}

// Settings opened with the sidebar's button while the servers show is a
// place of its own: Save goes back to the chat, as its back button ("Back
// to the chat") says; it went back to the servers.
func TestSettingsFromTheServersSaveToTheChat(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	h.tap(h.ui.win, "Servers")
	if h.ui.panel == nil || h.ui.panel.Title() != "Deckhand: servers" {
		t.Fatal("the sidebar's Servers did not show the servers")
	}
	h.tap(h.ui.win, "Settings")
	h.until("the settings", func() bool {
		return h.ui.settingsF != nil && h.ui.panel != nil && h.ui.panel.Title() == "Deckhand: settings"
	})
	f := h.ui.settingsF
	h.until("the key's status", func() bool { return f.KeyStatus.Text != "" })
	h.saveSettings(f)
	if h.ui.panel != nil {
		t.Errorf("after Save the window shows the panel %q, want the chat", h.ui.panel.Title())
	}
}

// TestSettingsCloseDiscardsWhatWasNotSaved: every field changed and then
// closed without Save shows the config's value on reopening, as the theme
// does; nothing of it is written or used. (Issue 29: Instructions typed
// and closed were still there on reopening, though neither saved nor
// sent.)
func TestSettingsCloseDiscardsWhatWasNotSaved(t *testing.T) {
	keys.MockInit()
	is := func(v string) func(*config.Config) string { return func(*config.Config) string { return v } }
	for _, c := range []struct {
		name   string
		change func(f *settings.Form)
		shown  func(f *settings.Form) string // what the field shows
		want   func(*config.Config) string   // the config's value
	}{
		{"instructions", func(f *settings.Form) { f.Prompt.SetText("Answer in short sentences.") }, func(f *settings.Form) string { return f.Prompt.Text }, is("")},
		{"model", func(f *settings.Form) { f.Model.SetText("other-model") }, func(f *settings.Form) string { return f.Model.Text }, is("scripted")},
		{"typed key", func(f *settings.Form) { f.APIKey.SetText("sk-typed") }, func(f *settings.Form) string { return f.APIKey.Text }, is("")},
		{"creativity", func(f *settings.Form) { f.TempAuto.SetChecked(false); f.Temp.SetValue(1.5) }, func(f *settings.Form) string { return fmt.Sprint(f.TempAuto.Checked) }, is("true")},
		{"context budget", func(f *settings.Form) { f.Budget.SetText("1234") }, func(f *settings.Form) string { return f.Budget.Text }, func(c *config.Config) string { return fmt.Sprint(c.Model.MaxContextTokens) }},
		{"auto-approve", func(f *settings.Form) { f.Rules.SetText("t.add") }, func(f *settings.Form) string { return f.Rules.Text }, is("")},
		{"write roots", func(f *settings.Form) { f.WriteRoots.SetText("/tmp") }, func(f *settings.Form) string { return f.WriteRoots.Text }, is("")},
		{"shell commands", func(f *settings.Form) { f.AllowExec.SetChecked(true) }, func(f *settings.Form) string { return fmt.Sprint(f.AllowExec.Checked) }, is("false")},
		{"theme", func(f *settings.Form) { f.Theme.SetSelected("Light") }, func(f *settings.Form) string { return f.Theme.Selected }, is("System")},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, harnessOptions{})
			before, err := os.ReadFile(h.cfg.Path)
			if err != nil {
				t.Fatal(err)
			}
			f := h.openSettings()
			c.change(f)
			h.tap(f.Window(), "Close")
			h.ui.showSettings()
			if got, want := c.shown(f), c.want(h.ui.cfg); got != want {
				t.Errorf("reopened after Close, the field shows %q, want the config's %q", got, want)
			}
			if after, _ := os.ReadFile(h.cfg.Path); string(after) != string(before) {
				t.Errorf("Close wrote the config:\n%s", after)
			}
		})
	}
}
