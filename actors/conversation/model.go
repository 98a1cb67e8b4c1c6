package conversation

import (
	"fmt"
	"os"
	"sync"

	"deckhand/config"
	"deckhand/keys"
	"deckhand/transport/llm"
)

// modelClient makes the model client from the config, reading the API key
// (model.api_key_env's variable, else the keyring: package keys) when a
// conversation first needs it, so that a missing key is an error in the
// conversation, not at start. The key is read once per config: a key saved
// or removed in the settings comes with a change of config.
//
// The keyring may take up to keys.Timeout to answer (an unlock prompt), so
// the client is made where waiting is harmless: on the stream actor's
// goroutine (stream.go), never in a conversation's Receive. resolve finds
// the key (nil: keys.Resolve).
func modelClient(m config.Model, lookup func(string) (string, bool), resolve KeyResolver) func() (*llm.Client, error) {
	if lookup == nil {
		lookup = os.LookupEnv
	}
	if resolve == nil {
		resolve = keys.Resolve
	}
	var mu sync.Mutex
	var key *keys.Key
	return func() (*llm.Client, error) {
		if !m.Configured() {
			return nil, ErrNoModel
		}
		mu.Lock()
		defer mu.Unlock()
		if key == nil {
			k, err := resolve(m, lookup)
			if err != nil && m.APIKeyEnv != "" {
				return nil, fmt.Errorf("reading the API key: %w", err)
			}
			// No key was asked for: a local model server needs none, and a
			// keyring that is locked or absent must not stop it. A server
			// that wants a key answers 401, which says so.
			if k.Source == keys.None && m.APIKeyEnv != "" {
				return nil, fmt.Errorf("model.api_key_env %s is not set in Deckhand's environment, and the keyring holds no key for %s", m.APIKeyEnv, keys.Account(m.BaseURL))
			}
			key = &k
		}
		from := key.String() + " for " + keys.Account(m.BaseURL)
		if key.Source == keys.Env {
			from = key.String()
		}
		return &llm.Client{Provider: m.Provider, BaseURL: m.BaseURL, Model: m.Name, Timeout: m.StreamTimeout, APIKey: key.Value(), KeyFrom: from, ToolResults: m.ToolResults}, nil
	}
}

// KeyResolver finds the model's API key: keys.Resolve, or a stand-in in
// tests. It may block (the keyring over D-Bus).
type KeyResolver func(m config.Model, lookupEnv func(string) (string, bool)) (keys.Key, error)
