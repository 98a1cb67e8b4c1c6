// Package keys finds the model's API key: in the environment variable the
// config names (model.api_key_env, kept for scripts), else in the desktop's
// keyring (the Secret Service: GNOME Keyring, KWallet, KeePassXC), where
// the settings window keeps a key a person types. The window and
// `deckhand chat` both resolve the key here, in that order. It also keeps
// the OAuth tokens of MCP servers (Tokens) and the key that signs the log
// (FindLogKeys).
//
// A key is a secret: it is never logged, written to the event log, put in
// an error or passed to a child process. A [Key]'s String, GoString and
// LogValue do not show it; only [Key.Value] does, for the Authorization
// header.
//
// Concurrency: every function is safe for concurrent use. Keyring calls run
// one at a time (one unlock prompt at most) and each gives up after Timeout,
// so a caller waits no longer than that, though the keyring may; a caller
// that must not wait at all (an actor's Receive) runs them on a goroutine of
// its own. The key file is written whole (a rename), so a reader never sees
// half of it; of two writers at once, the last one's file stays. MockInit,
// MockLocked and MockUnavailable switch the whole process, for tests.
package keys

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/godbus/dbus/v5"
	"github.com/zalando/go-keyring"

	"deckhand/config"
)

// Service is the keyring's service name for Deckhand's keys; the user is
// the model's base URL (see [Account]).
const Service = "deckhand"

// Timeout bounds one keyring call: a locked keyring may ask the person to
// unlock it, and nobody may be there to answer.
const Timeout = 15 * time.Second

// Source says where a key was found.
type Source int

const (
	None    Source = iota // no key: fine for local model servers
	Env                   // the environment variable model.api_key_env names
	Keyring               // the keyring
	File                  // the key file (no keyring ran; the person chose it)
)

// Key is a resolved API key. It prints as where it came from, never as
// itself.
type Key struct {
	value  string
	Source Source
	Env    string // the variable, when Source is Env
}

// Value is the key itself, for the request's Authorization header.
func (k Key) Value() string { return k.value }

// String says where the key came from.
func (k Key) String() string {
	switch k.Source {
	case Env:
		return "the key in $" + k.Env
	case Keyring:
		return "the key in the keyring"
	case File:
		return "the key in the key file (" + FileName + ")"
	}
	return "no key"
}

func (k Key) GoString() string             { return "keys.Key{" + k.String() + "}" }
func (k Key) LogValue() slog.Value         { return slog.StringValue(k.String()) }
func (k Key) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// ErrUnavailable is returned when no Secret Service can be reached. Its
// text says what to do instead.
var ErrUnavailable = errors.New("no keyring available: set an environment variable instead")

// ErrLocked is returned when the keyring is locked and was not unlocked
// (nobody answered its prompt, or there is no prompter).
var ErrLocked = errors.New("the keyring is locked and was not unlocked: unlock it (in Passwords and Keys, or by logging in again) and try again, or set an environment variable under Advanced instead")

// ErrNoCollection is returned when the keyring runs but has no keyring
// (collection) to keep keys in: the login one is missing, as in a fresh
// account whose keyring was never given a password.
var ErrNoCollection = errors.New("the keyring has no login keyring to keep keys in: create one named Login in Passwords and Keys (Seahorse), or set an environment variable under Advanced instead")

// Unavailable explains ErrUnavailable to a person: how to give Deckhand the
// key through the environment instead.
const Unavailable = "No keyring available (no Secret Service such as GNOME Keyring or KWallet is running), so a typed key cannot be kept. " +
	"Set an environment variable instead: put a line such as OPENAI_API_KEY=sk-… in ~/.config/environment.d/deckhand.conf " +
	"(or export it in ~/.profile), log out and back in, and enter OPENAI_API_KEY as the API key variable under Advanced."

// Account is the keyring user a model's key is kept under: its base URL,
// without a trailing slash, so that each provider has its own key.
func Account(baseURL string) string {
	return strings.TrimRight(strings.TrimSpace(baseURL), "/")
}

