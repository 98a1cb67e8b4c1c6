package servers

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os/exec"
	"runtime"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"deckhand/config"
	"deckhand/keys"
	"deckhand/transport/mcp"
)

// Sign-in states of a server (OAuth, for HTTP servers that ask for it).
const (
	// StateNeedsSignIn: the server wants the person to sign in. Nothing is
	// retried until they do (SignIn), or ask to reconnect.
	StateNeedsSignIn State = "needs sign-in"
	// StateSigningIn: waiting for the person to finish signing in in their
	// browser (ServerStatus.SignInURL is the page).
	StateSigningIn State = "signing in"
)

// SignIn asks a server to sign in: the browser opens at the server's
// authorization page (the URL also shows in the server's status, to copy)
// and the server connects once the person has signed in. Its status says
// how it went.
type SignIn struct{ Alias string }

// SignOut forgets a server's sign-in (its tokens, in the keyring and in
// memory) and disconnects it; it then needs signing in again. The answer
// is a *Done.
type SignOut struct{ Alias string }

// SignInOptions configure OAuth sign-in. The zero value keeps tokens in
// the keyring (in memory where none runs) and opens the system browser.
type SignInOptions struct {
	// OAuth is the base of every server's sign-in: the token store and how
	// Deckhand registers as a client. Per attempt, the server actor adds
	// whether the person is there to sign in.
	OAuth mcp.OAuth
	// Browser opens the authorization page. Default: xdg-open (open on
	// macOS); a failure to open is not an error, the URL being shown too.
	Browser func(ctx context.Context, url string) error
	// AtStart signs in whenever a server asks, without waiting for the
	// person to ask (the conformance client, whose browser is automated).
	AtStart bool
}

// WithDefaults is o with its defaults filled in: a token store of its own
// (the keyring, or memory where none runs) when o names none, and the
// system browser. Whoever holds the result shares its token store, so a
// System resolves its options once and hands the result to its actors.
func (o *SignInOptions) WithDefaults() *SignInOptions {
	c := SignInOptions{}
	if o != nil {
		c = *o
	}
	if c.OAuth.Tokens == nil {
		c.OAuth.Tokens = &keys.Tokens{}
	}
	if c.Browser == nil {
		c.Browser = OpenBrowser
	}
	return &c
}

// OpenBrowser opens url in the desktop's browser, without waiting for it.
func OpenBrowser(_ context.Context, url string) error {
	name := "xdg-open"
	if runtime.GOOS == "darwin" {
		name = "open"
	}
	cmd := exec.Command(name, url)
	if err := cmd.Start(); err != nil {
		return nil // the URL is shown to copy
	}
	go cmd.Wait()
	return nil
}

// signInTimeout bounds a sign-in from the browser's opening to the
// server's tools.
const signInTimeout = 10 * time.Minute

// Internal messages of a server actor's sign-in.
type (
	// signInNeeded: a live connection's sign-in ran out.
	signInNeeded struct {
		gen    int
		reason string
	}
	// signInURL: the sign-in's page, opened in the browser.
	signInURL struct {
		gen int
		url string
	}
	signedOut struct {
		sender *actor.PID
		err    error
	}
)

// authState is a server actor's sign-in state.
type authState struct {
	signingIn bool         // the current attempt may sign in (the person asked)
	waiters   []*actor.PID // SignIn requests waiting for its outcome (a *ServerStatus)
}

// signInDone answers the SignIn requests waiting for the outcome.
func (a *serverActor) signInDone(c actor.Context) {
	for _, w := range a.auth.waiters {
		st := a.status
		c.Send(w, &st)
	}
	a.auth.waiters = nil
}

// oauthURL is the server's URL when it may sign in with OAuth: an HTTP
// server without a static token.
func oauthURL(srv config.Server) string {
	if srv.URL == "" || srv.AuthToken != "" || srv.AuthEnv != "" || srv.EffectiveTransport() == config.TransportSSE {
		return ""
	}
	return srv.URL
}

// dialTimeout bounds one connection attempt: longer while the person signs
// in.
func (a *serverActor) dialTimeout() time.Duration {
	d := a.deps.mcp.DialTimeout(a.srv)
	if a.auth.signingIn {
		d = max(d, signInTimeout)
	}
	return d
}

// attempt adds this attempt's sign-in and elicitation to the options the
// system dials with.
func (a *serverActor) attempt(c actor.Context, gen int) func(*mcp.Options) {
	base := a.deps.signIn // defaults filled in at Spawn
	interactive := a.auth.signingIn || base.AtStart
	fresh := a.auth.signingIn && !base.AtStart
	self, root := c.Self(), c.ActorSystem().Root
	addSecrets, onElicit := a.deps.addSecrets, a.elicitor(c)
	return func(o *mcp.Options) {
		oa := base.OAuth
		oa.Fresh = fresh
		oa.OnSecrets = addSecrets
		oa.OnSignInNeeded = func(reason string) { root.Send(self, &signInNeeded{gen: gen, reason: reason}) }
		if interactive {
			browser := base.Browser
			oa.SignIn = func(ctx context.Context, u string) error {
				root.Send(self, &signInURL{gen: gen, url: u})
				return browser(ctx, u)
			}
		}
		o.OAuth = &oa
		o.OnElicit = onElicit
	}
}

