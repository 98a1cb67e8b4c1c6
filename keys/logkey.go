package keys

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// The log key signs the rows of Deckhand's log that decide what runs
// without asking (grants and pins) and chains its events (see the store
// package): 32 random bytes, one per install, made on first use and kept
// in a file of Deckhand's data folder, readable by its owner only, which
// every sandbox hides (policy's own paths). Not in the keyring: a locked,
// absent or slow keyring would then hold up every command that opens the
// log, although the keyring guards the key no better here. Whoever could
// read the file (a program running unconfined as the person) could read
// an unlocked keyring's entry too, and a sandboxed one sees neither.

// LogKeyFile is the key file's name in Deckhand's data folder.
const LogKeyFile = "log.key"

// logKeySize is the key's length in bytes (HMAC-SHA256's block-free
// recommendation: at least the hash's size).
const logKeySize = 32

// LogKeys are the log keys this install has, for the log to pick the one
// it was signed with (by its key id).
type LogKeys struct {
	Keys    [][]byte
	Sources []Source // where each of Keys is kept
	// Made: this call made the install's first key (its first open).
	Made bool
}

// FindLogKeys reads this install's log key from the key file in dataDir,
// Deckhand's data folder; when there is none, it makes one.
func FindLogKeys(dataDir string) (LogKeys, error) {
	file := filepath.Join(dataDir, LogKeyFile)
	key, err := readLogKey(file)
	made := false
	if errors.Is(err, os.ErrNotExist) {
		key, made, err = makeLogKey(file)
	}
	if err != nil {
		return LogKeys{}, err
	}
	return LogKeys{Keys: [][]byte{key}, Sources: []Source{File}, Made: made}, nil
}

// readLogKey reads the key file, refusing one others may read.
func readLogKey(path string) ([]byte, error) {
	data, err := readPrivate(path, "the log's key file")
	if err != nil {
		return nil, err
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
func makeLogKey(path string) (key []byte, made bool, err error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, false, fmt.Errorf("making the log's key file: %w", err)
	}
	key = make([]byte, logKeySize)
	rand.Read(key)
	tmp, err := os.CreateTemp(filepath.Dir(path), ".log-key-*")
	if err != nil {
		return nil, false, fmt.Errorf("making the log's key file: %w", err)
	}
	defer os.Remove(tmp.Name())
	_, werr := tmp.WriteString(hex.EncodeToString(key) + "\n")
	if err := errors.Join(werr, tmp.Chmod(0o600), tmp.Sync(), tmp.Close()); err != nil {
		return nil, false, fmt.Errorf("making the log's key file: %w", err)
	}
	if err := os.Link(tmp.Name(), path); errors.Is(err, os.ErrExist) {
		key, err = readLogKey(path)
		return key, false, err
	} else if err != nil {
		return nil, false, fmt.Errorf("making the log's key file: %w", err)
	}
	return key, true, nil
}
