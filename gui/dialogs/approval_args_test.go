package dialogs

import (
	"encoding/json"
	"strings"
	"testing"
)

// A value's start, as the line below the scroll names it: one line, cut
// short, quoted, cleaned.
func TestArgStart(t *testing.T) {
	tests := []struct {
		name, raw, want string
	}{
		{"number", `22`, "22"},
		{"string", `"run-at-login.sh"`, "\u201crun-at-login.sh\u201d"},
		{"string's first line", `"one\ntwo"`, "\u201cone…\u201d"},
		{"long string", `"` + strings.Repeat("x", 40) + `"`, "\u201c" + strings.Repeat("x", 32) + "…\u201d"},
		{"object compacted", "{\n \"x\": [1, 2],\n \"y\": {\"z\": true}\n}", `{"x":[1,2],"y":{"z":true}}`},
		{"escape sequence cleaned", `"a\u001b[2Jb"`, "\u201cab\u201d"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := argStart(json.RawMessage(tt.raw)); got != tt.want {
				t.Errorf("argStart(%s) = %q, want %q", tt.raw, got, tt.want)
			}
		})
	}
}