// authReceive handles the sign-in's and elicitation's messages.
func (a *serverActor) authReceive(c actor.Context, msg any) {
	switch m := msg.(type) {
	case *SignIn:
		if oauthURL(a.srv) == "" {
			a.log.Info("sign-in asked for a server that does not sign in", "server", a.alias)
			if c.Sender() != nil {
				st := a.status
				st.Reason = "this server does not sign in with OAuth (it has a static token, or is not an HTTP server)"
				c.Respond(&st)
			}
			return
		}
		if c.Sender() != nil {
			a.auth.waiters = append(a.auth.waiters, c.Sender())
		}
		a.failCalls(fmt.Errorf("server %s is signing in again", a.alias))
		a.drop()
		a.auth.signingIn = true
		a.status.Attempts, a.status.NextRetry = 0, time.Time{}
		a.status.SignInURL = ""
		a.setState(c, StateSigningIn, "opening the browser to sign in")
		a.dial(c)
	case *signInURL:
		if m.gen == a.gen && a.status.State == StateSigningIn {
			a.status.SignInURL = m.url
			host := ""
			if u, err := url.Parse(m.url); err == nil {
				host = u.Host
			}
			a.setState(c, StateSigningIn, "waiting for you to sign in at "+host+" in your browser")
		}
	case *signInNeeded:
		if m.gen == a.gen && a.conn != nil {
			a.log.Info("sign-in needed again", "reason", m.reason)
			a.failCalls(fmt.Errorf("server %s: %s: sign in again", a.alias, m.reason))
			a.drop()
			a.status.SignedIn, a.status.Account = false, ""
			a.status.Failure = mcp.FailureSignIn
			a.setState(c, StateNeedsSignIn, m.reason)
		}
	case *SignOut:
		u := oauthURL(a.srv)
		sender := c.Sender()
		if u == "" {
			if sender != nil {
				c.Respond(&Done{Err: fmt.Errorf("server %s does not sign in with OAuth (it has a static token, or none)", a.alias)})
			}
			return
		}
		tokens := a.deps.signIn.OAuth.Tokens
		self, root := c.Self(), c.ActorSystem().Root
		go func() {
			// The keyring may take its time (or ask to be unlocked).
			root.Send(self, &signedOut{sender: sender, err: tokens.Remove(u)})
		}()
	case *signedOut:
		if m.err == nil {
			a.failCalls(fmt.Errorf("server %s: signed out", a.alias))
			a.failWaiting(c, fmt.Errorf("server %s: signed out", a.alias))
			a.drop()
			a.auth.signingIn = false
			a.status.SignedIn, a.status.Account, a.status.SignInURL = false, "", ""
			a.status.Failure = mcp.FailureSignIn
			a.setState(c, StateNeedsSignIn, "signed out")
		}
		if m.sender != nil {
			c.Send(m.sender, &Done{Err: m.err})
		}
	case *elicitAsk:
		a.elicitAsked(c, m)
	}
}

// signInFailed turns a failed attempt that needs (or was) a sign-in into
// the needs-sign-in state, with no retry: it reports whether it did.
func (a *serverActor) signInFailed(c actor.Context, err error) bool {
	was := a.auth.signingIn
	a.auth.signingIn = false
	a.status.SignInURL = ""
	if !was && !errors.Is(err, mcp.ErrSignInRequired) {
		return false
	}
	reason := err.Error()
	var se *mcp.SignInError
	switch {
	case errors.As(err, &se):
		reason = se.Reason
	case was:
		reason = "signing in did not finish: " + err.Error()
	}
	a.failWaiting(c, fmt.Errorf("server %s needs you to sign in (%s)", a.alias, reason))
	a.log.Info("needs sign-in", "reason", reason)
	a.status.Failure = mcp.FailureSignIn
	a.status.NextRetry = time.Time{}
	a.status.SignedIn, a.status.Account = false, ""
	a.setState(c, StateNeedsSignIn, reason)
	if was {
		a.signInDone(c)
	}
	return true
}

// signedIn notes a new connection's sign-in in the status.
func (a *serverActor) signedIn(conn *mcp.Conn) {
	a.auth.signingIn = false
	a.status.SignInURL = ""
	a.status.Account, a.status.SignedIn = conn.Account()
}

// TokensWarning says why sign-ins are kept in memory only (no keyring), or
// "". Of o's own token store: ask the options given to Spawn, defaults
// filled in (WithDefaults), not a copy that fills them in again.
func (o *SignInOptions) TokensWarning() string {
	if o == nil || o.OAuth.Tokens == nil {
		return ""
	}
	return o.OAuth.Tokens.Warning()
}
