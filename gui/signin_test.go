package gui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"deckhand/actors/servers"
	"deckhand/config"
	"deckhand/gui/guitest"
	serverspanel "deckhand/gui/servers"
	"deckhand/keys"
	"deckhand/testutil"
)

// gatedBrowser puts a fake xdg-open on PATH that notes the URL it is
// given, waits until the test opens the gate, then signs in at once (the
// fake browser follows the redirects). It returns the gate's opener.
func gatedBrowser(t *testing.T) (opened func() string, open func()) {
	bin := testutil.BuildProgram(t, "./testutil/fakebrowser")
	dir := t.TempDir()
	seen, gate := filepath.Join(dir, "seen"), filepath.Join(dir, "gate")
	script := "#!/bin/sh\nprintf '%s' \"$1\" > " + seen + "\nwhile [ ! -e " + gate + " ]; do sleep 0.05; done\nexec " + bin + " \"$1\"\n"
	if err := os.WriteFile(filepath.Join(dir, "xdg-open"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Cleanup(func() { os.WriteFile(gate, nil, 0o600) }) // no script left waiting
	return func() string {
			b, _ := os.ReadFile(seen)
			return string(b)
		}, func() {
			if err := os.WriteFile(gate, nil, 0o600); err != nil {
				t.Fatal(err)
			}
		}
}

// overlayButton is a button of w's dialogs (not of its content).
func (h *harness) overlayButton(w fyne.Window, label string) *widget.Button {
	h.t.Helper()
	var found *widget.Button
	for _, o := range w.Canvas().Overlays().List() {
		guitest.Walk(o, func(o fyne.CanvasObject) {
			if b, ok := o.(*widget.Button); ok && b.Text == label && found == nil {
				found = b
			}
		})
	}
	if found == nil {
		h.t.Fatalf("no dialog button %q; the window shows:\n%s", label, strings.Join(h.texts(w), "\n"))
	}
	return found
}

// The servers panel signs in to a server behind OAuth: it needs signing in
// (a state with its reason and a Sign in button, not a failure); Sign in
// opens the browser and, while the person signs in, shows the page's
// address to select and copy; once signed in the server is ready with its
// account shown; Sign out, asked first, makes it need signing in again.
func TestSignInFromServersPanel(t *testing.T) {
	keys.MockInit()
	opened, open := gatedBrowser(t)
	o := testutil.NewOAuthServer(t, "o", time.Hour)
	t.Cleanup(func() { (&keys.Tokens{}).Remove(o.URL) })
	h := newHarness(t, harnessOptions{cfg: func(c *config.Config) {
		c.MCP.Servers = map[string]config.Server{"o": {URL: o.URL}}
	}})
	h.ui.showServers()
	sw := h.ui.serversW
	row := func() *serverspanel.Row { return sw.Rows["o"] }
	h.until("o to need signing in", func() bool { return h.serverState(sw, "o") == "needs sign-in" })
	r := row()
	if r.SignIn == nil || r.SignIn.SignIn == nil || !r.SignIn.SignIn.Visible() || r.SignIn.SignIn.Text != "Sign in" {
		t.Fatalf("no Sign in button; the panel shows:\n%s", strings.Join(h.texts(sw.Win), "\n"))
	}
	if !r.Reason.Visible() || r.Reason.Text == "" || r.Reason.Importance == widget.DangerImportance {
		t.Errorf("the reason %q (shown %v) should be shown, not as a failure", r.Reason.Text, r.Reason.Visible())
	}
	if r.Reconnect.Visible() || r.SignIn.SignOut != nil {
		t.Errorf("a server needing sign-in offers Reconnect or Sign out")
	}
	if o.Authorized() != 0 || opened() != "" {
		t.Errorf("the browser opened before Sign in was pressed")
	}

	test.Tap(r.SignIn.SignIn)
	h.until("the sign-in page shown", func() bool {
		r := row()
		return r != nil && r.SignIn.URL != nil && r.SignIn.URL.Visible()
	})
	r = row()
	if got := h.serverState(sw, "o"); got != "signing in…" {
		t.Errorf("state while signing in: %q", got)
	}
	page := opened()
	if !strings.HasPrefix(page, o.Base+"/authorize?") || r.SignIn.URL.Text != page || !r.SignIn.URL.Selectable {
		t.Errorf("the page shown %q (selectable %v), the browser was given %q", r.SignIn.URL.Text, r.SignIn.URL.Selectable, page)
	}
	test.Tap(r.SignIn.CopyURL)
	if got := h.app.Clipboard().Content(); got != page {
		t.Errorf("Copy put %q on the clipboard, want %q", got, page)
	}

	open() // the person signs in
	h.until("o to be ready and signed in", func() bool {
		r := row()
		return h.serverState(sw, "o") == "ready" && r.SignIn.Account != nil
	})
	r = row()
	if want := "Signed in as " + o.Account; r.SignIn.Account.Text != want {
		t.Errorf("account: %q, want %q", r.SignIn.Account.Text, want)
	}
	if r.SignIn.SignOut == nil || r.SignIn.SignIn != nil || r.SignIn.URL != nil {
		t.Errorf("a signed-in server: Sign out %v, Sign in %v, page %v", r.SignIn.SignOut != nil, r.SignIn.SignIn != nil, r.SignIn.URL != nil)
	}

	// Sign out asks first; keeping the sign-in (Escape) changes
	// nothing, and leaves the servers shown; Enter signs out.
	test.Tap(r.SignIn.SignOut)
	h.overlayButton(sw.Win, "Keep signed in")
	h.key(fyne.KeyEscape)
	h.drain()
	if got := h.serverState(sw, "o"); got != "ready" || h.ui.panel == nil || h.ui.serversW.Win != fyne.Window(h.ui.panel) {
		t.Fatalf("after keeping the sign-in: %q, the servers shown %v", got, h.ui.panel != nil)
	}
	if h.ui.win.Canvas().Overlays().Top() != nil {
		t.Fatalf("Escape left the question open")
	}
	test.Tap(row().SignIn.SignOut)
	if !h.shows(sw.Win, "Sign out of o?") {
		t.Fatalf("Sign out did not ask first:\n%s", strings.Join(h.texts(sw.Win), "\n"))
	}
	h.key(fyne.KeyReturn)
	h.until("o to need signing in again", func() bool { return h.serverState(sw, "o") == "needs sign-in" })
	r = row()
	if r.Reason.Text != "signed out" || r.SignIn.SignIn == nil || r.SignIn.Account != nil {
		t.Errorf("after signing out: reason %q, Sign in %v, account %v", r.Reason.Text, r.SignIn.SignIn != nil, r.SignIn.Account != nil)
	}
	if left, _ := (&keys.Tokens{}).Load(o.URL); left != nil {
		t.Errorf("the keyring still holds the sign-in")
	}
	for _, st := range h.ui.servers {
		if st.Alias == "o" && (st.State != servers.StateNeedsSignIn || st.SignedIn) {
			t.Errorf("status after signing out: %+v", st)
		}
	}
}
