package mcp

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"log/slog"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/auth"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"

	"deckhand/clean"
	"deckhand/keys"
	"deckhand/redact"
)

// OAuth configures signing in to HTTP servers that ask for it: a 401 (or a
// 403 asking for more scope) with OAuth metadata. The go-sdk's
// [auth.AuthorizationCodeHandler] does the protocol (metadata discovery,
// client registration, PKCE, the code exchange, scope step-up); this adds
// the loopback redirect, the browser, keeping tokens in the keyring, and
// refreshing them before they expire.
type OAuth struct {
	// Tokens keeps each server's tokens between runs. Required.
	Tokens *keys.Tokens
	// SignIn, when set, lets this connection sign in: it is given the
	// authorization URL to show to the person and open in their browser,
	// and returns once it has (the redirect then arrives on a loopback
	// listener). Nil: no one is there to sign in, and a server that needs
	// it fails with [ErrSignInRequired] (a state, not a failure to retry).
	SignIn func(ctx context.Context, authURL string) error
	// Fresh ignores the kept access token (signing in again on purpose);
	// the scopes granted before are still asked for.
	Fresh bool
	// ClientMetadataURL is Deckhand's client ID metadata document (an
	// https URL), offered to servers that accept one; "" offers none.
	ClientMetadataURL string
	// ClientID and ClientSecret are a client registered beforehand with
	// the server's authorization server; "" registers dynamically.
	ClientID, ClientSecret string
	// HTTPTransport carries discovery, registration and token requests.
	// Default: the same bounded transport as MCP requests.
	HTTPTransport http.RoundTripper
	// OnSecrets, if set, is given every new token and client secret, to
	// be removed from logs and errors.
	OnSecrets func(values ...string)
	// OnSignInNeeded, if set, is called (from a request's goroutine) when
	// a live connection's sign-in ran out (the refresh was refused, or the
	// server asks for more scope) and SignIn is nil.
	OnSignInNeeded func(reason string)
}

// ErrSignInRequired says a server needs the person to sign in (in a
// browser) before it can be used.
var ErrSignInRequired = errors.New("sign-in required")

// SignInError says why a server needs signing in.
type SignInError struct {
	Reason string // in plain words, for people
}

func (e *SignInError) Error() string {
	if e.Reason == "" {
		return "needs sign-in"
	}
	return "needs sign-in: " + e.Reason
}

func (e *SignInError) Unwrap() error { return ErrSignInRequired }

// RefreshEarly is how long before its expiry an access token is replaced:
// a request never goes out with a token about to lapse.
const RefreshEarly = 30 * time.Second

// signInTimeout bounds the wait for the browser's redirect.
const signInTimeout = 10 * time.Minute

// oauthHandler is a connection's [auth.OAuthHandler].
type oauthHandler struct {
	cfg    *OAuth
	server string // the server's URL: the key its tokens are kept under
	client *http.Client
	log    *slog.Logger

	authMu sync.Mutex // one sign-in at a time

	mu  sync.Mutex
	tok *keys.Token // as last kept
	ts  oauth2.TokenSource

	needed atomic.Pointer[SignInError] // a sign-in was needed and could not happen
	signed atomic.Bool                 // signed in during this connection

	// known are the secrets of this sign-in seen so far (tokens, the
	// client's secret), removed whole or in part from its errors and log
	// lines: an authorization server's refusal may echo them.
	known redact.Set
}

var _ auth.OAuthHandler = (*oauthHandler)(nil)

func newOAuthHandler(cfg *OAuth, server string, log *slog.Logger) (*oauthHandler, error) {
	base := cfg.HTTPTransport
	if base == nil {
		base = defaultHTTPTransport
	}
	h := &oauthHandler{cfg: cfg, server: server, log: log, client: &http.Client{Transport: base, Timeout: time.Minute}}
	if cfg.ClientSecret != "" {
		h.secrets(cfg.ClientSecret)
	}
	tok, err := cfg.Tokens.Load(server)
	if err != nil {
		return nil, fmt.Errorf("reading the sign-in from the keyring: %w", err)
	}
	if tok != nil {
		h.secrets(tok.Secrets()...)
		h.tok = tok
		if !cfg.Fresh {
			h.ts = h.source(tok)
		}
	}
	return h, nil
}

func (h *oauthHandler) secrets(v ...string) {
	h.known.Add(v...)
	if h.cfg.OnSecrets != nil {
		h.cfg.OnSecrets(v...)
	}
}

