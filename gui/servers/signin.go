package servers

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"deckhand/actors/servers"
	"deckhand/clean"
	"deckhand/gui/widgets"
)

// Signing in to a server (OAuth) from the servers panel. A server that
// needs signing in is a state to act on, not a failure: its row says why,
// in plain colours, beside a Sign in button. While the person signs in,
// the row shows the sign-in page's address to select or copy (the browser
// may not have opened). A signed-in server shows its account and Sign out,
// asked first.

// SignInRow is the sign-in part of a server's row, for tests.
type SignInRow struct {
	SignIn, SignOut, CopyURL *widget.Button
	URL                      *widget.Label // the sign-in page, while signing in
	Account                  *widget.Label // "Signed in as …"
}

// needsSignIn reports whether a server waits for the person to sign in
// (or signs in): Sign in is what to press, not Reconnect.
func needsSignIn(st servers.ServerStatus) bool {
	return st.State == servers.StateNeedsSignIn || st.State == servers.StateSigningIn
}

// signInPart is what a server's row shows of its sign-in, and the buttons
// it adds; nothing for a server that does not sign in.
func (s *Panel) signInPart(st servers.ServerStatus, r *Row) (info fyne.CanvasObject, buttons []fyne.CanvasObject) {
	alias := st.Alias
	p := &SignInRow{}
	r.SignIn = p
	var objs []fyne.CanvasObject
	switch {
	case st.State == servers.StateNeedsSignIn:
		p.SignIn = widget.NewButtonWithIcon("Sign in", theme.LoginIcon(), func() { s.host.Tell(&SignIn{Alias: alias}) })
		p.SignIn.Importance = widget.HighImportance
		buttons = append(buttons, p.SignIn)
	case st.State == servers.StateSigningIn:
		if st.SignInURL != "" {
			_, lead := widgets.Caption("If your browser did not open, open this page to sign in:")
			p.URL = widget.NewLabel(clean.Line(st.SignInURL))
			p.URL.Selectable = true
			p.URL.Wrapping = fyne.TextWrapBreak
			u := st.SignInURL
			p.CopyURL = widget.NewButtonWithIcon("Copy", theme.ContentCopyIcon(), func() {
				s.host.App().Clipboard().SetContent(u)
			})
			// A long address wraps within a box of its own height, which
			// scrolls: the row below keeps its place.
			box := container.NewVScroll(p.URL)
			box.SetMinSize(fyne.NewSize(340, 76))
			objs = append(objs, lead, container.NewBorder(nil, nil, nil, container.NewCenter(p.CopyURL), box))
		}
		// Signing in again from the start (a closed browser tab).
		p.SignIn = widget.NewButtonWithIcon("Sign in again", theme.LoginIcon(), func() { s.host.Tell(&SignIn{Alias: alias}) })
		buttons = append(buttons, p.SignIn)
	case st.SignedIn:
		text := "Signed in"
		if st.Account != "" {
			text = "Signed in as " + widgets.Shorten(clean.Line(st.Account), 60)
		}
		p.Account = widget.NewLabel(text)
		p.Account.Importance = widget.SuccessImportance
		// Sign out beside the account, not among the row's buttons: the
		// server's details keep their room.
		p.SignOut = widget.NewButtonWithIcon("Sign out", theme.LogoutIcon(), func() { s.confirmSignOut(alias) })
		p.SignOut.Importance = widget.LowImportance
		objs = append(objs, container.NewHBox(p.Account, p.SignOut))
	}
	if len(objs) == 0 {
		return nil, buttons
	}
	return container.NewVBox(objs...), buttons
}

// confirmSignOut asks before forgetting a server's sign-in.
func (s *Panel) confirmSignOut(alias string) {
	d := dialog.NewConfirm("Sign out of "+alias+"?",
		"Deckhand forgets this sign-in (its tokens, in the keyring too) and disconnects "+alias+".\nIts tools are unavailable until you sign in again.",
		func(ok bool) {
			if ok {
				s.host.Tell(&SignOut{Alias: alias})
			}
		}, s.Win)
	d.SetConfirmText("Sign out")
	d.SetDismissText("Keep signed in")
	widgets.ShowConfirm(d, s.Win)
}
