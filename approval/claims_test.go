package approval

import (
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestClaims(t *testing.T) {
	no := false
	tests := []struct {
		name string
		req  Request
		want string
	}{
		{"none", Request{}, ""},
		{"read-only, untrusted", Request{Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: &no}},
			"The server says: read-only. (A hint from an untrusted server.)"},
		{"defaults of the spec", Request{Trusted: true, Annotations: &sdk.ToolAnnotations{}},
			"The server says: may change or delete things, reaches outside this machine."},
		{"idempotent, closed world", Request{Trusted: true, Annotations: &sdk.ToolAnnotations{DestructiveHint: &no, IdempotentHint: true, OpenWorldHint: &no}},
			"The server says: idempotent."},
	}
	for _, tt := range tests {
		if got := Claims(tt.req); got != tt.want {
			t.Errorf("Claims(%s) = %q, want %q", tt.name, got, tt.want)
		}
	}
}