// TokenSource is the source of the access token for each request: nil
// before any sign-in.
func (h *oauthHandler) TokenSource(context.Context) (oauth2.TokenSource, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.ts, nil
}

// Account says who is signed in, and whether anyone is.
func (h *oauthHandler) Account() (account string, signedIn bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.tok == nil || h.ts == nil {
		return "", false
	}
	// Kept tokens may come from a version that did not clean it.
	return showAccount(h.tok.Account), true
}

// Authorize runs the sign-in after a 401, or a 403 asking for more scope.
func (h *oauthHandler) Authorize(ctx context.Context, req *http.Request, resp *http.Response) error {
	challenge := strings.Join(resp.Header.Values("WWW-Authenticate"), ", ")
	if resp.StatusCode == http.StatusForbidden && !strings.Contains(challenge, "insufficient_scope") {
		resp.Body.Close()
		return nil // a refusal that signing in would not change
	}
	if h.cfg.SignIn == nil {
		resp.Body.Close()
		if challenge == "" {
			// No OAuth challenge at all: a plain refusal, reported as such.
			return errors.New("refused without an OAuth challenge")
		}
		h.mu.Lock()
		had := h.tok != nil
		h.mu.Unlock()
		reason := "the server asks you to sign in"
		switch {
		case resp.StatusCode == http.StatusForbidden:
			reason = "the server asks for more permissions than you granted"
		case had:
			reason = "the sign-in has expired"
		}
		se := &SignInError{Reason: reason}
		first := h.needed.Swap(se) == nil
		if first && h.cfg.OnSignInNeeded != nil {
			h.cfg.OnSignInNeeded(reason)
		}
		return se
	}
	h.authMu.Lock()
	defer h.authMu.Unlock()
	ctx, cancel := context.WithTimeout(ctx, signInTimeout)
	defer cancel()

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		resp.Body.Close()
		return fmt.Errorf("opening the sign-in's loopback redirect: %w", err)
	}
	defer ln.Close()
	redirect := fmt.Sprintf("http://127.0.0.1:%d/callback", ln.Addr().(*net.TCPAddr).Port)
	cfg := &auth.AuthorizationCodeHandlerConfig{
		RedirectURL:              redirect,
		AuthorizationCodeFetcher: h.fetcher(ln),
		DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{
			Metadata: &oauthex.ClientRegistrationMetadata{
				RedirectURIs:  []string{redirect},
				ClientName:    "Deckhand",
				GrantTypes:    []string{"authorization_code", "refresh_token"},
				ResponseTypes: []string{"code"},
			},
		},
		RequestRefreshToken: true,
		Client:              h.client,
		NewTokenSource:      h.newSource,
		ScopeFilter:         h.withGranted,
	}
	if h.cfg.ClientMetadataURL != "" {
		cfg.ClientIDMetadataDocumentConfig = &auth.ClientIDMetadataDocumentConfig{URL: h.cfg.ClientMetadataURL}
	}
	if h.cfg.ClientID != "" {
		cfg.PreregisteredClient = &oauthex.ClientCredentials{ClientID: h.cfg.ClientID}
		if h.cfg.ClientSecret != "" {
			cfg.PreregisteredClient.ClientSecretAuth = &oauthex.ClientSecretAuth{ClientSecret: h.cfg.ClientSecret}
		}
	}
	inner, err := auth.NewAuthorizationCodeHandler(cfg)
	if err != nil {
		resp.Body.Close()
		return err
	}
	if err := inner.Authorize(ctx, req, resp); err != nil {
		err = h.known.Get().Error(err)
		h.log.Debug("signing in failed", "err", err)
		return fmt.Errorf("signing in: %w", err)
	}
	h.signed.Store(true)
	h.needed.Store(nil)
	return nil
}

