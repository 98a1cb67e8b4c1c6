package testutil

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// OAuthServer is an MCP server behind OAuth, with its own authorization
// server on the same host: protected resource metadata, authorization
// server metadata, dynamic client registration, an authorization endpoint
// that signs the person in at once (redirecting with a code), and a token
// endpoint that checks PKCE and refreshes. Tokens last TTL.
type OAuthServer struct {
	URL     string // the MCP endpoint
	Base    string // the authorization server (its issuer)
	Account string // the email in the id_token

	TTL time.Duration

	mu         sync.Mutex
	codes      map[string]string    // code -> PKCE challenge
	access     map[string]time.Time // token -> expiry
	refresh    map[string]bool
	grants     map[string]int // grant type -> token requests
	authorized int            // authorization requests
	registered int
}

// NewOAuthServer starts one; its MCP server has the tools of NewServer.
func NewOAuthServer(t testing.TB, name string, ttl time.Duration) *OAuthServer {
	o := &OAuthServer{TTL: ttl, Account: "ada@example.com", codes: map[string]string{}, access: map[string]time.Time{},
		refresh: map[string]bool{}, grants: map[string]int{}}
	mux := http.NewServeMux()
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	o.Base, o.URL = ts.URL, ts.URL+"/mcp"
	prm := ts.URL + "/.well-known/oauth-protected-resource/mcp"
	mux.Handle("/.well-known/oauth-protected-resource/mcp", auth.ProtectedResourceMetadataHandler(&oauthex.ProtectedResourceMetadata{
		Resource: o.URL, AuthorizationServers: []string{o.Base}, ScopesSupported: []string{"mcp"},
	}))
	mux.HandleFunc("/.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		oauthJSON(w, http.StatusOK, map[string]any{
			"issuer": o.Base, "authorization_endpoint": o.Base + "/authorize", "token_endpoint": o.Base + "/token",
			"registration_endpoint": o.Base + "/register", "response_types_supported": []string{"code"},
			"grant_types_supported": []string{"authorization_code", "refresh_token"}, "code_challenge_methods_supported": []string{"S256"},
			"token_endpoint_auth_methods_supported": []string{"none"}, "scopes_supported": []string{"mcp", "offline_access"},
		})
	})
	mux.HandleFunc("/register", func(w http.ResponseWriter, r *http.Request) {
		var md map[string]any
		json.NewDecoder(r.Body).Decode(&md)
		o.mu.Lock()
		o.registered++
		o.mu.Unlock()
		oauthJSON(w, http.StatusCreated, map[string]any{"client_id": "client-" + random(), "token_endpoint_auth_method": "none", "redirect_uris": md["redirect_uris"]})
	})
	mux.HandleFunc("/authorize", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		redirect, err := url.Parse(q.Get("redirect_uri"))
		if err != nil || q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "" {
			http.Error(w, "bad authorization request", http.StatusBadRequest)
			return
		}
		code := random()
		o.mu.Lock()
		o.authorized++
		o.codes[code] = q.Get("code_challenge")
		o.mu.Unlock()
		back := redirect.Query()
		back.Set("code", code)
		back.Set("state", q.Get("state"))
		redirect.RawQuery = back.Encode()
		http.Redirect(w, r, redirect.String(), http.StatusFound)
	})
	mux.HandleFunc("/token", o.token)
	verify := func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		o.mu.Lock()
		defer o.mu.Unlock()
		exp, ok := o.access[token]
		if !ok || time.Now().After(exp) {
			return nil, auth.ErrInvalidToken
		}
		return &auth.TokenInfo{Scopes: []string{"mcp"}, Expiration: exp}, nil
	}
	srv := NewServer(name)
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil)
	mux.Handle("/mcp", auth.RequireBearerToken(verify, &auth.RequireBearerTokenOptions{ResourceMetadataURL: prm})(h))
	return o
}

func (o *OAuthServer) token(w http.ResponseWriter, r *http.Request) {
	r.ParseForm()
	grant := r.PostForm.Get("grant_type")
	o.mu.Lock()
	defer o.mu.Unlock()
	o.grants[grant]++
	switch grant {
	case "authorization_code":
		challenge, ok := o.codes[r.PostForm.Get("code")]
		delete(o.codes, r.PostForm.Get("code"))
		sum := sha256.Sum256([]byte(r.PostForm.Get("code_verifier")))
		if !ok || base64.RawURLEncoding.EncodeToString(sum[:]) != challenge {
			oauthJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_grant"})
			return
		}
	case "refresh_token":
		if !o.refresh[r.PostForm.Get("refresh_token")] {
			oauthJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_grant"})
			return
		}
		delete(o.refresh, r.PostForm.Get("refresh_token")) // rotated
	default:
		oauthJSON(w, http.StatusBadRequest, map[string]string{"error": "unsupported_grant_type"})
		return
	}
	access, refresh := "at-"+random(), "rt-"+random()
	o.access[access] = time.Now().Add(o.TTL)
	o.refresh[refresh] = true
	claims, _ := json.Marshal(map[string]string{"sub": "1", "email": o.Account})
	id := "e30." + base64.RawURLEncoding.EncodeToString(claims) + ".sig"
	oauthJSON(w, http.StatusOK, map[string]any{"access_token": access, "token_type": "Bearer", "refresh_token": refresh,
		"expires_in": int(o.TTL.Seconds()), "scope": "mcp offline_access", "id_token": id})
}

// Grants counts the token requests of a grant type (authorization_code,
// refresh_token).
func (o *OAuthServer) Grants(grant string) int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.grants[grant]
}

// Authorized counts the authorization requests (browser sign-ins).
func (o *OAuthServer) Authorized() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.authorized
}

// Revoke makes every token issued so far invalid (access and refresh).
func (o *OAuthServer) Revoke() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.access, o.refresh = map[string]time.Time{}, map[string]bool{}
}

func oauthJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func random() string {
	var b [12]byte
	rand.Read(b[:])
	return strings.ToLower(hex.EncodeToString(b[:]))
}

// FakeBrowser puts a fake xdg-open on PATH for the rest of the test: it
// follows the URL it is given with an HTTP client (testutil/fakebrowser), as
// a person who signs in at once would.
func FakeBrowser(t *testing.T) {
	t.Helper()
	bin := BuildProgram(t, "./testutil/fakebrowser")
	dir := t.TempDir()
	if err := os.Symlink(bin, filepath.Join(dir, "xdg-open")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
}
