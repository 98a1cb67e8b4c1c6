package keys

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/zalando/go-keyring"
)

// The log key signs the rows of Deckhand's log that decide what runs
// without asking (grants and pins) and chains its events (see the store
// package): 32 random bytes, one per install, made on first use. It is
// kept in the keyring; where no keyring runs (or it fails), in a file of
// Deckhand's data folder, readable by its owner only, which every sandbox
// hides. Once made, it is kept where it was made; a log is checked with
// the key it was signed with, found by its key id among the keyring's and
// the file's (a keyring locked once, when a key file was made, leaves
// two).

// LogKeyAccount is the keyring user the log key is kept under.
const LogKeyAccount = "log signing key"

// LogKeyFile is the key file's name in Deckhand's data folder.
const LogKeyFile = "log.key"

// logKeySize is the key's length in bytes (HMAC-SHA256's block-free
// recommendation: at least the hash's size).
const logKeySize = 32

// LogKeys are the log keys this install has, for the log to pick the one
// it was signed with (by its key id): the keyring's, then the key file's,
// each when there is one.
type LogKeys struct {
	Keys    [][]byte
	Sources []Source // where each of Keys is kept
	// Made: this call made the install's first key (its first open);
	// not when the keyring failed, which may hold one.
	Made bool
	// KeyringErr: the keyring did not answer or failed (locked, no
	// answer): a key kept there could not be read. Nil when it answered,
	// or when there is none.
	KeyringErr error
}

// FindLogKeys reads this install's log keys; when it has none, it makes
// one: in the keyring, else (no keyring, or one that fails) in the key
// file in dataDir, Deckhand's data folder.
func FindLogKeys(dataDir string) (LogKeys, error) {
	var found LogKeys
	file := filepath.Join(dataDir, LogKeyFile)
	key, err := getLogKey()
	switch {
	case err == nil:
		found.Keys, found.Sources = append(found.Keys, key), append(found.Sources, Keyring)
	case errors.Is(err, keyring.ErrNotFound), errors.Is(err, ErrUnavailable):
	case errors.Is(err, errNotLogKey):
		return found, fmt.Errorf("the keyring's %q entry of service %q is not a log key (64 hex digits): delete it for a new one (the log's grants and pins then count as not written by Deckhand)", LogKeyAccount, Service)
	default:
		found.KeyringErr = err
	}
	if key, ferr := readLogKey(file); ferr == nil {
		found.Keys, found.Sources = append(found.Keys, key), append(found.Sources, File)
	} else if !errors.Is(ferr, os.ErrNotExist) {
		return found, ferr
	}
	if len(found.Keys) > 0 {
		return found, nil
	}
	// Made only when no key can be anywhere: a keyring that did not
	// answer may hold one.
	found.Made = found.KeyringErr == nil
	if errors.Is(err, keyring.ErrNotFound) {
		key := make([]byte, logKeySize)
		rand.Read(key)
		if call(func() error { return keyring.Set(Service, LogKeyAccount, hex.EncodeToString(key)) }) == nil {
			// Two processes making it at once: the one the keyring kept.
			if again, gerr := getLogKey(); gerr == nil {
				key = again
			}
			found.Keys, found.Sources = [][]byte{key}, []Source{Keyring}
			return found, nil
		}
	}
	// No keyring, or one that fails: the key file.
	key, err = makeLogKey(file)
	if err != nil {
		return found, err
	}
	found.Keys, found.Sources = [][]byte{key}, []Source{File}
	return found, nil
}

var errNotLogKey = errors.New("not a log key")

func getLogKey() ([]byte, error) {
	var stored string
	if err := call(func() error {
		var err error
		stored, err = keyring.Get(Service, LogKeyAccount)
		return err
	}); err != nil {
		return nil, err
	}
	key, err := hex.DecodeString(strings.TrimSpace(stored))
	if err != nil || len(key) != logKeySize {
		return nil, errNotLogKey
	}
	return key, nil
}

// readLogKey reads the key file, refusing one others may read.
func readLogKey(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if st.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("the log's key file %s may be read by others (mode %v): chmod 600 it", path, st.Mode().Perm())
	}
	key, err := hex.DecodeString(strings.TrimSpace(string(data)))
	if err != nil || len(key) != logKeySize {
		return nil, fmt.Errorf("the log's key file %s does not hold a key (64 hex digits)", path)
	}
	return key, nil
}

// makeLogKey writes a new key file, whole (a hard link of a complete
// temporary file, which fails when the name exists): of two processes
// making it at once, the first one's stays and both use it.
func makeLogKey(path string) ([]byte, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("making the log's key file: %w", err)
	}
	key := make([]byte, logKeySize)
	rand.Read(key)
	tmp, err := os.CreateTemp(filepath.Dir(path), ".log-key-*")
	if err != nil {
		return nil, fmt.Errorf("making the log's key file: %w", err)
	}
	defer os.Remove(tmp.Name())
	_, werr := tmp.WriteString(hex.EncodeToString(key) + "\n")
	if err := errors.Join(werr, tmp.Chmod(0o600), tmp.Sync(), tmp.Close()); err != nil {
		return nil, fmt.Errorf("making the log's key file: %w", err)
	}
	if err := os.Link(tmp.Name(), path); errors.Is(err, os.ErrExist) {
		return readLogKey(path)
	} else if err != nil {
		return nil, fmt.Errorf("making the log's key file: %w", err)
	}
	return key, nil
}
