package gui

import (
	"os"
	"strings"
	"testing"

	"deckhand/config"
	"deckhand/keys"
)

// TestSettingsServiceKeepsTheModel: changing the Service from Anthropic
// to Other keeps the model's name (Check then says whether the service
// has it), and Save with no model name, or Other with no address, says
// so under Model and writes nothing; the config keeps its model.
// (New-user pass 13, F12: Other emptied Model, Save wrote base_url with no
// name, and every chat was hidden behind "Choose a language model".)
func TestSettingsServiceKeepsTheModel(t *testing.T) {
	keys.MockInit()
	h := newHarness(t, harnessOptions{cfg: func(c *config.Config) {
		if err := os.WriteFile(c.Path, []byte("[model]\nbase_url = \""+config.AnthropicBaseURL+"\"\nname = \"claude-sonnet-4-5\"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		loaded, err := config.LoadForUpdate(c.Path)
		if err != nil {
			t.Fatal(err)
		}
		*c = *loaded
	}})
	h.model.SetModels("llama3.2", "qwen3")
	f := h.openSettings()
	if f.Service.Selected != "Anthropic" || f.Model.Text != "claude-sonnet-4-5" {
		t.Fatalf("the settings open with %q, %q", f.Service.Selected, f.Model.Text)
	}
	f.Service.SetSelected("Other (see Advanced)")
	if f.Model.Text != "claude-sonnet-4-5" {
		t.Errorf("Service Other: Model %q, want the name kept, claude-sonnet-4-5", f.Model.Text)
	}
	f.BaseURL.SetText(h.model.URL) // under Advanced, where Other went
	f.Tabs.SelectIndex(0)
	h.tap(f.Window(), "Check")
	h.until("what Check found", func() bool { return strings.Contains(f.Checked.Text, "answers with 2 models") })
	if !strings.Contains(f.Checked.Text, "claude-sonnet-4-5 is not one of them") {
		t.Errorf("Check says %q: not that the model kept is not among them", f.Checked.Text)
	}

	// No name: Save says so, at Model, and writes nothing.
	before, _ := os.ReadFile(h.cfg.Path)
	f.Tabs.SelectIndex(2)
	f.Model.SetText("")
	h.tap(f.Window(), "Save")
	refused := func(what, says string) {
		t.Helper()
		after, _ := os.ReadFile(h.cfg.Path)
		if string(after) != string(before) || !h.ui.cfg.Model.Configured() {
			t.Errorf("%s: Save wrote the config:\n%s", what, after)
		}
		if !f.Checked.Visible() || !strings.Contains(f.Checked.Text, says) || f.Tabs.SelectedIndex() != 0 {
			t.Errorf("%s: under Model (shown %v, tab %d): %q, want %q", what, f.Checked.Visible(), f.Tabs.SelectedIndex(), f.Checked.Text, says)
		}
		if got := f.Window().Canvas().Focused(); got != f.Model {
			t.Errorf("%s: the focus is on %T, not Model", what, got)
		}
	}
	refused("no model name", "Model is empty")

	// Other with no address.
	f.Model.SetText("llama3.2")
	f.BaseURL.SetText("")
	h.tap(f.Window(), "Save")
	refused("Other with no model URL", "Model URL, under Advanced, is empty")

	// Both: saved.
	f.BaseURL.SetText(h.model.URL)
	h.saveSettings(f)
	saved, err := config.LoadForUpdate(h.cfg.Path)
	if err != nil {
		t.Fatal(err)
	}
	if saved.Model.BaseURL != h.model.URL || saved.Model.Name != "llama3.2" || !h.ui.cfg.Model.Configured() {
		t.Errorf("saved %+v", saved.Model)
	}
}
