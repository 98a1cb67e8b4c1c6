package dialogs

import (
	"encoding/json"
	"strings"
	"testing"

	"fyne.io/fyne/v2/widget"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/approval"
)

// Deckhand's own tools are not called an untrusted server's.
func TestWhoseTool(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		req  approval.Request
		want string
	}{
		{approval.Request{Server: "local", Tool: "exec"}, `Tool "exec" of Deckhand's built-in tools ("local")`},
		{approval.Request{Server: "fs", Tool: "read"}, `Tool "read" on the untrusted server "fs"`},
		{approval.Request{Server: "fs", Tool: "read", Trusted: true}, `Tool "read" on the trusted server "fs"`},
		{approval.Request{Server: "fs\x1b[2J", Tool: "r\u202ead"}, `Tool "rad" on the untrusted server "fs"`},
	} {
		if got := whose(c.req); got != c.want {
			t.Errorf("whose(%+v) = %s, want %s", c.req, got, c.want)
		}
	}
}

// What a server claims is coloured by what it says: "may change or delete"
// stands out (red from a trusted server, amber from another), read-only is
// plain.
func TestHintImportance(t *testing.T) {
	yes := true
	for _, tc := range []struct {
		req  approval.Request
		want widget.Importance
	}{
		{approval.Request{Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}}, widget.MediumImportance},
		{approval.Request{Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}, Trusted: true}, widget.MediumImportance},
		{approval.Request{Annotations: &sdk.ToolAnnotations{DestructiveHint: &yes}}, widget.WarningImportance},
		{approval.Request{Annotations: &sdk.ToolAnnotations{DestructiveHint: &yes}, Trusted: true}, widget.DangerImportance},
	} {
		if got := hintImportance(tc.req); got != tc.want {
			t.Errorf("%+v: %v, want %v", tc.req.Annotations, got, tc.want)
		}
	}
}

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
