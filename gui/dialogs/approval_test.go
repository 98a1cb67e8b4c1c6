package dialogs

import (
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
