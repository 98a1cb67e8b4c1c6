package keys

import (
	"errors"

	"github.com/godbus/dbus/v5"
	"github.com/zalando/go-keyring"
	ss "github.com/zalando/go-keyring/secret_service"
)

// Saved reports whether the keyring holds a key for the model at baseURL,
// and whether the keyring is locked, without reading the key: a locked
// keyring is searched as it is, never asked to unlock (which would put up
// a prompt for a key nobody needs yet; Try asks only when the server
// wants one). ErrUnavailable without a keyring.
func Saved(baseURL string) (saved, locked bool, err error) {
	return savedAccount(Account(baseURL))
}

// savedAccount is Saved for any of Deckhand's keyring users.
func savedAccount(account string) (saved, locked bool, err error) {
	if mock.Load() == mockLocked {
		_, err := keyring.Get(Service, account) // the mock's, with no prompt
		lockedRing.Lock()
		defer lockedRing.Unlock()
		return err == nil, !lockedRing.unlocked, nil
	}
	if mock.Load() == mockMemory {
		if account == "" {
			return false, false, nil
		}
		_, err := getAccount(account)
		if errors.Is(err, keyring.ErrNotFound) {
			return false, false, nil
		}
		return err == nil, false, err
	}
	err = call(func() error {
		svc, err := ss.NewSecretService()
		if err != nil {
			return err
		}
		coll := svc.GetLoginCollection()
		if v, err := coll.GetProperty("org.freedesktop.Secret.Collection.Locked"); err == nil {
			locked, _ = v.Value().(bool)
		} else {
			var de dbus.Error
			if errors.As(err, &de) {
				return de
			}
			return err
		}
		if account == "" {
			return nil
		}
		found, err := svc.SearchItems(coll, map[string]string{"username": account, "service": Service})
		saved = len(found) > 0
		return err
	})
	return saved, locked, err
}
