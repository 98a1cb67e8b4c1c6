package gui

import (
	"context"
	"fmt"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/asynkron/protoactor-go/actor"

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

// uiSignIn asks a server to sign in (the browser opens at its page).
type uiSignIn struct{ alias string }

// uiSignOut forgets a server's sign-in and disconnects it.
type uiSignOut struct{ alias string }

func (m *uiSignIn) handleServerAsk(b *bridge, c actor.Context) {
	c.Send(b.sys.Servers, &servers.SignIn{Alias: m.alias})
}

func (m *uiSignOut) handleServerAsk(b *bridge, c actor.Context) {
	self, root, sys, alias := c.Self(), c.ActorSystem().Root, b.sys, m.alias
	go func() {
		// The keyring may take its time (or ask to be unlocked).
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := sys.SignOut(ctx, alias); err != nil {
			root.Send(self, &serverCommandFailed{fmt.Errorf("signing out of %q: %w", alias, err)})
		}
	}()
}

// signInRow is the sign-in part of a server's row, for tests.
type signInRow struct {
	signIn, signOut, copyURL *widget.Button
	url                      *widget.Label // the sign-in page, while signing in
	account                  *widget.Label // "Signed in as …"
}

// needsSignIn reports whether a server waits for the person to sign in
// (or signs in): Sign in is what to press, not Reconnect.
func needsSignIn(st servers.ServerStatus) bool {
	return st.State == servers.StateNeedsSignIn || st.State == servers.StateSigningIn
}

// signInPart is what a server's row shows of its sign-in, and the buttons
// it adds; nothing for a server that does not sign in.
func (s *serversWindow) signInPart(st servers.ServerStatus, r *serverRow) (info fyne.CanvasObject, buttons []fyne.CanvasObject) {
	alias := st.Alias
	p := &signInRow{}
	r.signIn = p
	var objs []fyne.CanvasObject
	switch {
	case st.State == servers.StateNeedsSignIn:
		p.signIn = widget.NewButtonWithIcon("Sign in", theme.LoginIcon(), func() { s.ui.tell(&uiSignIn{alias: alias}) })
		p.signIn.Importance = widget.HighImportance
		buttons = append(buttons, p.signIn)
	case st.State == servers.StateSigningIn:
		if st.SignInURL != "" {
			_, lead := widgets.Caption("If your browser did not open, open this page to sign in:")
			p.url = widget.NewLabel(clean.Line(st.SignInURL))
			p.url.Selectable = true
			p.url.Wrapping = fyne.TextWrapBreak
			u := st.SignInURL
			p.copyURL = widget.NewButtonWithIcon("Copy", theme.ContentCopyIcon(), func() {
				s.ui.app.Clipboard().SetContent(u)
			})
			// A long address wraps within a box of its own height, which
			// scrolls: the row below keeps its place.
			box := container.NewVScroll(p.url)
			box.SetMinSize(fyne.NewSize(340, 76))
			objs = append(objs, lead, container.NewBorder(nil, nil, nil, container.NewCenter(p.copyURL), box))
		}
		// Signing in again from the start (a closed browser tab).
		p.signIn = widget.NewButtonWithIcon("Sign in again", theme.LoginIcon(), func() { s.ui.tell(&uiSignIn{alias: alias}) })
		buttons = append(buttons, p.signIn)
	case st.SignedIn:
		text := "Signed in"
		if st.Account != "" {
			text = "Signed in as " + widgets.Shorten(clean.Line(st.Account), 60)
		}
		p.account = widget.NewLabel(text)
		p.account.Importance = widget.SuccessImportance
		// Sign out beside the account, not among the row's buttons: the
		// server's details keep their room.
		p.signOut = widget.NewButtonWithIcon("Sign out", theme.LogoutIcon(), func() { s.confirmSignOut(alias) })
		p.signOut.Importance = widget.LowImportance
		objs = append(objs, container.NewHBox(p.account, p.signOut))
	}
	if len(objs) == 0 {
		return nil, buttons
	}
	return container.NewVBox(objs...), buttons
}

// confirmSignOut asks before forgetting a server's sign-in.
func (s *serversWindow) confirmSignOut(alias string) {
	d := dialog.NewConfirm("Sign out of "+alias+"?",
		"Deckhand forgets this sign-in (its tokens, in the keyring too) and disconnects "+alias+".\nIts tools are unavailable until you sign in again.",
		func(ok bool) {
			if ok {
				s.ui.tell(&uiSignOut{alias: alias})
			}
		}, s.win)
	d.SetConfirmText("Sign out")
	d.SetDismissText("Keep signed in")
	d.Show()
}