// withGranted asks for the scopes granted before as well as those the
// server asks for now: a step-up adds to what was granted.
func (h *oauthHandler) withGranted(discovered []string) []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.tok == nil || len(discovered) == 0 {
		return discovered
	}
	out := slices.Clone(discovered)
	for _, s := range h.tok.Scopes {
		if s != "offline_access" && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// newSource keeps the tokens of a completed sign-in and makes the source
// that refreshes them.
func (h *oauthHandler) newSource(_ context.Context, cfg *oauth2.Config, t *oauth2.Token) (oauth2.TokenSource, error) {
	tok := &keys.Token{
		AccessToken:  t.AccessToken,
		RefreshToken: t.RefreshToken,
		TokenType:    t.TokenType,
		Expiry:       t.Expiry,
		ClientID:     cfg.ClientID,
		ClientSecret: cfg.ClientSecret,
		TokenURL:     cfg.Endpoint.TokenURL,
		AuthStyle:    int(cfg.Endpoint.AuthStyle),
		Scopes:       grantedScopes(t, cfg.Scopes),
		Account:      accountOf(t),
	}
	h.secrets(tok.Secrets()...)
	if err := h.cfg.Tokens.Save(h.server, tok); err != nil {
		return nil, err
	}
	ts := h.source(tok)
	h.mu.Lock()
	h.tok, h.ts = tok, ts
	h.mu.Unlock()
	return ts, nil
}

// source is a token source that refreshes tok before it expires and keeps
// each new token.
func (h *oauthHandler) source(tok *keys.Token) oauth2.TokenSource {
	early := RefreshEarly
	if life := time.Until(tok.Expiry); life > 0 && life/4 < early {
		early = life / 4 // short-lived tokens are not refreshed at every request
	}
	return oauth2.ReuseTokenSourceWithExpiry(toOAuth2(tok), &refresher{h: h}, early)
}

// refresher gets a new access token with the refresh token kept last.
type refresher struct{ h *oauthHandler }

func (r *refresher) Token() (*oauth2.Token, error) {
	h := r.h
	h.mu.Lock()
	tok := h.tok
	h.mu.Unlock()
	if tok == nil || tok.RefreshToken == "" || tok.TokenURL == "" {
		// As the SDK reads it: sign in again.
		return nil, &oauth2.RetrieveError{ErrorCode: "invalid_grant", ErrorDescription: "the access token expired and there is no refresh token"}
	}
	cfg := &oauth2.Config{
		ClientID:     tok.ClientID,
		ClientSecret: tok.ClientSecret,
		Endpoint:     oauth2.Endpoint{TokenURL: tok.TokenURL, AuthStyle: oauth2.AuthStyle(tok.AuthStyle)},
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ctx = context.WithValue(ctx, oauth2.HTTPClient, h.client)
	t, err := cfg.TokenSource(ctx, &oauth2.Token{RefreshToken: tok.RefreshToken}).Token()
	if err != nil {
		var re *oauth2.RetrieveError
		if errors.As(err, &re) {
			// Only the error code: the response body may echo a token.
			return nil, &oauth2.RetrieveError{Response: re.Response, ErrorCode: re.ErrorCode, ErrorDescription: "refreshing the sign-in was refused"}
		}
		return nil, fmt.Errorf("refreshing the sign-in: %w", h.known.Get().Error(err))
	}
	next := *tok
	next.AccessToken, next.TokenType, next.Expiry = t.AccessToken, t.TokenType, t.Expiry
	if t.RefreshToken != "" {
		next.RefreshToken = t.RefreshToken
	}
	if s := grantedScopes(t, nil); len(s) > 0 {
		next.Scopes = s
	}
	h.secrets(next.Secrets()...)
	if err := h.cfg.Tokens.Save(h.server, &next); err != nil {
		return nil, err
	}
	h.mu.Lock()
	h.tok = &next
	h.mu.Unlock()
	return t, nil
}

func toOAuth2(t *keys.Token) *oauth2.Token {
	return &oauth2.Token{AccessToken: t.AccessToken, RefreshToken: t.RefreshToken, TokenType: t.TokenType, Expiry: t.Expiry}
}

// grantedScopes are the scopes a token response says were granted, or
// asked when it does not say.
func grantedScopes(t *oauth2.Token, asked []string) []string {
	if s, ok := t.Extra("scope").(string); ok && strings.TrimSpace(s) != "" {
		return strings.Fields(s)
	}
	return slices.Clone(asked)
}

// accountOf reads who signed in from an OpenID Connect id_token in the
// token response, for display only (it is not verified, and nothing is
// decided on it).
func accountOf(t *oauth2.Token) string {
	id, _ := t.Extra("id_token").(string)
	parts := strings.Split(id, ".")
	if len(parts) != 3 {
		return ""
	}
	raw, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		return ""
	}
	var claims struct {
		Email, Name, Sub  string
		PreferredUsername string `json:"preferred_username"`
	}
	if json.Unmarshal(raw, &claims) != nil {
		return ""
	}
	for _, v := range []string{claims.Email, claims.PreferredUsername, claims.Name} {
		if v = showAccount(v); v != "" {
			return v
		}
	}
	return ""
}

// maxAccountLen bounds an account's name, in characters: an email address
// is at most 254.
const maxAccountLen = 256

// showAccount is an account name fit to show: the authorization server
// wrote it, so it is one clean line (no escape sequence or newline to
// forge the terminal's output), trimmed, and cut to maxAccountLen.
func showAccount(s string) string {
	s = strings.TrimSpace(clean.Line(s))
	if utf8.RuneCountInString(s) <= maxAccountLen {
		return s
	}
	r := []rune(s)[:maxAccountLen-1]
	return strings.TrimSpace(string(r)) + "…"
}

type callbackResult struct {
	res *auth.AuthorizationResult
	err error
}

// fetcher shows the authorization URL and waits for the browser to come
// back to the loopback redirect with the code.
func (h *oauthHandler) fetcher(ln net.Listener) auth.AuthorizationCodeFetcher {
	return func(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
		got := make(chan callbackResult, 1)
		srv := &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != "/callback" {
				http.NotFound(w, r)
				return
			}
			q := r.URL.Query()
			var res callbackResult
			if e := q.Get("error"); e != "" {
				why := e
				if d := q.Get("error_description"); d != "" {
					why += ": " + d
				}
				res.err = fmt.Errorf("the authorization server refused: %s", why)
				page(w, "Sign-in refused", "The server said: "+why+". You can close this tab.")
			} else if q.Get("code") == "" {
				http.Error(w, "no authorization code", http.StatusBadRequest)
				return
			} else {
				res.res = &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}
				page(w, "Signed in", "Deckhand is signed in. You can close this tab and go back to Deckhand.")
			}
			select {
			case got <- res:
			default:
			}
		})}
		go srv.Serve(ln)
		defer srv.Close()
		if err := h.cfg.SignIn(ctx, args.URL); err != nil {
			return nil, err
		}
		select {
		case r := <-got:
			return r.res, r.err
		case <-ctx.Done():
			return nil, fmt.Errorf("no sign-in in the browser: %w", context.Cause(ctx))
		}
	}
}

