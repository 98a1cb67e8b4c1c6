package keys

import (
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"deckhand/config"
)

// Try asks for the key only when the server refuses without one: a
// server that needs none is never held up by the keyring; one that
// refuses gets the keyring's key (or the variable's, first), and no key
// anywhere leaves the server's refusal.
func TestTry(t *testing.T) {
	if os.Getenv(realChild) != "" {
		t.Skip("inside the real keyring's session")
	}
	errRefused, errBroken := errors.New("401"), errors.New("500")
	const base = "http://model.test/v1"
	for _, c := range []struct {
		name      string
		saved     bool              // a key in the keyring
		env       map[string]string // the environment
		keyless   bool              // the server takes a request without a key
		other     error             // what it answers instead, if not a refusal
		wantSent  []string          // the keys sent, in order ("" none)
		wantErr   error
		wantNoKey bool
	}{
		{name: "keyless server", saved: true, keyless: true, wantSent: []string{""}},
		{name: "refused, the keyring's key", saved: true, wantSent: []string{"", secret}},
		{name: "the variable's key first", saved: true, env: map[string]string{"K": "sk-env"}, wantSent: []string{"sk-env"}},
		{name: "refused, no key anywhere", wantSent: []string{""}, wantErr: errRefused},
		{name: "another failure is not retried", saved: true, other: errBroken, wantSent: []string{""}, wantErr: errBroken},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("XDG_CONFIG_HOME", t.TempDir()) // no key file
			MockInit()
			if c.saved {
				if err := Store(base, secret); err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { Remove(base) })
			}
			var sent []string
			err := Try(config.Model{BaseURL: base, APIKeyEnv: "K"}, env(c.env), func(k Key) error {
				sent = append(sent, k.Value())
				switch {
				case c.other != nil:
					return c.other
				case k.Value() == "" && !c.keyless:
					return errRefused
				}
				return nil
			}, func(err error) bool { return errors.Is(err, errRefused) }, nil)
			if !errors.Is(err, c.wantErr) || (c.wantErr == nil) != (err == nil) {
				t.Errorf("Try() = %v, want %v", err, c.wantErr)
			}
			if !slices.Equal(sent, c.wantSent) {
				t.Errorf("Try() sent keys %q, want %q", sent, c.wantSent)
			}
		})
	}
}

// A refused request whose key the keyring cannot give says which key it
// needed, and why it could not be had.
func TestTryKeyringFails(t *testing.T) {
	if os.Getenv(realChild) != "" {
		t.Skip("inside the real keyring's session")
	}
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	MockUnavailable()
	defer MockInit()
	refused := errors.New("401")
	err := Try(config.Model{BaseURL: "https://api.example.com/v1"}, env(nil), func(Key) error { return refused },
		func(err error) bool { return err == refused }, nil)
	// No keyring and no key file: no key is kept anywhere, so the
	// server's refusal stands.
	if err != refused {
		t.Errorf("Try() = %v, want the refusal", err)
	}
	e := &KeyNeededError{Account: "https://api.example.com/v1", Status: 401, Err: ErrLocked}
	if want := "the model at https://api.example.com/v1 refused the request without a key (401); its key is kept in the keyring, which is locked: unlock it"; !errors.Is(e, ErrLocked) || !strings.HasPrefix(e.Error(), want) {
		t.Errorf("KeyNeededError = %q, want it to begin %q", e.Error(), want)
	}
}

// A locked keyring is asked to unlock only for a key it holds, and then
// only with the caller's consent: a server that refuses without a key,
// whose key was never saved, gets no unlock prompt (its refusal stands);
// a key saved there is asked for after the caller was told which
// (issue 29: an unlock prompt at start for the model list, and for a
// Check of a model whose key was never saved).
func TestTryLockedKeyring(t *testing.T) {
	if os.Getenv(realChild) != "" {
		t.Skip("inside the real keyring's session")
	}
	const base = "http://model.test/v1"
	refused := errors.New("401")
	for _, c := range []struct {
		name        string
		saved       bool
		consent     bool
		wantLocked  bool // a *KeyNeededError wrapping ErrLocked, else the refusal
		wantPrompts int
		wantTold    bool
	}{
		{name: "no key saved", wantPrompts: 0},
		{name: "saved, the caller declines", saved: true, wantLocked: true, wantTold: true},
		{name: "saved, the caller consents", saved: true, consent: true, wantLocked: true, wantPrompts: 1, wantTold: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("XDG_CONFIG_HOME", t.TempDir()) // no key file
			saved := map[string]string{"http://another.test/v1": "sk-other"}
			if c.saved {
				saved[base] = secret
			}
			MockLocked(saved, nil)
			t.Cleanup(MockInit)
			var told []string
			err := Try(config.Model{BaseURL: base}, env(nil), func(Key) error { return refused },
				func(err error) bool { return err == refused },
				func(account string) bool { told = append(told, account); return c.consent })
			var need *KeyNeededError
			if got := errors.As(err, &need) && errors.Is(err, ErrLocked); got != c.wantLocked || !c.wantLocked && err != refused {
				t.Errorf("Try() = %v, want locked %v (else the refusal)", err, c.wantLocked)
			}
			if got := Prompts(); got != c.wantPrompts {
				t.Errorf("Try() asked the keyring to unlock %d times, want %d", got, c.wantPrompts)
			}
			if want := []string{base}; c.wantTold != slices.Equal(told, want) {
				t.Errorf("Try() told %q of the unlock, want told %v", told, c.wantTold)
			}
		})
	}
	MockLocked(nil, nil)
	t.Cleanup(MockInit)
	if k, err := Resolve(config.Model{BaseURL: base}, env(nil)); err != nil || k.Source != None || Prompts() != 0 {
		t.Errorf("Resolve() with no key in a locked keyring = %v, %v after %d unlock prompts, want no key and no prompt", k, err, Prompts())
	}
}
