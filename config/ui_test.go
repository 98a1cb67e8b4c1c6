package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestUITableAndSystemPrompt(t *testing.T) {
	c, err := Parse("c.toml", []byte(`
[model]
base_url = "http://127.0.0.1:11434/v1"
name = "m"
temperature = 1
system_prompt = "Answer in French.\nBe brief."

[ui]
theme = "dark"
text_scale = 1.25
`))
	if err != nil {
		t.Fatal(err)
	}
	if c.UI.ThemeOrDefault() != ThemeDark || c.UI.Scale() != 1.25 {
		t.Errorf("ui: %+v", c.UI)
	}
	if c.Model.Temperature == nil || *c.Model.Temperature != 1 {
		t.Errorf("temperature: %v", c.Model.Temperature)
	}
	if got := c.Model.WithSystemPrompt("FRAME"); got != "FRAME\n\nAnswer in French.\nBe brief." {
		t.Errorf("system prompt: %q", got)
	}
	if got := (Model{SystemPrompt: "  \n"}).WithSystemPrompt("FRAME"); got != "FRAME" {
		t.Errorf("a blank system prompt: %q", got)
	}
	if d := (UI{}); d.ThemeOrDefault() != ThemeSystem || d.Scale() != 1 {
		t.Errorf("defaults: %q %v", d.ThemeOrDefault(), d.Scale())
	}
	for _, bad := range []string{`theme = "blue"`, `text_scale = 3`, `text_scale = 0.1`} {
		_, err := Parse("c.toml", []byte("[ui]\n"+bad+"\n"))
		if err == nil || !strings.Contains(err.Error(), "ui.") {
			t.Errorf("[ui] %s: %v, want an error naming ui.", bad, err)
		}
	}
}

// The settings form writes the system prompt (several lines), the
// temperature, the longest answer and the look, and removes them again
// when they go back to their defaults.
func TestSettingsFormNewKeys(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	f := SettingsForm{
		BaseURL: "http://127.0.0.1:11434/v1", Model: "m", ContextBudget: "32000", ApprovalTimeout: "2m",
		SystemPrompt: "Answer in French.\r\nQuote \"sources\".", Temperature: "0.7", MaxOutputTokens: "2048",
		UI: UI{Theme: ThemeLight, TextScale: 1.15},
	}
	write := func(f SettingsForm) *Config {
		t.Helper()
		edits, tables, err := f.Edits()
		if err != nil {
			t.Fatal(err)
		}
		if err := Update(path, edits, tables); err != nil {
			t.Fatal(err)
		}
		c, err := Load(path)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	c := write(f)
	if c.Model.SystemPrompt != "Answer in French.\nQuote \"sources\"." || c.Model.Temperature == nil || *c.Model.Temperature != 0.7 ||
		c.Model.MaxOutputTokens != 2048 || c.UI.Theme != ThemeLight || c.UI.TextScale != 1.15 {
		t.Fatalf("written: %+v %+v", c.Model, c.UI)
	}
	f.SystemPrompt, f.Temperature, f.MaxOutputTokens, f.UI = " ", "", "0", UI{Theme: ThemeSystem, TextScale: 1}
	c = write(f)
	data, _ := os.ReadFile(path)
	for _, gone := range []string{"system_prompt", "temperature", "max_output_tokens", "theme", "text_scale"} {
		if strings.Contains(string(data), gone) {
			t.Errorf("%s is still in the file:\n%s", gone, data)
		}
	}
	if c.Model.Temperature != nil || c.UI != (UI{}) {
		t.Errorf("defaults: %+v %+v", c.Model, c.UI)
	}
	for _, bad := range []struct {
		f    func(*SettingsForm)
		want string
	}{
		{func(f *SettingsForm) { f.Temperature = "2.5" }, "temperature"},
		{func(f *SettingsForm) { f.Temperature = "warm" }, "temperature"},
		{func(f *SettingsForm) { f.MaxOutputTokens = "lots" }, "longest answer"},
		{func(f *SettingsForm) { f.UI.Theme = "blue" }, "theme"},
		{func(f *SettingsForm) { f.UI.TextScale = 4 }, "text size"},
	} {
		g := f
		bad.f(&g)
		if _, _, err := g.Edits(); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%+v: %v, want an error about %s", g, err, bad.want)
		}
	}
}
