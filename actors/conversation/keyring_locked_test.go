package conversation

import (
	"errors"
	"testing"

	"github.com/zalando/go-keyring"

	"deckhand/config"
	"deckhand/keys"
)

// A keyring that fails (locked, as on a desktop whose login did not unlock
// it) does not stop a model that needs no key: only a key that was asked
// for (api_key_env) makes its failure an error.
func TestLockedKeyringDoesNotStopAKeylessModel(t *testing.T) {
	keys.MockInit()
	keyring.MockInitWithError(errors.New("failed to unlock correct collection '/org/freedesktop/secrets/aliases/default'"))
	t.Cleanup(keys.MockInit)
	m := config.Model{BaseURL: "http://127.0.0.1:9/v1", Name: "local"}
	c, err := modelClient(m, func(string) (string, bool) { return "", false }, nil)(t.Context())
	if err != nil {
		t.Fatalf("a keyless model failed on the keyring: %v", err)
	}
	if c.APIKey != "" {
		t.Errorf("API key %q", c.APIKey)
	}
	m.APIKeyEnv = "DECKHAND_NO_SUCH_KEY"
	if _, err := modelClient(m, func(string) (string, bool) { return "", false }, nil)(t.Context()); err == nil {
		t.Error("a key that was asked for and cannot be read is not an error")
	}
}