// Resolve finds the key for m: the variable m.APIKeyEnv names, if it is set
// and not empty; else the keyring's key for m.BaseURL. No key at all is
// not an error (local servers need none), and neither is a missing
// keyring; a keyring that fails (or does not answer) is.
func Resolve(m config.Model, lookupEnv func(string) (string, bool)) (Key, error) {
	if lookupEnv == nil {
		lookupEnv = os.LookupEnv
	}
	if m.APIKeyEnv != "" {
		if v, ok := lookupEnv(m.APIKeyEnv); ok && strings.TrimSpace(v) != "" {
			return Key{value: strings.TrimSpace(v), Source: Env, Env: m.APIKeyEnv}, nil
		}
	}
	v, err := getSaved(m.BaseURL)
	switch {
	case err == nil && v != "":
		return Key{value: v, Source: Keyring}, nil
	case err == nil, errors.Is(err, keyring.ErrNotFound), errors.Is(err, ErrUnavailable):
		// No keyring key: the key file, where the person chose to keep one.
		path, perr := FilePath("")
		if perr != nil {
			return Key{}, nil
		}
		v, ferr := GetFile(path, m.BaseURL)
		switch {
		case ferr == nil:
			return Key{value: v, Source: File}, nil
		case errors.Is(ferr, keyring.ErrNotFound):
			return Key{}, nil
		}
		return Key{}, ferr
	}
	return Key{}, err
}

// Get reads the keyring's key for the model at baseURL: "" with
// keyring.ErrNotFound when there is none, ErrUnavailable without a keyring.
func Get(baseURL string) (string, error) {
	return getAccount(Account(baseURL))
}

// getAccount reads the keyring's value for account.
func getAccount(account string) (string, error) {
	if account == "" {
		return "", keyring.ErrNotFound
	}
	var v string
	err := call(func() error {
		var err error
		v, err = keyring.Get(Service, account)
		return err
	})
	return strings.TrimSpace(v), err
}

// getSaved is Get for a key that may not be there: the keyring is
// searched first (a locked one as it is, see Saved), and read only when it
// holds a key for baseURL. go-keyring's Get unlocks the keyring before it
// searches, so a locked keyring put up its unlock prompt for a model whose
// key was never saved (issue 29: Settings ▸ Check of a server that
// refuses without a key). A search that fails leaves Get to say why.
func getSaved(baseURL string) (string, error) {
	if saved, _, err := Saved(baseURL); err == nil && !saved {
		return "", keyring.ErrNotFound
	}
	return Get(baseURL)
}

// Available reports whether a keyring can be used: nil, ErrUnavailable, or
// the keyring's failure.
func Available() error {
	err := call(func() error {
		_, err := keyring.Get(Service, "deckhand: is there a keyring?")
		return err
	})
	if errors.Is(err, keyring.ErrNotFound) {
		return nil
	}
	return err
}

// Store keeps key in the keyring for the model at baseURL, replacing the
// one there.
func Store(baseURL, key string) error {
	account := Account(baseURL)
	key = strings.TrimSpace(key)
	switch {
	case account == "":
		return errors.New("give the model URL first: the key is kept for it")
	case key == "":
		return errors.New("the key is empty")
	case strings.ContainsAny(key, "\r\n"):
		return errors.New("the key is more than one line: paste the key alone")
	}
	err := call(func() error { return keyring.Set(Service, account, key) })
	if errors.Is(err, ErrLocked) {
		// go-keyring says the same when there is no keyring to unlock:
		// say which.
		if _, _, serr := Saved(""); errors.Is(serr, ErrNoCollection) {
			return ErrNoCollection
		}
	}
	return err
}

// Remove deletes the keyring's key for the model at baseURL. No key there
// is not an error.
func Remove(baseURL string) error {
	account := Account(baseURL)
	if account == "" {
		return nil
	}
	err := call(func() error { return keyring.Delete(Service, account) })
	if errors.Is(err, keyring.ErrNotFound) {
		return nil
	}
	return err
}

// mock is set by MockInit and MockUnavailable: the keyring is go-keyring's
// in-memory mock (or none at all), whatever the session offers.
var mock atomic.Int32

const (
	mockNone = iota
	mockMemory
	mockUnavailable
	mockLocked
)

// lockedRing is MockLocked's keyring: whether it was unlocked, the
// prompt's answer, and how many times it was asked to unlock.
var lockedRing struct {
	sync.Mutex
	unlocked bool
	prompt   func() bool
	prompts  int
}

// MockLocked makes the keyring a locked one for the rest of the process,
// for tests: go-keyring's in-memory mock holding saved (base URL to key),
// found by a search (see Saved) without unlocking it. Every read or write
// while it is locked asks to unlock it: prompt answers, on the keyring
// call's goroutine, as the person at the keyring's prompt would (true
// unlocks it; false or a nil prompt is the prompt dismissed, ErrLocked).
// Prompts counts those asks.
func MockLocked(saved map[string]string, prompt func() bool) {
	serial.Lock() // as MockInit
	defer serial.Unlock()
	keyring.MockInit()
	for b, k := range saved {
		keyring.Set(Service, Account(b), k)
	}
	lockedRing.Lock()
	defer lockedRing.Unlock()
	lockedRing.unlocked, lockedRing.prompt, lockedRing.prompts = false, prompt, 0
	mock.Store(mockLocked)
}

