package settings

import (
	"errors"
	"strings"

	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"
	"github.com/zalando/go-keyring"

	"deckhand/gui/widgets"
	"deckhand/keys"
)

// The API key in the settings: typed into a password entry, kept in the
// desktop's keyring (package keys) when the settings are saved, never shown
// again and never written to the config file. Every keyring call runs off
// the UI goroutine: a locked keyring may ask to be unlocked.

// The hint under the key field: where a key typed there is kept.
const (
	keyHintKeyring = "from your provider's website; kept in this computer's keyring, not in the settings file"
	keyHintFile    = "from your provider's website; kept in the key file (" + keys.FileName + ", readable by you only), not in the settings file"
)

// keyState is where the key for the form's service is, as the settings
// say it.
type keyState struct {
	source      keys.Source
	env         string // the variable, when the key is in the environment
	unavailable bool   // no Secret Service
	locked      bool   // the keyring is locked (it is unlocked only when a server wants the key)
	err         error  // the keyring failed
}

// readKeyState finds the key for the model at base: in the environment
// variable env names, else in the keyring.
func readKeyState(base, env string, lookup func(string) (string, bool)) keyState {
	if env != "" {
		if v, ok := lookup(env); ok && strings.TrimSpace(v) != "" {
			return keyState{source: keys.Env, env: env}
		}
	}
	var err error
	if keys.Account(base) == "" {
		// No service yet: say at once if a key could not be kept. Asked
		// of the Secret Service without reading a key (keys.Available
		// reads one, and a locked keyring puts up its unlock prompt).
		if _, _, err = keys.Saved(""); err == nil {
			return keyState{}
		}
	} else {
		// Searched, not read: a locked keyring is not asked to unlock
		// for a key nobody needs yet.
		var saved, locked bool
		saved, locked, err = keys.Saved(base)
		switch {
		case err == nil && saved:
			return keyState{source: keys.Keyring, locked: locked}
		case err == nil:
			err = keyring.ErrNotFound
		}
	}
	switch {
	case err == nil:
		return keyState{source: keys.Keyring}
	case errors.Is(err, keyring.ErrNotFound), errors.Is(err, keys.ErrUnavailable):
		// The key file, where a key is kept when no keyring runs.
		if path, perr := keys.FilePath(""); perr == nil && keys.Account(base) != "" {
			if _, ferr := keys.GetFile(path, base); ferr == nil {
				return keyState{source: keys.File, unavailable: errors.Is(err, keys.ErrUnavailable)}
			} else if !errors.Is(ferr, keyring.ErrNotFound) {
				return keyState{err: ferr}
			}
		}
		return keyState{unavailable: errors.Is(err, keys.ErrUnavailable)}
	}
	return keyState{err: err}
}

// toFile says a key typed now would be kept in the key file, which the
// person chose (useFile) where no keyring runs, and which holds none yet.
func (s keyState) toFile(base string, useFile bool) bool {
	return useFile && s.unavailable && s.source == keys.None && s.err == nil && keys.Account(base) != ""
}

// quiet: a keyring that failed (no login keyring, locked, slow) is not an
// alarm while no key is needed: no service is chosen yet, or the model
// runs on this computer. Saving a key, or a server that refuses without
// one, says what went wrong then.
func (s keyState) quiet(base string) bool {
	return s.err != nil && (keys.Account(base) == "" || local(base))
}

func local(base string) bool {
	return strings.Contains(base, "://127.0.0.1") || strings.Contains(base, "://localhost") || strings.Contains(base, "://[::1]")
}

// text is the key's status in plain words; wanted: a Check found the
// model at base asking for a key.
func (s keyState) text(base, env string, useFile, wanted bool) string {
	switch {
	case s.source == keys.Env:
		return "Using the key in the environment variable " + s.env + " (set under Advanced); it wins over a key saved here."
	case s.source == keys.Keyring && s.locked:
		return "A key is saved in this computer's keyring for " + keys.Account(base) + ". The keyring is locked: Deckhand asks to unlock it only when the server wants the key. Paste another to replace it."
	case s.source == keys.Keyring:
		return "A key is saved in this computer's keyring for " + keys.Account(base) + ". Paste another to replace it."
	case s.source == keys.File:
		return "A key is kept in the key file (" + keys.FileName + " in Deckhand's config folder, readable by you only; less safe than a keyring) for " + keys.Account(base) + ". Paste another to replace it."
	case s.toFile(base, useFile):
		return "No key saved for " + keys.Account(base) + ": paste the key and Save; it is kept in the key file."
	case s.unavailable:
		return keys.Unavailable
	case s.err != nil && s.quiet(base):
		// Nothing is to be read or saved: the keyring's trouble is said
		// when a key is to be read or saved.
	case errors.Is(s.err, keys.ErrNoCollection), errors.Is(s.err, keys.ErrLocked):
		msg := s.err.Error()
		return strings.ToUpper(msg[:1]) + msg[1:] + "."
	case s.err != nil:
		return "Could not read the keyring: " + s.err.Error()
	}
	switch {
	case env != "":
		return "The variable " + env + " (under Advanced) is not set in Deckhand's environment, and no key is saved for " + keys.Account(base) + "."
	case keys.Account(base) == "":
		return "Choose a service first."
	case local(base) && !wanted:
		return "No key saved. Models on this computer need none."
	}
	return "No key saved for " + keys.Account(base) + ": paste the key from your provider and Save."
}

