package keys

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The log key is made once and kept: in the keyring when one runs, else in
// a 0600 file of the data folder; both are found when both exist (a
// keyring that was locked once, when the file was made), the keyring's
// first; a key file others may read is refused.
func TestFindLogKeys(t *testing.T) {
	MockUnavailable()
	defer MockInit()
	dir := t.TempDir()
	k, err := FindLogKeys(dir)
	if err != nil || !k.Made || len(k.Keys) != 1 || len(k.Keys[0]) != 32 || !slices.Equal(k.Sources, []Source{File}) {
		t.Fatalf("FindLogKeys(no keyring) = %+v, %v; want a new 32-byte key in the file", k, err)
	}
	fileKey := k.Keys[0]
	st, err := os.Stat(filepath.Join(dir, LogKeyFile))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("the key file: %v, %v; want mode 0600", st, err)
	}
	if again, err := FindLogKeys(dir); err != nil || again.Made || len(again.Keys) != 1 || !bytes.Equal(again.Keys[0], fileKey) {
		t.Errorf("FindLogKeys() again = %+v, %v; want the same key", again, err)
	}
	MockInit()
	if k, err := FindLogKeys(dir); err != nil || k.Made || len(k.Keys) != 1 || !bytes.Equal(k.Keys[0], fileKey) {
		t.Errorf("FindLogKeys(keyring without a key, file) = %+v, %v; want the file's key, none made", k, err)
	}

	other := t.TempDir()
	k, err = FindLogKeys(other)
	if err != nil || !k.Made || !slices.Equal(k.Sources, []Source{Keyring}) || bytes.Equal(k.Keys[0], fileKey) {
		t.Fatalf("FindLogKeys(keyring) = %+v, %v; want a new key in the keyring", k.Sources, err)
	}
	ringKey := k.Keys[0]
	if _, err := os.Stat(filepath.Join(other, LogKeyFile)); err == nil {
		t.Errorf("a key file was written though the keyring kept the key")
	}
	if again, _ := FindLogKeys(other); again.Made || !bytes.Equal(again.Keys[0], ringKey) {
		t.Errorf("FindLogKeys(keyring) again: %+v", again.Sources)
	}
	if both, err := FindLogKeys(dir); err != nil || !slices.Equal(both.Sources, []Source{Keyring, File}) ||
		!bytes.Equal(both.Keys[0], ringKey) || !bytes.Equal(both.Keys[1], fileKey) {
		t.Errorf("FindLogKeys(keyring and file) = %+v, %v; want both, the keyring's first", both.Sources, err)
	}

	MockUnavailable()
	loose := t.TempDir()
	os.WriteFile(filepath.Join(loose, LogKeyFile), []byte(strings.Repeat("ab", 32)), 0o644)
	if _, err := FindLogKeys(loose); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Errorf("FindLogKeys(a key file others may read) = %v", err)
	}
}
