package conversation

import (
	"context"
	"fmt"
	"os"
	"sync"
	"sync/atomic"

	"deckhand/config"
	"deckhand/keys"
	"deckhand/transport/llm"
)

// clientFunc makes the model client; cancelling ctx (Stop) gives up
// waiting for the key.
type clientFunc func(ctx context.Context) (*llm.Client, error)

// modelClient makes the model client from the config, reading the API key
// (model.api_key_env's variable, else the keyring: package keys) when a
// conversation first needs it, so that a missing key is an error in the
// conversation, not at start. The key is read once per config: a key saved
// or removed in the settings comes with a change of config.
//
// The keyring may take up to keys.Timeout to answer (an unlock prompt), so
// the key is read on a goroutine of its own the first time, and the run
// (never a conversation's Receive) waits for it or for ctx. A panic in the
// lookup (a bug) is the error. resolve finds the key (nil: keys.Resolve).
func modelClient(m config.Model, lookup func(string) (string, bool), resolve KeyResolver) clientFunc {
	if lookup == nil {
		lookup = os.LookupEnv
	}
	if resolve == nil {
		resolve = keys.Resolve
	}
	var mu sync.Mutex // held while the key is read, so that it is read once
	var key *keys.Key
	var known atomic.Pointer[keys.Key] // key, once read: no goroutine needed
	find := func() (k *keys.Key, err error) {
		mu.Lock()
		defer mu.Unlock()
		defer func() {
			if p := recover(); p != nil {
				err = fmt.Errorf("internal error in the model request: %v", p)
			}
		}()
		if key != nil {
			return key, nil
		}
		found, err := resolve(m, lookup)
		if err != nil && m.APIKeyEnv != "" {
			return nil, fmt.Errorf("reading the API key: %w", err)
		}
		// No key was asked for: a local model server needs none, and a
		// keyring that is locked or absent must not stop it. A server that
		// wants a key answers 401, which says so.
		if found.Source == keys.None && m.APIKeyEnv != "" {
			return nil, fmt.Errorf("model.api_key_env %s is not set in Deckhand's environment, and the keyring holds no key for %s", m.APIKeyEnv, keys.Account(m.BaseURL))
		}
		key = &found
		known.Store(key)
		return key, nil
	}
	return func(ctx context.Context) (*llm.Client, error) {
		if !m.Configured() {
			return nil, ErrNoModel
		}
		k := known.Load()
		if k == nil {
			type found struct {
				k   *keys.Key
				err error
			}
			ch := make(chan found, 1)
			go func() {
				k, err := find()
				ch <- found{k, err}
			}()
			select {
			case f := <-ch:
				if f.err != nil {
					return nil, f.err
				}
				k = f.k
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		from := k.String() + " for " + keys.Account(m.BaseURL)
		if k.Source == keys.Env {
			from = k.String()
		}
		return &llm.Client{Provider: m.Provider, BaseURL: m.BaseURL, Model: m.Name, Timeout: m.StreamTimeout, APIKey: k.Value(), KeyFrom: from, ToolResults: m.ToolResults}, nil
	}
}

// KeyResolver finds the model's API key: keys.Resolve, or a stand-in in
// tests. It may block (the keyring over D-Bus).
type KeyResolver func(m config.Model, lookupEnv func(string) (string, bool)) (keys.Key, error)