// refreshKey asks where the key for the form's service is, and says so.
func (f *Form) refreshKey() {
	f.keyCheck++
	seq := f.keyCheck
	base, env := strings.TrimSpace(f.BaseURL.Text), strings.TrimSpace(f.APIKeyEnv.Text)
	go func() {
		st := readKeyState(base, env, f.host.LookupEnv)
		f.host.Post(func() {
			if seq != f.keyCheck {
				return // the form changed meanwhile: a newer answer comes
			}
			f.showKey(st, base, env)
		})
	}()
}

// typedText is the key's status while a key is typed in the field and not
// saved yet, "" where the status says the same typed or not (a variable
// that wins, a keyring that fails). Under a typed key, "No key saved.
// Models on this computer need none." read as if the key were ignored.
func (s keyState) typedText(base string, useFile bool) string {
	if s.source == keys.Env || s.err != nil || s.unavailable && !useFile || keys.Account(base) == "" {
		return ""
	}
	where := "this computer's keyring"
	if useFile || s.source == keys.File {
		where = "the key file"
	}
	if s.source == keys.Keyring || s.source == keys.File {
		return "Not saved yet: Save replaces the key saved in " + where + " for " + keys.Account(base) + "."
	}
	return "Not saved yet: Save keeps it in " + where + "."
}

func (f *Form) showKey(st keyState, base, env string) {
	f.shown.st, f.shown.base, f.shown.env, f.shown.ok = st, base, env, true
	f.useFile = f.useFile || st.source == keys.File
	f.sayKey()
	if st.source == keys.Keyring || st.source == keys.File {
		f.RemoveKey.Show()
		f.APIKey.SetPlaceHolder("saved (hidden); paste to replace")
	} else {
		f.RemoveKey.Hide()
		f.APIKey.SetPlaceHolder("paste the key here")
	}
	if f.useFile {
		f.keyHint.SetText(keyHintFile)
	} else {
		f.keyHint.SetText(keyHintKeyring)
	}
	widgets.SetVisible(f.keyFile, st.unavailable && !f.useFile)
	if st.unavailable && !f.useFile {
		// A key typed here could not be kept: say so, and offer the key
		// file instead of taking it.
		f.APIKey.SetText("")
		f.APIKey.SetPlaceHolder("no keyring available: see below")
		f.APIKey.Disable()
	} else {
		f.APIKey.Enable()
	}
	f.relayout()
}

// sayKey says the key's status last read (showKey), for the key typed or
// not: called again as the key field is typed in or emptied.
func (f *Form) sayKey() {
	sh := f.shown
	if !sh.ok {
		return
	}
	text := sh.st.text(sh.base, sh.env, f.useFile, f.keyWanted == keys.Account(sh.base) && sh.base != "")
	if strings.TrimSpace(f.APIKey.Text) != "" {
		if typed := sh.st.typedText(sh.base, f.useFile); typed != "" {
			text = typed
		}
	}
	importance := widget.MediumImportance
	if (sh.st.unavailable || sh.st.err != nil && !sh.st.quiet(sh.base)) && !sh.st.toFile(sh.base, f.useFile) {
		importance = widget.WarningImportance
	}
	if f.KeyStatus.Text == text && f.KeyStatus.Importance == importance {
		return
	}
	f.KeyStatus.Importance = importance
	f.KeyStatus.SetText(text)
	f.relayout()
}

// askKeyFile offers to keep the key in a file, saying first what that
// means; yes enables the key field, and Save writes the file.
func (f *Form) askKeyFile() {
	path, _ := keys.FilePath("")
	d := dialog.NewConfirm("Keep the API key in a file?",
		"No keyring runs here, so the key can be kept in a file instead: "+path+", readable by you only. "+
			"That is less safe than a keyring: any program running as you can read it. Keep it there?",
		func(ok bool) {
			if !ok {
				return
			}
			f.useFile = true
			f.keyFile.Hide()
			f.keyHint.SetText(keyHintFile)
			f.KeyStatus.SetText("Paste the key and Save: it is kept in " + path + " (readable by you only).")
			f.APIKey.Enable()
			f.APIKey.SetPlaceHolder("paste the key here")
			f.w.Canvas().Focus(f.APIKey)
		}, f.w)
	widgets.ShowConfirm(d, f.w)
}

// forgetKey asks first, then removes the saved key for the form's
// service: the key went at once, with no Save and no way back, unlike
// every other removal in the window.
func (f *Form) forgetKey() {
	base := strings.TrimSpace(f.BaseURL.Text)
	name, _, _ := strings.Cut(f.Service.Selected, ",") // "Ollama", not "Ollama, on this computer"
	if name == "" || f.Service.Selected == otherService {
		name = keys.Account(base)
	}
	where := "this computer's keyring"
	if f.useFile {
		where = "the key file"
	}
	widgets.ConfirmDanger("Remove the saved API key?",
		"Remove the saved API key for "+name+" from "+where+"? Deckhand stops sending it from the next request; to use the service again, paste the key anew.",
		"Remove", func(ok bool) {
			if ok {
				f.removeKey(base)
			}
		}, f.w)
}

// removeKey removes the saved key for base; conversations stop using it
// from their next request.
func (f *Form) removeKey(base string) {
	f.RemoveKey.Disable()
	useFile := f.useFile
	go func() {
		err := keys.Remove(base)
		if useFile {
			if path, perr := keys.FilePath(""); perr == nil {
				err = keys.RemoveFile(path, base)
			}
		}
		f.host.Post(func() {
			f.RemoveKey.Enable()
			if err != nil {
				widgets.ShowError(keyError(err), f.w)
				return
			}
			f.host.ReuseConfig() // the model client reads the key anew
			f.refreshKey()
		})
	}()
}

// keyError is a keyring failure in plain words.
func keyError(err error) error {
	if errors.Is(err, keys.ErrUnavailable) {
		return widgets.Sentence(keys.Unavailable)
	}
	return err
}