func page(w http.ResponseWriter, title, text string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprintf(w, "<!doctype html><meta charset=utf-8><title>%s</title><body style=\"font-family:sans-serif;margin:4em\"><h1>%s</h1><p>%s</p>",
		html.EscapeString(title), html.EscapeString(title), html.EscapeString(text))
}

// withOAuth lets a streamable HTTP connection sign in, when the server has
// no static token and OAuth is configured.
func (c *Conn) withOAuth(t *sdk.StreamableClientTransport, token string, opts Options) error {
	if token != "" || opts.OAuth == nil || opts.OAuth.Tokens == nil {
		return nil
	}
	if c.oauth == nil {
		h, err := newOAuthHandler(opts.OAuth, strings.TrimRight(t.Endpoint, "/"), c.log)
		if err != nil {
			return err
		}
		c.oauth = h
	}
	t.OAuthHandler = c.oauth
	return nil
}

// secrets are those removed from the connection's errors: its token and
// the values it passed on, and its sign-in's tokens once known.
func (c *Conn) secrets() redact.Secrets {
	if c.oauth == nil {
		return c.redact
	}
	return c.redact.Join(c.oauth.known.Get())
}

// signInNeeded is the reason a connection attempt needs the person to sign
// in, or nil.
func (c *Conn) signInNeeded() error {
	if c.oauth == nil {
		return nil
	}
	if se := c.oauth.needed.Load(); se != nil {
		return se
	}
	return nil
}

// Account says whether the connection is signed in (OAuth) and, when the
// server said, as whom.
func (c *Conn) Account() (account string, signedIn bool) {
	if c.oauth == nil {
		return "", false
	}
	return c.oauth.Account()
}

// attemptKey carries per-attempt options in a Dial's context.
type attemptKey struct{}

// WithAttempt returns ctx carrying a change to the [Options] of the Dial it
// is given to: how the actors add what belongs to one connection attempt
// (whether the person is there to sign in, where elicitations go) to the
// options the system dials every server with.
func WithAttempt(ctx context.Context, adjust func(*Options)) context.Context {
	return context.WithValue(ctx, attemptKey{}, adjust)
}

func attemptOptions(ctx context.Context, opts Options) Options {
	if adjust, ok := ctx.Value(attemptKey{}).(func(*Options)); ok && adjust != nil {
		adjust(&opts)
	}
	return opts
}
