package keys

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The log key is made once and kept in a 0600 file of the data folder,
// whether or not a keyring runs (a locked one never holds up the log); a
// key file others may read is refused.
func TestFindLogKeys(t *testing.T) {
	for _, keyring := range []struct {
		name string
		mock func()
	}{{"no keyring", MockUnavailable}, {"keyring", MockInit}} {
		t.Run(keyring.name, func(t *testing.T) {
			keyring.mock()
			defer MockInit()
			dir := t.TempDir()
			k, err := FindLogKeys(dir)
			if err != nil || !k.Made || len(k.Keys) != 1 || len(k.Keys[0]) != 32 || !slices.Equal(k.Sources, []Source{File}) {
				t.Fatalf("FindLogKeys() = %+v, %v; want a new 32-byte key in the file", k, err)
			}
			st, err := os.Stat(filepath.Join(dir, LogKeyFile))
			if err != nil || st.Mode().Perm() != 0o600 {
				t.Fatalf("the key file: %v, %v; want mode 0600", st, err)
			}
			if again, err := FindLogKeys(dir); err != nil || again.Made || len(again.Keys) != 1 || !bytes.Equal(again.Keys[0], k.Keys[0]) {
				t.Errorf("FindLogKeys() again = %+v, %v; want the same key, none made", again, err)
			}
			if other, _ := FindLogKeys(t.TempDir()); bytes.Equal(other.Keys[0], k.Keys[0]) {
				t.Errorf("two installs got the same key")
			}
		})
	}
	loose := t.TempDir()
	os.WriteFile(filepath.Join(loose, LogKeyFile), []byte(strings.Repeat("ab", 32)), 0o644)
	if _, err := FindLogKeys(loose); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Errorf("FindLogKeys(a key file others may read) = %v", err)
	}
	short := t.TempDir()
	os.WriteFile(filepath.Join(short, LogKeyFile), []byte("abcd"), 0o600)
	if _, err := FindLogKeys(short); err == nil || !strings.Contains(err.Error(), "does not hold a key") {
		t.Errorf("FindLogKeys(a key file without a key) = %v", err)
	}
}
