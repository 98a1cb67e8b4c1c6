package connect

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"deckhand/gui/widgets"
	"deckhand/keys"
	"deckhand/policy"
)

// A command server's secrets, given in the form: the Secrets field names
// the variables; under it, each has a row saying where its value comes
// from (saved in the keyring, from the environment, not set), a field to
// paste a value into, and Remove for one saved. A value typed is given to
// the try of the server, then kept in the system keyring under the
// server's alias once it connected (never in the config file, the log or
// an error); the config records the grant (allow_secrets), so that this
// server alone gets it. The keyring is asked only about the secrets
// listed: a locked or absent one never holds up a server that needs none.

// secretRow is one secret's row.
type secretRow struct {
	name   string
	status *widget.Label
	value  *formEntry
	remove *widgets.RingButton
	box    fyne.CanvasObject
	// saved: the keyring holds a value for the server edited; locked: it
	// is locked (its value is read, and it asks to be unlocked, only as
	// the server starts); problem: the keyring could not be asked.
	saved, locked, asked bool
	problem              error
}

// secretNames are the names the Secrets field lists.
func secretNames(text string) []string {
	var out []string
	for _, n := range strings.FieldsFunc(text, func(r rune) bool { return r == ',' || r == ' ' || r == '\n' || r == '\t' }) {
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// showSecrets makes a row for each secret the Secrets field names,
// keeping the rows (and what was typed in them) of those still named.
func (f *Form) showSecrets() {
	names := secretNames(f.Secrets.Text)
	if f.secretRows == nil {
		f.secretRows = map[string]*secretRow{}
	}
	var objs []fyne.CanvasObject
	for _, name := range names {
		r := f.secretRows[name]
		if r == nil {
			r = f.newSecretRow(name)
			f.secretRows[name] = r
			f.askSecret(r)
			f.sayStatus(r)
		}
		objs = append(objs, r.box)
	}
	f.SecretBox.Objects = objs
	f.SecretBox.Refresh()
}

func (f *Form) newSecretRow(name string) *secretRow {
	r := &secretRow{name: name, status: widget.NewLabel("")}
	r.status.Wrapping = fyne.TextWrapWord
	r.value = newFormEntry(f, false)
	r.value.Password = true
	r.value.SetPlaceHolder("paste the value to keep it in the keyring")
	r.value.InPage(func() *container.Scroll { return f.scroll })
	r.value.OnChanged = func(string) { f.edited(); f.sayStatus(r) }
	r.value.OnSubmitted = func(string) { f.trySubmit() }
	r.remove = formButton("Remove", theme.DeleteIcon(), func() { f.askRemoveSecret(r) })
	r.remove.Hide()
	// The name on a line of its own, wrapped anywhere (a variable's name
	// has no spaces), the field under it taking what Remove leaves: the
	// row asks for no more width than a short field and the button, which
	// shows whole. Beside the field, the name made the row as wide as
	// itself: a long one (56 letters) pushed Remove past the pane's right
	// edge in the 1100-pixel window of a 1280×800 screen, and at 640×480
	// the whole form scrolled sideways.
	label := widget.NewLabelWithStyle(name, fyne.TextAlignLeading, fyne.TextStyle{Monospace: true})
	label.Wrapping = fyne.TextWrapBreak
	r.box = container.NewVBox(
		label,
		container.NewBorder(nil, nil, nil, r.remove, widgets.OverPage(r.value, func() *container.Scroll { return f.scroll })),
		r.status)
	f.sayStatus(r)
	return r
}

// askSecret asks the keyring, off the UI goroutine, whether it holds the
// secret of the server edited (a new server has none yet). It is searched
// as it is, never asked to unlock.
func (f *Form) askSecret(r *secretRow) {
	alias := f.editing
	if alias == "" {
		r.asked = true
		return
	}
	go func() {
		saved, locked, err := keys.SecretSaved(alias, r.name)
		f.h.Post(func() {
			r.saved, r.locked, r.asked = saved, locked, true
			r.problem = nil
			if err != nil && !errors.Is(err, keys.ErrUnavailable) {
				r.problem = err
			}
			f.sayStatus(r)
		})
	}()
}

// SecretStatus is what the row of the secret name says, or "" when the
// form has no row for it.
func (f *Form) SecretStatus(name string) string {
	if r := f.secretRows[name]; r != nil {
		return r.status.Text
	}
	return ""
}

// SecretValue is the field the value of the secret name is typed in, or
// nil when the form has no row for it.
func (f *Form) SecretValue(name string) *widget.Entry {
	if r := f.secretRows[name]; r != nil {
		return &r.value.Entry
	}
	return nil
}

// SecretRemove is the Remove button of the secret name's row, or nil.
func (f *Form) SecretRemove(name string) *widgets.RingButton {
	if r := f.secretRows[name]; r != nil {
		return r.remove
	}
	return nil
}

// sayStatus says where the server will get the secret from.
func (f *Form) sayStatus(r *secretRow) {
	var text string
	_, inEnv := f.h.LookupEnv(r.name)
	switch {
	case strings.TrimSpace(r.value.Text) != "":
		text = "Typed: kept in the keyring once the server connects."
	case !r.asked:
		text = "Looking in the keyring…"
	case r.saved && r.locked:
		text = policy.FromKeyring + " (locked: it asks to be unlocked when the server starts)."
	case r.saved:
		text = policy.FromKeyring + "."
	case inEnv:
		text = policy.FromEnv + " (" + r.name + " is set in Deckhand's environment)."
	case r.problem != nil:
		text = "The keyring could not be asked (" + r.problem.Error() + "): paste the value to keep it there, or set " + r.name + " in Deckhand's environment."
	default:
		text = policy.NotSet + ": paste its value above."
	}
	r.status.SetText(sentence(text))
	if r.saved && f.editing != "" {
		r.remove.Show()
	} else {
		r.remove.Hide()
	}
}

// askRemoveSecret asks, then removes the saved value of a secret of the
// server edited.
func (f *Form) askRemoveSecret(r *secretRow) {
	alias := f.editing
	widgets.ConfirmDanger("Remove the saved secret?",
		fmt.Sprintf("Remove the value of %s saved for %s from this computer's keyring? From its next start %s gets it only from Deckhand's environment, if it is set there; to give it again, paste the value anew.", r.name, alias, alias),
		"Remove", func(ok bool) {
			if !ok {
				return
			}
			r.remove.Disable()
			go func() {
				err := keys.RemoveSecret(alias, r.name)
				f.h.Post(func() {
					r.remove.Enable()
					if err != nil {
						widgets.ShowError(secretKeyringError(r.name, err), f.Win)
						return
					}
					r.saved = false
					f.sayStatus(r)
				})
			}()
		}, f.Win)
}

// typedSecrets are the values typed in the rows, by name (none for a URL
// server: its rows are hidden, and a token goes by Token variable).
func (f *Form) typedSecrets() map[string]string {
	out := map[string]string{}
	if f.Kind.Selected != "Command" {
		return out
	}
	for _, name := range secretNames(f.Secrets.Text) {
		if r := f.secretRows[name]; r != nil {
			if v := strings.TrimSpace(r.value.Text); v != "" {
				out[name] = v
			}
		}
	}
	return out
}

// secretKeyringError says, in the form's words, why the keyring could not
// keep (or remove) the value of the secret name, and what to do instead.
func secretKeyringError(name string, err error) error {
	instead := fmt.Sprintf("set %s in the environment Deckhand is started from instead (a line %s=… in ~/.config/environment.d/deckhand.conf, then log out and back in), and leave its value empty here", name, name)
	switch {
	case errors.Is(err, keys.ErrUnavailable):
		return fmt.Errorf("Secrets: no keyring is running (no Secret Service such as GNOME Keyring or KWallet), so the value of %s cannot be kept: %s", name, instead)
	case errors.Is(err, keys.ErrLocked):
		return fmt.Errorf("Secrets: the keyring is locked and was not unlocked, so the value of %s was not kept: unlock it (in Passwords and Keys) and try again, or %s", name, instead)
	case errors.Is(err, keys.ErrNoCollection):
		return fmt.Errorf("Secrets: the keyring has no login keyring to keep the value of %s in: create one named Login in Passwords and Keys (Seahorse), or %s", name, instead)
	}
	return fmt.Errorf("Secrets: keeping the value of %s in the keyring: %w", name, err)
}
