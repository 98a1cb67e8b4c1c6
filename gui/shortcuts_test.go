package gui

import (
	"strings"
	"testing"
)

// TestShortcutsListMatchesKeys: the F1 list says what the keys do. It said
// Shift+Enter sends an edit (Enter does, TestEditKeysAsTheMessageBox), and
// called the Servers and Settings panels windows.
func TestShortcutsListMatchesKeys(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	rows := map[string]string{}
	for _, s := range h.ui.shortcuts() {
		rows[s.keys] = s.what
	}
	tests := []struct {
		name, keys string
		has, lacks string
	}{
		{name: "Enter sends an edit", keys: "Enter", has: "Edit"},
		{name: "Shift+Enter does not send", keys: "Shift+Enter", lacks: "send"},
		{name: "Ctrl+W closes a panel", keys: "Ctrl+W", has: "panel", lacks: "window"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			what, ok := rows[tt.keys]
			if !ok {
				t.Fatalf("no %s row in the list", tt.keys)
			}
			if tt.has != "" && !strings.Contains(what, tt.has) {
				t.Errorf("%s: %q, want it to say %q", tt.keys, what, tt.has)
			}
			if tt.lacks != "" && strings.Contains(what, tt.lacks) {
				t.Errorf("%s: %q, want no %q", tt.keys, what, tt.lacks)
			}
		})
	}
}
