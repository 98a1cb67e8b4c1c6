package keys

import (
	"errors"
	"testing"

	"github.com/zalando/go-keyring"
)

// TestServerSecrets: a server's secret is kept under its alias and name:
// read back by that server, not by another asking for the same name, and
// gone once removed.
func TestServerSecrets(t *testing.T) {
	MockInit()
	t.Cleanup(MockInit)
	if err := StoreSecret("gh", "GITHUB_TOKEN", "ghp-one\nghp-two"); err == nil {
		t.Fatal("a value of two lines was kept")
	}
	if err := StoreSecret("gh", "GITHUB_TOKEN", " ghp-secret-1 "); err != nil {
		t.Fatal(err)
	}
	if v, err := ServerSecret("gh", "GITHUB_TOKEN"); err != nil || v != "ghp-secret-1" {
		t.Errorf("ServerSecret(gh) = %q, %v", v, err)
	}
	if v, err := ServerSecret("other", "GITHUB_TOKEN"); !errors.Is(err, keyring.ErrNotFound) || v != "" {
		t.Errorf("ServerSecret(other) = %q, %v, want keyring.ErrNotFound", v, err)
	}
	if saved, _, err := SecretSaved("gh", "GITHUB_TOKEN"); !saved || err != nil {
		t.Errorf("SecretSaved(gh) = %v, %v", saved, err)
	}
	if err := RemoveSecret("gh", "GITHUB_TOKEN"); err != nil {
		t.Fatal(err)
	}
	if err := RemoveSecret("gh", "GITHUB_TOKEN"); err != nil {
		t.Errorf("removing it again: %v", err)
	}
	if _, err := ServerSecret("gh", "GITHUB_TOKEN"); !errors.Is(err, keyring.ErrNotFound) {
		t.Errorf("after RemoveSecret: %v", err)
	}
}

// TestServerSecretsLockedOrAbsent: without a keyring a secret cannot be
// kept, and says so; a locked keyring is asked to unlock only for a
// secret it holds.
func TestServerSecretsLockedOrAbsent(t *testing.T) {
	MockUnavailable()
	t.Cleanup(MockInit)
	if err := StoreSecret("gh", "T", "v"); !errors.Is(err, ErrUnavailable) {
		t.Errorf("StoreSecret without a keyring: %v", err)
	}
	MockLocked(map[string]string{SecretAccount("kept", "T"): "v"}, func() bool { return false })
	if _, err := ServerSecret("gh", "T"); !errors.Is(err, keyring.ErrNotFound) || Prompts() != 0 {
		t.Errorf("a secret not kept: %v, %d prompts", err, Prompts())
	}
	// The form's question: searched as it is, never asked to unlock.
	if saved, locked, err := SecretSaved("kept", "T"); !saved || !locked || err != nil || Prompts() != 0 {
		t.Errorf("SecretSaved in a locked keyring = %v, %v, %v; %d prompts", saved, locked, err, Prompts())
	}
	if _, err := ServerSecret("kept", "T"); !errors.Is(err, ErrLocked) || Prompts() != 1 {
		t.Errorf("reading a kept secret, the unlock dismissed: %v, %d prompts", err, Prompts())
	}
}
