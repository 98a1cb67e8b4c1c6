package keys

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"deckhand/config"
)

// Try runs do with the key the model's server needs, asking the keyring
// only when it must: with the key in the environment variable m.APIKeyEnv
// when that is set; else first with no key, and only when the server
// refuses that (refused, such as a 401 or 403) with the key Resolve finds
// in the keyring or the key file. A keyring that is locked, absent or
// slow so never holds up a server that needs no key (one on this
// computer), and an unlock prompt comes only when a key is needed.
//
// A key saved in a locked keyring is read only with unlocking's consent
// (nil: always): it is told the key's account first, since the keyring's
// unlock prompt comes next and the window says why; false leaves the
// keyring locked, with no prompt, and the error a *KeyNeededError wrapping
// ErrLocked (a list of models asked at start is not worth a prompt).
//
// When the server refused and the keyring could not give the key, the
// error is a *KeyNeededError that says which key, wrapping the keyring's
// (ErrLocked, ErrUnavailable, a timeout). When no key is kept anywhere,
// it is the server's refusal.
func Try(m config.Model, lookupEnv func(string) (string, bool), do func(Key) error, refused func(error) bool, unlocking func(account string) bool) error {
	if lookupEnv == nil {
		lookupEnv = os.LookupEnv
	}
	if m.APIKeyEnv != "" {
		if v, ok := lookupEnv(m.APIKeyEnv); ok && strings.TrimSpace(v) != "" {
			return do(Key{value: strings.TrimSpace(v), Source: Env, Env: m.APIKeyEnv})
		}
	}
	err := do(Key{})
	if err == nil || !refused(err) {
		return err
	}
	if unlocking != nil {
		if saved, locked, serr := Saved(m.BaseURL); serr == nil && saved && locked && !unlocking(Account(m.BaseURL)) {
			return &KeyNeededError{Account: Account(m.BaseURL), Err: ErrLocked}
		}
	}
	k, kerr := Resolve(m, lookupEnv)
	if kerr != nil {
		return &KeyNeededError{Account: Account(m.BaseURL), Err: kerr}
	}
	if k.Source == None {
		return err
	}
	return do(k)
}

// KeyNeededError is a server that asks for a key the keyring could not
// give.
type KeyNeededError struct {
	Account string // the model's base URL, the key's name in the keyring
	Status  int    // the server's refusal (401, 403), when known
	Err     error  // the keyring's failure
}

func (e *KeyNeededError) Error() string {
	refused := "the model at " + e.Account + " refused the request without a key"
	if e.Status != 0 {
		refused += fmt.Sprintf(" (%d)", e.Status)
	}
	if errors.Is(e.Err, ErrLocked) {
		return refused + "; its key is kept in the keyring, which is locked: unlock it (in Passwords and Keys, or by logging in again) and try again, or set an environment variable under Advanced instead"
	}
	return refused + ", and its key could not be read: " + e.Err.Error()
}

func (e *KeyNeededError) Unwrap() error { return e.Err }
