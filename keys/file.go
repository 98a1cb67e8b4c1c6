package keys

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/zalando/go-keyring"
)

// The key file is where keys are kept when no keyring runs and the person
// chose it, having been told it is less safe: a JSON object of base URL to
// key, in Deckhand's config folder, readable by its owner only. Any program
// running as the person can read it; a keyring cannot be read that way.

// FileName is the key file's name in the config folder.
const FileName = "api-keys.json"

// FilePath is where the key file is: dir, or the user's config folder's
// deckhand/ when dir is "".
func FilePath(dir string) (string, error) {
	if dir == "" {
		base, err := os.UserConfigDir()
		if err != nil {
			return "", err
		}
		dir = filepath.Join(base, "deckhand")
	}
	return filepath.Join(dir, FileName), nil
}

// readFile reads the key file: empty when there is none; an error when it
// may be read by others (its keys are then not trusted to be secret, and
// the person is told how to fix it).
func readFile(path string) (map[string]string, error) {
	data, err := readPrivate(path, "the key file")
	if errors.Is(err, os.ErrNotExist) {
		return map[string]string{}, nil
	}
	if err != nil {
		return nil, err
	}
	keys := map[string]string{}
	if err := json.Unmarshal(data, &keys); err != nil {
		return nil, fmt.Errorf("the key file %s is not a JSON object of keys: %v", path, err)
	}
	return keys, nil
}

// GetFile reads the key file's key for the model at baseURL
// (keyring.ErrNotFound when it has none).
func GetFile(path, baseURL string) (string, error) {
	keys, err := readFile(path)
	if err != nil {
		return "", err
	}
	if v := keys[Account(baseURL)]; v != "" {
		return v, nil
	}
	return "", keyring.ErrNotFound
}

// StoreFile keeps key for the model at baseURL in the key file (made 0600,
// written whole or not at all).
func StoreFile(path, baseURL, key string) error {
	keys, err := readFile(path)
	if err != nil {
		return err
	}
	keys[Account(baseURL)] = key
	return writeFile(path, keys)
}

// RemoveFile takes the key for the model at baseURL out of the key file.
func RemoveFile(path, baseURL string) error {
	keys, err := readFile(path)
	if err != nil {
		return err
	}
	if _, ok := keys[Account(baseURL)]; !ok {
		return nil
	}
	delete(keys, Account(baseURL))
	return writeFile(path, keys)
}

func writeFile(path string, keys map[string]string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	data, _ := json.MarshalIndent(keys, "", "  ")
	tmp, err := os.CreateTemp(filepath.Dir(path), ".api-keys-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// readPrivate reads a file that holds secrets, refusing one others may
// read: what is called what in the error.
func readPrivate(path, what string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if st.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("%s %s may be read by others (mode %v): chmod 600 it", what, path, st.Mode().Perm())
	}
	return data, nil
}
