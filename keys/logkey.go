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
// hides. Once made, it is kept where it was made: a key file, once
// written, is used even when a keyring runs later.

// LogKeyAccount is the keyring user the log key is kept under.
const LogKeyAccount = "log signing key"

// LogKeyFile is the key file's name in Deckhand's data folder.
const LogKeyFile = "log.key"

// logKeySize is the key's length in bytes (HMAC-SHA256's block-free
// recommendation: at least the hash's size).
const logKeySize = 32

// LogKey is this install's log key, where it is kept (Keyring or File),
// and whether this call made it (the first of this install); dataDir is
// Deckhand's data folder.
func LogKey(dataDir string) ([]byte, Source, bool, error) {
	key, src, made, err := logKey(dataDir)
	if err != nil {
		return nil, None, false, err
	}
	return key, src, made, nil
}

func logKey(dataDir string) ([]byte, Source, bool, error) {
	file := filepath.Join(dataDir, LogKeyFile)
	var stored string
	err := call(func() error {
		var err error
		stored, err = keyring.Get(Service, LogKeyAccount)
		return err
	})
	switch {
	case err == nil:
		key, derr := hex.DecodeString(strings.TrimSpace(stored))
		if derr == nil && len(key) == logKeySize {
			return key, Keyring, false, nil
		}
		return nil, None, false, fmt.Errorf("the keyring's %q entry of service %q is not a log key (64 hex digits): delete it for a new one (the log's grants and pins then count as not written by Deckhand)", LogKeyAccount, Service)
	case errors.Is(err, keyring.ErrNotFound):
		if key, ferr := readLogKey(file); ferr == nil {
			return key, File, false, nil
		} else if !errors.Is(ferr, os.ErrNotExist) {
			return nil, None, false, ferr
		}
		key := make([]byte, logKeySize)
		rand.Read(key)
		serr := call(func() error { return keyring.Set(Service, LogKeyAccount, hex.EncodeToString(key)) })
		if serr == nil {
			// Two processes making it at once: the one the keyring kept.
			if again, gerr := getLogKey(); gerr == nil {
				return again, Keyring, true, nil
			}
			return key, Keyring, true, nil
		}
	}
	// No keyring, a locked one, or one that fails: the key file.
	key, err := readLogKey(file)
	made := false
	if errors.Is(err, os.ErrNotExist) {
		key, err = makeLogKey(file)
		made = err == nil
	}
	if err != nil {
		return nil, None, false, err
	}
	return key, File, made, nil
}

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
		return nil, errors.New("not a log key")
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
