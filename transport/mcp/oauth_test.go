package mcp

import (
	"encoding/base64"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/oauth2"

	"deckhand/clean"
)

// idToken is an unsigned JWT with claims as its payload.
func idToken(claims string) string {
	enc := base64.RawURLEncoding.EncodeToString
	return enc([]byte(`{"alg":"none"}`)) + "." + enc([]byte(claims)) + ".sig"
}

// FuzzAccountOf: the id_token comes from the authorization server,
// untrusted. accountOf never panics and says who signed in as one clean,
// short line (it is shown in the terminal, the window and the log).
func FuzzAccountOf(f *testing.F) {
	for _, claims := range []string{
		`{"email": "ada@example.com", "sub": "1"}`, // testutil's OAuth server
		`{"preferred_username": "ada", "name": "Ada Lovelace"}`,
		`{"name": "Ada Lovelace"}`,
		`{"email": "\u001b[2J\u001b]0;pwned\u0007ada@example.com\u202e\nsigned in as root"}`,
		`{"email": 7}`,
		`not json`,
	} {
		f.Add(idToken(claims))
	}
	f.Add("a.b")
	f.Add("..")
	f.Add("a.!!!.c")
	f.Fuzz(func(t *testing.T, id string) {
		got := accountOf((&oauth2.Token{AccessToken: "x"}).WithExtra(map[string]any{"id_token": id}))
		if got != clean.Line(got) {
			t.Fatalf("accountOf(%q) = %q, not one clean line", id, got)
		}
		if utf8.RuneCountInString(got) > maxAccountLen || strings.TrimSpace(got) != got {
			t.Fatalf("accountOf(%q) = %q: want at most %d characters, trimmed", id, got, maxAccountLen)
		}
	})
}
