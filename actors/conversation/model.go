package conversation

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"deckhand/config"
	"deckhand/keys"
	"deckhand/transport/llm"
)

// modelAccess makes the model's requests with the key it needs, asking the
// keyring only when it must, as keys.Try does for Settings ▸ Check: with
// the key in model.api_key_env's variable when that is set; else first
// with no key, and only when the server refuses that (401, 403) with the
// key the keyring (or the key file) keeps for it. A keyring that is
// locked, absent or slow so never holds up, nor prompts for, a model that
// needs no key; a model that does gets the key once and keeps it for the
// config's life (a key saved or removed in the settings comes with a
// change of config, and a new modelAccess).
//
// Reading the keyring may wait up to keys.Timeout (an unlock prompt): it
// runs on a goroutine of its own, and the run (never a conversation's
// Receive) waits for it or for its context (Stop). A panic in the lookup
// (a bug) is the error. Safe for concurrent use: one key read at a time.
type modelAccess struct {
	m       config.Model
	lookup  func(string) (string, bool)
	resolve KeyResolver
	// read is told of a key read from the keyring or the key file, so
	// that it joins the secrets only once it has been read.
	read func(keys.Key)

	mu  sync.Mutex // held while the key is read, so that it is read once
	key *keys.Key  // the key found after a refusal; nil until then
}

// modelClient makes the conversations' modelAccess for m. resolve finds a
// key after a refusal (nil: keys.Resolve); read, if set, is told of each
// key read from the keyring or the key file.
func modelClient(m config.Model, lookup func(string) (string, bool), resolve KeyResolver, read func(keys.Key)) *modelAccess {
	if lookup == nil {
		lookup = os.LookupEnv
	}
	if resolve == nil {
		resolve = keys.Resolve
	}
	return &modelAccess{m: m, lookup: lookup, resolve: resolve, read: read}
}

// try runs do with the client to use, again with the keyring's key if the
// server refused it without one. When the keyring cannot give the key, the
// error is a *keys.KeyNeededError saying which key and why (a locked
// keyring: unlock it).
func (a *modelAccess) try(ctx context.Context, do func(*llm.Client) error) error {
	if !a.m.Configured() {
		return ErrNoModel
	}
	if v, ok := a.lookup(a.m.APIKeyEnv); a.m.APIKeyEnv != "" && ok && strings.TrimSpace(v) != "" {
		return do(a.client(keys.Key{Source: keys.Env, Env: a.m.APIKeyEnv}, strings.TrimSpace(v)))
	}
	a.mu.Lock()
	key := a.key
	a.mu.Unlock()
	if key != nil {
		return do(a.client(*key, key.Value()))
	}
	err := do(a.client(keys.Key{}, ""))
	status, refused := refusal(err)
	if !refused {
		return err
	}
	type found struct {
		k   keys.Key
		err error
	}
	ch := make(chan found, 1)
	go func() {
		k, err := a.find()
		ch <- found{k, err}
	}()
	var f found
	select {
	case f = <-ch:
	case <-ctx.Done():
		return ctx.Err()
	}
	switch {
	case f.err != nil:
		return &keys.KeyNeededError{Account: keys.Account(a.m.BaseURL), Status: status, Err: f.err}
	case f.k.Source == keys.None && a.m.APIKeyEnv != "":
		return fmt.Errorf("%w; $%s is not set in Deckhand's environment, and the keyring holds no key for %s", err, a.m.APIKeyEnv, keys.Account(a.m.BaseURL))
	case f.k.Source == keys.None:
		return err // no key kept anywhere: the server's refusal says so
	}
	return do(a.client(f.k, f.k.Value()))
}

// find reads the key once: of two requests refused at once, the second
// waits for the first's read (one unlock prompt at most) and takes its key.
func (a *modelAccess) find() (k keys.Key, err error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("internal error in the model request: %v", p)
		}
	}()
	if a.key != nil {
		return *a.key, nil
	}
	if k, err = a.resolve(a.m, a.lookup); err != nil {
		return k, err
	}
	if k.Source != keys.None {
		a.key = &k
		if a.read != nil && (k.Source == keys.Keyring || k.Source == keys.File) {
			a.read(k)
		}
	}
	return k, nil
}

// client is the model's client sending value, which came from k.
func (a *modelAccess) client(k keys.Key, value string) *llm.Client {
	from := k.String() + " for " + keys.Account(a.m.BaseURL)
	if k.Source == keys.Env {
		from = k.String()
	}
	return &llm.Client{Provider: a.m.Provider, BaseURL: a.m.BaseURL, Model: a.m.Name, Timeout: a.m.StreamTimeout, APIKey: value, KeyFrom: from, ToolResults: a.m.ToolResults}
}

// refusal says whether err is the server refusing a request for want of a
// key (401 or 403), and its status.
func refusal(err error) (int, bool) {
	var he *llm.HTTPError
	if errors.As(err, &he) && (he.Status == http.StatusUnauthorized || he.Status == http.StatusForbidden) {
		return he.Status, true
	}
	return 0, false
}

// KeyResolver finds the model's API key: keys.Resolve, or a stand-in in
// tests. It may block (the keyring over D-Bus).
type KeyResolver func(m config.Model, lookupEnv func(string) (string, bool)) (keys.Key, error)

// What a model request reports as it streams, to the run (run.streamed),
// and its end (streamDone, which tests' OnMessage sees).
type (
	streamText struct {
		text, reasoning string
	}
	streamRetrying struct {
		err  error
		wait time.Duration
	}
	streamDone struct {
		turn llm.Turn
		err  error
	}
)

// streamFunc makes one model request for a run (streamModel; a script in
// tests), reporting *streamText and *streamRetrying as they come.
type streamFunc func(ctx context.Context, v *view, model string, req *llm.Request, report func(any)) (llm.Turn, error)

// streamModel makes one model request on the run's goroutine and reports
// the answer as it streams: text as it arrives, then the whole turn.
// Refusals that may pass are retried before anything was received
// (llm.Client.StreamRetried). Cancelling ctx (Stop) cancels the HTTP
// request, and the key's lookup (which may wait for the keyring): the
// request goes first without a key unless model.api_key_env gives one,
// and again with the keyring's when the model refuses it (v.client.try);
// a key that cannot be had is the error. model is the model this run asks
// (SetModel), if not the client's.
func streamModel(ctx context.Context, v *view, model string, req *llm.Request, report func(any)) (llm.Turn, error) {
	retries := v.cfg.Model.Retries()
	var s *llm.Stream
	err := v.client.try(ctx, func(client *llm.Client) error {
		if model != "" && model != client.Model {
			client.Model = model // chosen for this conversation (SetModel)
		}
		var err error
		s, err = client.StreamRetried(ctx, req, retries, func(err error, wait time.Duration) {
			report(&streamRetrying{err: err, wait: wait})
		})
		return err
	})
	if err != nil {
		return llm.Turn{}, err
	}
	defer s.Close()
	return s.Turn(func(d llm.Delta) {
		if d.Text != "" || d.Reasoning != "" {
			report(&streamText{text: d.Text, reasoning: d.Reasoning})
		}
	})
}

func retryNotice(m *streamRetrying) string {
	return fmt.Sprintf("%v; trying again in %v", m.err, m.wait.Round(100*time.Millisecond))
}
