package conversation

import (
	"errors"
	"strings"
	"testing"

	"deckhand/config"
	"deckhand/keys"
	"deckhand/testutil"
	"deckhand/transport/llm"
)

// The model's key is asked of the keyring only when the model refuses a
// request without one: a model that needs no key is never held up by a
// keyring that is locked (the resolver, which would prompt, is not
// called); one that needs a key gets it once, and it joins the secrets;
// a locked keyring then is an error that says which key and what to do.
func TestModelAccess(t *testing.T) {
	const secret = "sk-kept-5e1c9a"
	for _, c := range []struct {
		name     string
		key      string            // the key the server requires ("" none)
		env      map[string]string // Deckhand's environment
		keyEnv   string            // model.api_key_env
		found    error             // the keyring's failure, else it gives secret
		wantSent []string          // the bearer tokens of the requests that were answered, over two tries
		wantAsks int               // keyring reads
		wantErr  string
	}{
		{name: "keyless model, locked keyring", found: keys.ErrLocked, wantSent: []string{"", ""}},
		{name: "keyed model, the keyring's key, read once", key: secret, wantSent: []string{secret, secret}, wantAsks: 1},
		{name: "the variable's key, no keyring", key: "sk-env", keyEnv: "K", env: map[string]string{"K": "sk-env"}, found: keys.ErrLocked, wantSent: []string{"sk-env", "sk-env"}},
		{name: "keyed model, locked keyring", key: secret, found: keys.ErrLocked, wantAsks: 2,
			wantErr: "refused the request without a key (401); its key is kept in the keyring, which is locked: unlock it"},
		{name: "keyed model, unset variable, no key kept", key: secret, keyEnv: "K", found: errNoKey, wantAsks: 2,
			wantErr: "$K is not set in Deckhand's environment, and the keyring holds no key for"},
	} {
		t.Run(c.name, func(t *testing.T) {
			model := testutil.NewModelServer(t)
			model.Fallback = func(map[string]any) testutil.ModelResponse {
				return testutil.ModelResponse{Body: testutil.TextChunks("hi")}
			}
			if c.key != "" {
				model.RequireKey(c.key)
			}
			keys.MockInit()
			t.Setenv("XDG_CONFIG_HOME", t.TempDir()) // no key file
			if err := keys.Store(model.URL, secret); err != nil {
				t.Fatal(err)
			}
			asks := 0
			resolve := func(m config.Model, env func(string) (string, bool)) (keys.Key, error) {
				asks++
				switch {
				case c.found == errNoKey:
					return keys.Key{}, nil
				case c.found != nil:
					return keys.Key{}, c.found
				}
				return keys.Resolve(m, env) // the mock keyring, holding secret
			}
			var read []string
			m := config.Model{BaseURL: model.URL, Name: "m", APIKeyEnv: c.keyEnv}
			a := modelClient(m, func(k string) (string, bool) { v, ok := c.env[k]; return v, ok }, resolve, func(k keys.Key) { read = append(read, k.Value()) })
			var err error
			for range 2 {
				err = a.try(t.Context(), func(cl *llm.Client) error {
					s, err := cl.Stream(t.Context(), &llm.Request{Messages: []llm.Message{{Role: "user", Content: "hello"}}})
					if err == nil {
						s.Close()
					}
					return err
				}, nil)
			}
			var sent []string
			for _, h := range model.Headers() {
				sent = append(sent, strings.TrimPrefix(h.Get("Authorization"), "Bearer "))
			}
			if strings.Join(sent, ",") != strings.Join(c.wantSent, ",") {
				t.Errorf("keys sent = %q, want %q", sent, c.wantSent)
			}
			if asks != c.wantAsks {
				t.Errorf("the keyring was asked %d times, want %d", asks, c.wantAsks)
			}
			switch {
			case c.wantErr == "" && err != nil:
				t.Errorf("try() = %v", err)
			case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
				t.Errorf("try() = %v, want %q", err, c.wantErr)
			case err != nil && strings.Contains(err.Error(), secret):
				t.Errorf("the error shows the key: %v", err)
			}
			if c.wantAsks > 0 && c.found == nil && strings.Join(read, ",") != secret {
				t.Errorf("keys read into the secrets = %q, want the keyring's once", read)
			}
		})
	}
}

// errNoKey marks a keyring that holds no key for the model.
var errNoKey = errors.New("no key kept")

// A run whose model wants the key saved in a locked keyring says why the
// keyring's unlock prompt comes, before it comes; a keyring that holds no
// key for the model is not asked to unlock at all, and nothing is said.
// (Issue 29: after Send, the chat showed only "working…" while the
// prompt waited.)
func TestModelAccessSaysWhyTheKeyringAsks(t *testing.T) {
	const secret = "sk-kept-77a0"
	for _, c := range []struct {
		name        string
		saved       bool
		wantTold    bool
		wantPrompts int
	}{
		{name: "key saved, keyring locked", saved: true, wantTold: true, wantPrompts: 1},
		{name: "no key saved, keyring locked"},
	} {
		t.Run(c.name, func(t *testing.T) {
			model := testutil.NewModelServer(t)
			model.Fallback = func(map[string]any) testutil.ModelResponse {
				return testutil.ModelResponse{Body: testutil.TextChunks("hi")}
			}
			model.RequireKey(secret)
			t.Setenv("XDG_CONFIG_HOME", t.TempDir()) // no key file
			saved := map[string]string{}
			if c.saved {
				saved[model.URL] = secret
			}
			keys.MockLocked(saved, func() bool { return true })
			t.Cleanup(keys.MockInit)
			a := modelClient(config.Model{BaseURL: model.URL, Name: "m"}, func(string) (string, bool) { return "", false }, nil, nil)
			var told []string
			err := a.try(t.Context(), func(cl *llm.Client) error {
				s, err := cl.Stream(t.Context(), &llm.Request{Messages: []llm.Message{{Role: "user", Content: "hello"}}})
				if err == nil {
					s.Close()
				}
				return err
			}, func(account string) { told = append(told, account) })
			if (err == nil) != c.saved {
				t.Errorf("try() = %v, want it to succeed only with the key saved", err)
			}
			if got := len(told) == 1 && told[0] == keys.Account(model.URL); got != c.wantTold {
				t.Errorf("try() told %q of the keyring's prompt, want told %v", told, c.wantTold)
			}
			if n := keys.Prompts(); n != c.wantPrompts {
				t.Errorf("the keyring was asked to unlock %d times, want %d", n, c.wantPrompts)
			}
		})
	}
}
