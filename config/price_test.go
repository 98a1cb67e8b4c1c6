package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A price typed in the settings is read as the model's own entry in
// model.prices, or refused with the field named; written to the file, it
// is what the model costs, dotted and slashed model names included.
func TestPriceEdits(t *testing.T) {
	tests := []struct {
		name, model, in, out string
		wantErr              string
		wantIn, wantOut      float64
	}{
		{name: "both", model: "gpt-4o", in: "2.5", out: "10", wantIn: 2.5, wantOut: 10},
		{name: "dotted name", model: "claude-3.5-sonnet", in: "3", out: " 15 ", wantIn: 3, wantOut: 15},
		{name: "slashed name", model: "meta-llama/Llama-3.1-8B", in: "0", out: "0.2", wantOut: 0.2},
		{name: "only output", model: "m", out: "1", wantOut: 1},
		{name: "negative", model: "m", in: "-1", wantErr: `input price: "-1" is not a number`},
		{name: "words", model: "m", in: "1", out: "ten", wantErr: `output price: "ten" is not a number`},
		{name: "no model", in: "1", wantErr: "choose a model first"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			edits, err := PriceEdits(tt.model, tt.in, tt.out)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("PriceEdits(%q, %q, %q) = %v, want an error with %q", tt.model, tt.in, tt.out, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(t.TempDir(), "config.toml")
			os.WriteFile(path, []byte("[model]\nname = \"other\"\n\n[model.price]\ninput_per_mtok = 9\n"), 0o600)
			if err := Update(path, edits, nil); err != nil {
				t.Fatal(err)
			}
			// Written again (the settings saved twice): one entry, not two.
			if err := Update(path, edits, nil); err != nil {
				t.Fatal(err)
			}
			cfg, err := Load(path)
			if err != nil {
				data, _ := os.ReadFile(path)
				t.Fatalf("Load() = %v\n%s", err, data)
			}
			if p := cfg.Model.PriceFor(tt.model); p.InputPerMTok != tt.wantIn || p.OutputPerMTok != tt.wantOut {
				t.Errorf("PriceFor(%q) = %+v, want in %v out %v", tt.model, p, tt.wantIn, tt.wantOut)
			}
			if p := cfg.Model.PriceFor("other"); p.InputPerMTok != 9 {
				t.Errorf("another model's price changed: %+v", p)
			}
		})
	}
}

// The settings write a price when it was typed, not because the model
// changed with the price shown left as it was.
func TestSettingsPriceWrittenWhenTyped(t *testing.T) {
	was := SettingsForm{Model: "a", ContextBudget: "1000", ApprovalTimeout: "2m", PriceIn: "1", PriceOut: "2"}
	now := was
	now.Model = "b"
	edits, _, err := now.EditsSince(was)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range edits {
		if strings.HasPrefix(e.Table, "model.prices") {
			t.Errorf("a model changed wrote its price: %+v", e)
		}
	}
	now.PriceOut = "3"
	edits, _, err = now.EditsSince(was)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range edits {
		if e.Table == "model.prices.b" {
			got = append(got, e.Key)
		}
	}
	if len(got) != 2 {
		t.Errorf("a price typed wrote %v, want input_per_mtok and output_per_mtok for b", got)
	}
}
