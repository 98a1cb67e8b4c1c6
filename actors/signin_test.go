package actors

import (
	"context"
	"strings"
	"testing"
	"time"

	"deckhand/actors/servers"
	"deckhand/config"
	"deckhand/keys"
	"deckhand/testutil"
	"deckhand/transport/mcp"
)

func startSignIn(t *testing.T, tokens *keys.Tokens, url string) *System {
	t.Helper()
	cfg := &config.Config{MCP: config.MCP{Servers: map[string]config.Server{"o": {URL: url}},
		Reconnect: config.Backoff{Initial: 50 * time.Millisecond, Max: 200 * time.Millisecond}}}
	cfg.ApplyDefaults()
	sys := Start(Options{Config: cfg, Paths: &noLoginShell, SignIn: &servers.SignInOptions{OAuth: mcpOAuth(tokens)}})
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), wait)
		defer cancel()
		sys.Shutdown(ctx)
	})
	return sys
}

// Signing in end to end against a local OAuth authorization server, the
// browser step done by a fake xdg-open: the server waits for the person
// (no browser opens by itself, no retry loop), signs in through the
// loopback redirect with PKCE, calls a tool, refreshes the token before it
// expires without asking, keeps the sign-in in the keyring for the next
// start, and signs out.
func TestSignInEndToEnd(t *testing.T) {
	keys.MockInit()
	testutil.FakeBrowser(t)
	o := testutil.NewOAuthServer(t, "o", 2*time.Second)
	tokens := &keys.Tokens{}
	t.Cleanup(func() { tokens.Remove(o.URL) })

	sys := startSignIn(t, tokens, o.URL)
	st := statuses(t, sys, true)["o"]
	if st.State != servers.StateNeedsSignIn || st.SignedIn {
		t.Fatalf("before signing in: %+v, want needs sign-in", st)
	}
	// Kept: what is tested is that nothing happens for a while (no retry,
	// no browser), which no event can say; 300 ms spans several reconnect
	// delays (50 ms, then up to 200 ms).
	time.Sleep(300 * time.Millisecond)
	if st := statuses(t, sys, false)["o"]; st.State != servers.StateNeedsSignIn || st.Attempts > 1 || o.Authorized() != 0 {
		t.Fatalf("a server needing sign-in retried or opened the browser: %+v, %d authorizations", st, o.Authorized())
	}
	if res := call(t, sys, "o.echo", `{"text": "hi"}`); res.Err == nil || !strings.Contains(res.Err.Error(), "sign in") {
		t.Errorf("a call before signing in: %v, want an error saying to sign in", res.Err)
	}

	ctx, cancel := context.WithTimeout(t.Context(), wait)
	defer cancel()
	var shown string
	st, err := sys.SignIn(ctx, "o", func(u string) { shown = u })
	if err != nil {
		t.Fatalf("SignIn() = %v", err)
	}
	if !st.SignedIn || st.Account != o.Account || st.Tools == 0 {
		t.Errorf("signed in: %+v", st)
	}
	if o.Authorized() != 1 || o.Grants("authorization_code") != 1 {
		t.Errorf("%d authorizations, %d code exchanges, want 1 each", o.Authorized(), o.Grants("authorization_code"))
	}
	_ = shown // the page is shown while signing in; fast browsers may finish first
	if got := text(t, call(t, sys, "o.echo", `{"text": "hi"}`)); got != "Echo: hi" {
		t.Errorf("o.echo = %q", got)
	}
	kept, err := tokens.Load(o.URL)
	if err != nil || kept == nil || kept.RefreshToken == "" {
		t.Fatalf("keyring holds %v (%v), want the tokens", kept, err)
	}
	if got := sys.secrets.Get().String(kept.AccessToken); got != "[redacted]" {
		t.Errorf("the access token is not a secret of the system: %q", got)
	}

	// The token lasts 2 s and is replaced within its last quarter, by the
	// next call (the token source refreshes when used). Kept: time passing
	// into that quarter is what is tested; the clock is the real one of
	// the OAuth server in another goroutine, out of synctest's reach.
	time.Sleep(1600 * time.Millisecond)
	if got := text(t, call(t, sys, "o.echo", `{"text": "again"}`)); got != "Echo: again" {
		t.Errorf("o.echo after refresh = %q", got)
	}
	if o.Grants("refresh_token") < 1 || o.Authorized() != 1 {
		t.Errorf("%d refreshes, %d authorizations: want a refresh and no new sign-in", o.Grants("refresh_token"), o.Authorized())
	}
	if now, _ := tokens.Load(o.URL); now == nil || now.AccessToken == kept.AccessToken {
		t.Errorf("the refreshed token was not kept")
	}

	// The next start signs in from the keyring, without the browser.
	sys2 := startSignIn(t, tokens, o.URL)
	if st := statuses(t, sys2, true)["o"]; st.State != servers.StateReady || !st.SignedIn {
		t.Errorf("a second start: %+v, want ready and signed in", st)
	}
	if o.Authorized() != 1 {
		t.Errorf("a second start opened the browser")
	}

	// Signing out removes the tokens, and the server needs signing in.
	if err := sys.SignOut(ctx, "o"); err != nil {
		t.Fatalf("SignOut() = %v", err)
	}
	if st := waitState(t, sys, "o", servers.StateNeedsSignIn); st.SignedIn || st.Reason != "signed out" {
		t.Errorf("after signing out: %+v", st)
	}
	if left, _ := tokens.Load(o.URL); left != nil {
		t.Errorf("the keyring still holds the sign-in")
	}
}

// A sign-in the server no longer accepts (tokens revoked) makes a server
// connected from the keyring need signing in again: a state, not a
// reconnect loop, and no browser opening by itself.
func TestSignInRevoked(t *testing.T) {
	keys.MockInit()
	testutil.FakeBrowser(t)
	o := testutil.NewOAuthServer(t, "o", time.Hour)
	tokens := &keys.Tokens{}
	t.Cleanup(func() { tokens.Remove(o.URL) })
	sys := startSignIn(t, tokens, o.URL)
	ctx, cancel := context.WithTimeout(t.Context(), wait)
	defer cancel()
	statuses(t, sys, true)
	if _, err := sys.SignIn(ctx, "o", nil); err != nil {
		t.Fatalf("SignIn() = %v", err)
	}
	sys2 := startSignIn(t, tokens, o.URL)
	if st := statuses(t, sys2, true)["o"]; st.State != servers.StateReady {
		t.Fatalf("from the keyring: %+v", st)
	}
	o.Revoke()
	if res := call(t, sys2, "o.echo", `{"text": "hi"}`); res.Err == nil {
		t.Errorf("a call with a revoked token succeeded")
	}
	st := waitState(t, sys2, "o", servers.StateNeedsSignIn)
	if !strings.Contains(st.Reason, "sign") || o.Authorized() != 1 {
		t.Errorf("reason %q, %d authorizations", st.Reason, o.Authorized())
	}
}

func mcpOAuth(tokens *keys.Tokens) mcp.OAuth { return mcp.OAuth{Tokens: tokens} }
