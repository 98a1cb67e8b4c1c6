package mcp

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"deckhand/redact"
)

// A server whose refusal echoes part of a sign-in's token (known only to
// the sign-in, not the connection's static secrets) gets none of it into
// the error kept for the person (new-user pass 13, F11: only whole secrets
// the connection was dialled with were removed).
func TestRefusalEchoingPartOfSignInToken(t *testing.T) {
	const token = "oauth-access-ABCDEFGH-12345678"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "invalid token "+token[:20]+"… (ends "+token[22:]+")", http.StatusUnauthorized)
	}))
	t.Cleanup(srv.Close)
	var known redact.Set
	known.Add(token)
	ht := &httpTransport{base: http.DefaultTransport, redact: redact.New("static-token-0000"), known: &known}
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/mcp", strings.NewReader("{}"))
	resp, err := ht.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	refusal, _ := ht.failure()
	if refusal == nil || !strings.Contains(refusal.Body, "invalid token") {
		t.Fatalf("no refusal kept: %+v", refusal)
	}
	for i := 0; i+8 <= len(token); i++ {
		if strings.Contains(refusal.Error(), token[i:i+8]) {
			t.Fatalf("the refusal holds %q of the token: %s", token[i:i+8], refusal.Error())
		}
	}
}
