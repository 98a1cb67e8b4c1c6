package gui

import (
	"os"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"deckhand/config"
	"deckhand/keys"
	"deckhand/store"
	"deckhand/testutil"
)

// A model's price is given in Settings ▸ Advanced: a number below 0 is
// refused with the field named; a price saved is the model's own entry in
// model.prices, shown again on reopening, and the status line's cost
// follows it. (New-user pass 13 F4: cost was never shown, and no price
// could be given in the window.)
func TestSettingsPricePerMillionTokens(t *testing.T) {
	keys.MockInit()
	h := newHarness(t, harnessOptions{responses: []testutil.ModelResponse{{Body: testutil.TextChunks("Hello", ", ", "wor", "ld", "!")}}})
	f := h.openSettings()
	if f.PriceIn == nil || f.PriceOut == nil {
		t.Fatal("the settings have no price per million tokens")
	}
	if f.PriceIn.Text != "" || f.PriceOut.Text != "" {
		t.Errorf("a model with no price shows %q / %q, want empty", f.PriceIn.Text, f.PriceOut.Text)
	}
	test.Type(&f.PriceIn.Entry, "-2")
	test.Type(&f.PriceOut.Entry, "10")
	h.tap(f.Window(), "Save")
	if top := f.Window().Canvas().Overlays().Top(); top == nil || !h.shows(f.Window(), `Input price: "-2" is not a number`) {
		t.Fatalf("-2 was not refused with the field named:\n%s", strings.Join(h.texts(f.Window()), "\n"))
	}
	f.Window().Canvas().Overlays().Top().Hide()
	f.Window().Canvas().Overlays().Remove(f.Window().Canvas().Overlays().Top())
	f.PriceIn.SetText("2.5")
	h.saveSettings(f)
	saved, err := config.LoadForUpdate(h.cfg.Path)
	if err != nil {
		t.Fatal(err)
	}
	if p, ok := saved.Model.Prices["scripted"]; !ok || p.InputPerMTok != 2.5 || p.OutputPerMTok != 10 {
		data, _ := os.ReadFile(h.cfg.Path)
		t.Errorf("saved prices = %+v, want scripted's 2.5 and 10:\n%s", saved.Model.Prices, data)
	}
	f = h.openSettings()
	if f.PriceIn.Text != "2.5" || f.PriceOut.Text != "10" {
		t.Errorf("reopened, the price shows %q / %q, want 2.5 / 10", f.PriceIn.Text, f.PriceOut.Text)
	}
	f.Close()

	h.say("hi there")
	// 10 tokens in at $2.5, 5 out at $10 per million.
	h.until("the status line's cost", func() bool { return strings.Contains(h.ui.status.Text, "$0.0001") })
}

// The status line's cost: the dollars; where no price is known for a
// model on the internet, where to give one.
func TestStatusCostPart(t *testing.T) {
	remote := config.Model{BaseURL: "https://api.openai.com/v1"}
	priced := remote
	priced.Prices = map[string]config.Price{"gpt-4o": {InputPerMTok: 2.5, OutputPerMTok: 10}}
	free := remote
	free.Prices = map[string]config.Price{"gpt-4o": {}}
	tokens := store.Usage{InputTokens: 966, OutputTokens: 51}
	tests := []struct {
		name  string
		m     config.Model
		usage store.Usage
		want  string
	}{
		{"no price, remote", remote, tokens, "cost unknown: set a price in Settings"},
		{"no tokens yet", remote, store.Usage{}, ""},
		{"priced", priced, store.Usage{InputTokens: 966, OutputTokens: 51, CostUSD: 0.002925}, "$0.0029"},
		{"a price of 0 given", free, tokens, ""},
		{"on this computer", config.Model{BaseURL: "http://127.0.0.1:11434/v1"}, tokens, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := costPart(tt.m, "gpt-4o", tt.usage); got != tt.want {
				t.Errorf("costPart() = %q, want %q", got, tt.want)
			}
		})
	}
}
