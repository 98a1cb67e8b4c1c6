package llm

import "testing"

func TestEndpointWhere(t *testing.T) {
	for _, tc := range []struct{ base, want string }{
		{"http://127.0.0.1:11434/v1", "127.0.0.1:11434"},
		{"https://api.example.com/v1", "api.example.com"},
		{"not a url", "not a url"},
	} {
		if got := (Endpoint{BaseURL: tc.base}).Where(); got != tc.want {
			t.Errorf("Where(%q) = %q, want %q", tc.base, got, tc.want)
		}
	}
}
