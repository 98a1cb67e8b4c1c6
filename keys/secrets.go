package keys

import (
	"errors"
	"strings"

	"github.com/zalando/go-keyring"
)

// The secrets a person gives an MCP server in the servers form (a
// GITHUB_TOKEN's value) are kept in the keyring, each under its server's
// alias and its variable's name: one server's is never another's, whatever
// name that one asks for. The config file names them only (see
// config.Server.AllowSecrets); their values are never written, logged, put
// in an error or shown to the model.

// secretPrefix marks the keyring entries holding servers' secrets.
const secretPrefix = "server secret: "

// SecretAccount is the keyring user the secret name of the server alias is
// kept under.
func SecretAccount(alias, name string) string {
	return secretPrefix + alias + "/" + name
}

// StoreSecret keeps value in the keyring as the secret name of the server
// alias, replacing the one there.
func StoreSecret(alias, name, value string) error {
	value = strings.TrimSpace(value)
	switch {
	case alias == "" || name == "":
		return errors.New("a server's secret needs the server's alias and the variable's name")
	case value == "":
		return errors.New("the value is empty")
	case strings.ContainsAny(value, "\r\n"):
		return errors.New("the value is more than one line: paste the value alone")
	}
	err := call(func() error { return keyring.Set(Service, SecretAccount(alias, name), value) })
	if errors.Is(err, ErrLocked) {
		if _, _, serr := Saved(""); errors.Is(serr, ErrNoCollection) {
			return ErrNoCollection
		}
	}
	return err
}

// ServerSecret reads the secret name of the server alias: keyring.ErrNotFound
// when none is kept, ErrUnavailable without a keyring. The keyring is
// searched first, so that a locked one asks to be unlocked only when it
// holds the secret.
func ServerSecret(alias, name string) (string, error) {
	account := SecretAccount(alias, name)
	if saved, _, err := savedAccount(account); err == nil && !saved {
		return "", keyring.ErrNotFound
	}
	return getAccount(account)
}

// SecretSaved reports whether the keyring holds the secret name of the
// server alias, and whether it is locked, without reading it (see Saved).
func SecretSaved(alias, name string) (saved, locked bool, err error) {
	return savedAccount(SecretAccount(alias, name))
}

// RemoveSecret deletes the secret name of the server alias. None there is
// not an error.
func RemoveSecret(alias, name string) error {
	err := call(func() error { return keyring.Delete(Service, SecretAccount(alias, name)) })
	if errors.Is(err, keyring.ErrNotFound) {
		return nil
	}
	return err
}