// Prompts is how many times MockLocked's keyring was asked to unlock.
func Prompts() int {
	lockedRing.Lock()
	defer lockedRing.Unlock()
	return lockedRing.prompts
}

// mockUnlock is MockLocked's keyring asked to unlock, when it is locked.
func mockUnlock() error {
	lockedRing.Lock()
	if lockedRing.unlocked {
		lockedRing.Unlock()
		return nil
	}
	lockedRing.prompts++
	prompt := lockedRing.prompt
	lockedRing.Unlock()
	if prompt == nil || !prompt() {
		return ErrLocked
	}
	lockedRing.Lock()
	lockedRing.unlocked = true
	lockedRing.Unlock()
	return nil
}

// MockInit keeps keys in memory for the rest of the process, for tests
// (go-keyring's MockInit).
func MockInit() {
	// The keyring is swapped between operations: one started earlier may
	// still run (an earlier test's window reading a key on a goroutine of
	// its own), and go-keyring's provider is a variable it reads unguarded.
	serial.Lock()
	defer serial.Unlock()
	keyring.MockInit()
	mock.Store(mockMemory)
}

// MockUnavailable makes the rest of the process behave as if no Secret
// Service ran, for tests.
func MockUnavailable() { mock.Store(mockUnavailable) }

// serial orders the keyring operations.
var serial sync.Mutex

// call runs one keyring operation within Timeout, after checking that a
// session bus exists (without one, godbus would try to start a bus of its
// own with dbus-launch).
func call(op func() error) error {
	switch mock.Load() {
	case mockUnavailable:
		return ErrUnavailable
	case mockLocked:
		inner := op
		op = func() error {
			if err := mockUnlock(); err != nil {
				return err
			}
			return inner()
		}
	case mockNone:
		if !sessionBus() {
			return ErrUnavailable
		}
	}
	done := make(chan error, 1)
	go func() {
		// One at a time: go-keyring's mock is not safe for concurrent
		// use, and two unlock prompts at once help nobody.
		serial.Lock()
		defer serial.Unlock()
		done <- op()
	}()
	t := time.NewTimer(Timeout)
	defer t.Stop()
	select {
	case err := <-done:
		return explain(err)
	case <-t.C:
		return fmt.Errorf("the keyring did not answer within %s: if it asked to be unlocked, unlock it and try again", Timeout)
	}
}

// sessionBus reports whether a D-Bus session bus can be found without
// starting one.
func sessionBus() bool {
	if os.Getenv("DBUS_SESSION_BUS_ADDRESS") != "" {
		return true
	}
	if dir := os.Getenv("XDG_RUNTIME_DIR"); dir != "" {
		if _, err := os.Stat(filepath.Join(dir, "bus")); err == nil {
			return true
		}
	}
	return false
}

// explain turns the D-Bus errors that mean "no Secret Service" into
// ErrUnavailable, and says "the keyring" in the others. (Neither kind holds
// the key: it travels only in the call's arguments.)
func explain(err error) error {
	if err == nil || errors.Is(err, keyring.ErrNotFound) {
		return err
	}
	var de dbus.Error
	if errors.As(err, &de) {
		switch de.Name {
		case "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner",
			"org.freedesktop.DBus.Error.Spawn.ServiceNotFound", "org.freedesktop.DBus.Error.Spawn.ExecFailed":
			return ErrUnavailable
		}
	}
	if noCollection(err) {
		return ErrNoCollection
	}
	if strings.Contains(err.Error(), "unlock") {
		return ErrLocked
	}
	if strings.Contains(err.Error(), "dbus") && strings.Contains(err.Error(), "connect") {
		return ErrUnavailable
	}
	return fmt.Errorf("the keyring: %w", err)
}

// noCollection reports whether err says the keyring has no collection to
// keep keys in: gnome-keyring answers a property of the missing login
// collection with "Object does not exist at path
// “/org/freedesktop/secrets/collection/login”" (UnknownMethod).
func noCollection(err error) bool {
	var de dbus.Error
	return errors.As(err, &de) && (de.Name == "org.freedesktop.DBus.Error.UnknownMethod" || de.Name == "org.freedesktop.DBus.Error.UnknownObject") &&
		strings.Contains(err.Error(), "/org/freedesktop/secrets/collection/")
}
