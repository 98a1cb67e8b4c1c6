package keys

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The log key is made once and kept: in the keyring when one runs, else in
// a 0600 file of the data folder; a key file, once made, is used even when
// a keyring runs later; a key file others may read is refused.
func TestLogKey(t *testing.T) {
	MockUnavailable()
	defer MockInit()
	dir := t.TempDir()
	key, src, made, err := LogKey(dir)
	if err != nil || src != File || !made || len(key) != 32 {
		t.Fatalf("LogKey(no keyring) = %x, %v, made %v, %v; want a new 32-byte key in the file", key, src, made, err)
	}
	st, err := os.Stat(filepath.Join(dir, LogKeyFile))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("the key file: %v, %v; want mode 0600", st, err)
	}
	again, _, made, err := LogKey(dir)
	if err != nil || made || !bytes.Equal(again, key) {
		t.Errorf("LogKey() again = %x, made %v, %v; want the same key", again, made, err)
	}
	MockInit()
	fromFile, src, _, err := LogKey(dir)
	if err != nil || src != File || !bytes.Equal(fromFile, key) {
		t.Errorf("LogKey(keyring, file exists) = %v, %v; want the file's key", src, err)
	}

	other := t.TempDir()
	inRing, src, made, err := LogKey(other)
	if err != nil || src != Keyring || !made || bytes.Equal(inRing, key) {
		t.Fatalf("LogKey(keyring) = %v, made %v, %v; want a new key in the keyring", src, made, err)
	}
	if _, err := os.Stat(filepath.Join(other, LogKeyFile)); err == nil {
		t.Errorf("a key file was written though the keyring kept the key")
	}
	if again, _, made, _ := LogKey(other); made || !bytes.Equal(again, inRing) {
		t.Errorf("LogKey(keyring) again: made %v, same %v", made, bytes.Equal(again, inRing))
	}

	MockUnavailable()
	loose := t.TempDir()
	os.WriteFile(filepath.Join(loose, LogKeyFile), []byte(strings.Repeat("ab", 32)), 0o644)
	if _, _, _, err := LogKey(loose); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Errorf("LogKey(a key file others may read) = %v", err)
	}
}
