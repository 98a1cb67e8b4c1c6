package gui

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// gatedModels is a model server whose list of models waits until open is
// called.
func gatedModels(t *testing.T, models ...string) (url string, open func()) {
	gate := make(chan struct{})
	var once sync.Once
	open = func() { once.Do(func() { close(gate) }) }
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-gate:
		case <-r.Context().Done():
			return
		}
		var data []map[string]string
		for _, m := range models {
			data = append(data, map[string]string{"id": m})
		}
		json.NewEncoder(w).Encode(map[string]any{"data": data})
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(open) // before Close: no request left waiting
	return srv.URL + "/v1", open
}

// TestSettingsCheckBelongsToItsVisit: what Check found is said in the
// visit to Settings that asked; Settings reopened later start without it
// (they said "answers with 2 models" in green, of a Check made before). A
// Check still under way when they reopen says what it found then.
func TestSettingsCheckBelongsToItsVisit(t *testing.T) {
	const found = "answers with 2 models"
	tests := []struct {
		name string
		// steps runs Check, closing and reopening Settings around the
		// answer (open lets it come); it returns whether the answer
		// should show at the end.
		steps func(h *harness, open func()) (shown bool)
	}{
		{"answered, then reopened", func(h *harness, open func()) bool {
			open()
			h.until("what Check found", func() bool { return strings.Contains(h.ui.settingsF.Checked.Text, found) })
			h.key("Escape") // closes Settings
			h.ui.showSettings()
			return false
		}},
		{"answered while closed", func(h *harness, open func()) bool {
			h.ui.settingsF.Close()
			open()
			h.until("Check's answer", func() bool { return strings.Contains(h.ui.settingsF.Checked.Text, found) })
			h.ui.showSettings()
			return false
		}},
		{"Ctrl+, again while shown", func(h *harness, open func()) bool {
			open()
			h.until("what Check found", func() bool { return strings.Contains(h.ui.settingsF.Checked.Text, found) })
			h.ui.showSettings() // the same visit goes on
			return true
		}},
		{"reopened while asking", func(h *harness, open func()) bool {
			h.ui.toChat() // a chat chosen in the sidebar
			h.ui.showSettings()
			if f := h.ui.settingsF; !f.Checked.Visible() || !strings.Contains(f.Checked.Text, "for its models…") {
				h.t.Errorf("reopened while Check asks, the settings say %q (shown %v)", f.Checked.Text, f.Checked.Visible())
			}
			open()
			h.until("what Check found", func() bool { return strings.Contains(h.ui.settingsF.Checked.Text, found) })
			return true
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, harnessOptions{})
			url, open := gatedModels(t, "m-one", "m-two")
			f := h.openSettings()
			f.BaseURL.SetText(url)
			h.tap(f.Window(), "Check")
			want := tt.steps(h, open)
			h.drain()
			if h.ui.panel == nil || h.ui.settingsW != h.ui.panel {
				t.Fatal("Settings are not shown at the end")
			}
			if shown := f.Checked.Visible() && strings.Contains(f.Checked.Text, found); shown != want {
				t.Errorf("the settings say %q (shown %v); want Check's answer shown %v", f.Checked.Text, f.Checked.Visible(), want)
			}
		})
	}
}
