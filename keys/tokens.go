package keys

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/zalando/go-keyring"
)

// Token is what an OAuth sign-in to one MCP server leaves: the tokens, and
// what refreshing them needs (the client and the token endpoint). It is a
// secret: its String, GoString and LogValue say whom it is for, never the
// tokens.
type Token struct {
	AccessToken  string    `json:"access_token"`
	RefreshToken string    `json:"refresh_token,omitempty"`
	TokenType    string    `json:"token_type,omitempty"`
	Expiry       time.Time `json:"expiry,omitzero"`
	// The client the tokens were issued to, and where to refresh them.
	ClientID     string `json:"client_id,omitempty"`
	ClientSecret string `json:"client_secret,omitempty"`
	TokenURL     string `json:"token_url,omitempty"`
	AuthStyle    int    `json:"auth_style,omitempty"` // oauth2.AuthStyle
	Issuer       string `json:"issuer,omitempty"`
	// Scopes granted so far (a step-up asks for these and more).
	Scopes []string `json:"scopes,omitempty"`
	// Account names who signed in, when the server said (an OpenID
	// Connect id_token's email or name); "" when it did not.
	Account string `json:"account,omitempty"`
}

// Secrets are the token's secret values, to redact.
func (t *Token) Secrets() []string {
	if t == nil {
		return nil
	}
	return []string{t.AccessToken, t.RefreshToken, t.ClientSecret}
}

func (t *Token) String() string {
	if t == nil {
		return "no sign-in"
	}
	if t.Account != "" {
		return "signed in as " + t.Account
	}
	return "signed in"
}
func (t *Token) GoString() string     { return "keys.Token{" + t.String() + "}" }
func (t *Token) LogValue() slog.Value { return slog.StringValue(t.String()) }

// tokenPrefix marks the keyring entries holding OAuth tokens (the model
// keys' entries are their base URLs).
const tokenPrefix = "oauth: "

// TokenAccount is the keyring user a server's tokens are kept under: its URL
// without a trailing slash.
func TokenAccount(serverURL string) string {
	return tokenPrefix + serverKey(serverURL)
}

func serverKey(serverURL string) string { return strings.TrimRight(strings.TrimSpace(serverURL), "/") }

// Tokens keeps the OAuth tokens of MCP servers in the keyring. Where no
// keyring runs (or it is locked), they are kept in memory for the rest of
// the process instead, and Warning says so: never in a plain file.
type Tokens struct {
	mu      sync.Mutex
	memory  map[string]*Token // the fallback, by server URL
	warning string
	// Memory keeps every token in memory only (tests, the conformance
	// client), never touching the keyring.
	Memory bool
}

// Warning says why tokens are kept in memory only, or "".
func (s *Tokens) Warning() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.warning
}

// MemoryOnly is the warning when no keyring can keep the tokens.
const MemoryOnly = "no keyring available: the sign-in is kept in memory until Deckhand quits, and you will be asked to sign in again next time"

// Load returns the tokens kept for the server at serverURL, or nil (and no
// error) when there are none.
func (s *Tokens) Load(serverURL string) (*Token, error) {
	serverURL = serverKey(serverURL)
	s.mu.Lock()
	if t := s.memory[serverURL]; t != nil || s.Memory {
		s.mu.Unlock()
		return clone(t), nil
	}
	s.mu.Unlock()
	var raw string
	err := call(func() error {
		var err error
		raw, err = keyring.Get(Service, TokenAccount(serverURL))
		return err
	})
	switch {
	case errors.Is(err, keyring.ErrNotFound), errors.Is(err, ErrUnavailable), errors.Is(err, ErrLocked):
		return nil, nil
	case err != nil:
		return nil, err
	}
	var t Token
	if err := json.Unmarshal([]byte(raw), &t); err != nil || t.AccessToken == "" {
		// Not ours, or damaged: as good as none (signing in replaces it).
		return nil, nil
	}
	return &t, nil
}

// Save keeps t for the server at serverURL, replacing what was there. It
// falls back to memory (setting Warning) where no keyring runs; only a
// keyring that fails otherwise is an error.
func (s *Tokens) Save(serverURL string, t *Token) error {
	serverURL = serverKey(serverURL)
	if t == nil {
		return s.Remove(serverURL)
	}
	if !s.Memory {
		raw, err := json.Marshal(t)
		if err != nil {
			return err
		}
		err = call(func() error { return keyring.Set(Service, TokenAccount(serverURL), string(raw)) })
		switch {
		case err == nil:
			s.mu.Lock()
			delete(s.memory, serverURL)
			s.mu.Unlock()
			return nil
		case !errors.Is(err, ErrUnavailable) && !errors.Is(err, ErrLocked):
			return fmt.Errorf("keeping the sign-in in the keyring: %w", err)
		}
		s.mu.Lock()
		s.warning = MemoryOnly
		s.mu.Unlock()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.memory == nil {
		s.memory = map[string]*Token{}
	}
	s.memory[serverURL] = clone(t)
	return nil
}

// Remove forgets the tokens of the server at serverURL (signing out). None
// there is not an error.
func (s *Tokens) Remove(serverURL string) error {
	serverURL = serverKey(serverURL)
	s.mu.Lock()
	delete(s.memory, serverURL)
	s.mu.Unlock()
	if s.Memory {
		return nil
	}
	err := call(func() error { return keyring.Delete(Service, TokenAccount(serverURL)) })
	if err == nil || errors.Is(err, keyring.ErrNotFound) || errors.Is(err, ErrUnavailable) {
		return nil
	}
	return err
}

func clone(t *Token) *Token {
	if t == nil {
		return nil
	}
	c := *t
	c.Scopes = append([]string(nil), t.Scopes...)
	return &c
}
