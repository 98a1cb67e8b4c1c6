package policy

import (
	"strings"
	"testing"

	"deckhand/config"
	"deckhand/keys"
)

// TestEnvKeyringSecret: a secret the person granted a server in the form
// (allow_secrets) comes from the keyring, kept under that server's alias,
// or else from the environment; another server asking for the same name
// gets neither the value nor the environment's, without policy.secrets.keys;
// a granted secret kept nowhere says where to give it.
func TestEnvKeyringSecret(t *testing.T) {
	keys.MockInit()
	t.Cleanup(keys.MockInit)
	const value = "ghp-kept-9f2c41"
	if err := keys.StoreSecret("gh", "GH_TOKEN", value); err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{"ENV_ONLY": "from-env-77"}
	p := New(&config.Config{}, func(k string) (string, bool) { v, ok := vars[k]; return v, ok })
	granted := config.Server{Command: "srv", Secrets: []string{"GH_TOKEN"}, AllowSecrets: []string{"GH_TOKEN"}}

	env, err := p.Env("gh", granted, "", "")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(env, "\n"), "GH_TOKEN="+value) {
		t.Errorf("the granted server lacks its secret from the keyring")
	}

	// Another server naming the same variable, granted or not, gets nothing
	// of gh's.
	for _, other := range []config.Server{
		{Command: "srv", Secrets: []string{"GH_TOKEN"}},
		{Command: "srv", Secrets: []string{"GH_TOKEN"}, AllowSecrets: []string{"GH_TOKEN"}},
		{Command: "srv", Env: map[string]string{"X": "${GH_TOKEN}"}},
	} {
		env, err := p.Env("other", other, "", "")
		if err == nil || strings.Contains(strings.Join(env, "\n"), value) {
			t.Errorf("another server (%+v) got gh's secret: err %v", other, err)
		} else if err != nil && strings.Contains(err.Error(), value) {
			t.Errorf("the error holds the value: %v", err)
		}
	}

	// Granted and kept nowhere: where to give it.
	_, err = p.Env("other", config.Server{Command: "srv", Secrets: []string{"GH_TOKEN"}, AllowSecrets: []string{"GH_TOKEN"}}, "", "")
	if err == nil || !strings.Contains(err.Error(), "saved neither in the keyring nor in Deckhand's environment: give its value in the server's form") {
		t.Errorf("a granted secret kept nowhere: %v", err)
	}

	// Granted, in the environment only: passed on, though
	// policy.secrets.keys does not name it.
	env, err = p.Env("e", config.Server{Command: "srv", Secrets: []string{"ENV_ONLY"}, AllowSecrets: []string{"ENV_ONLY"}}, "", "")
	if err != nil || !strings.Contains(strings.Join(env, "\n"), "ENV_ONLY=from-env-77") {
		t.Errorf("a granted secret in the environment: %v", err)
	}

	// No keyring at all: a server that needs no secret starts as ever.
	keys.MockUnavailable()
	if _, err := p.Env("plain", config.Server{Command: "srv"}, "", ""); err != nil {
		t.Errorf("without a keyring, a server with no secret: %v", err)
	}
	if _, err := p.Env("gh", granted, "", ""); err == nil || !strings.Contains(err.Error(), "saved neither in the keyring") {
		t.Errorf("without a keyring, the granted secret: %v", err)
	}
}
