package main

import (
	"context"
	"flag"
	"fmt"
	"net/url"
	"time"

	"deckhand/keys"
)

// mcpLogin signs in to a server that asks for it (OAuth): the browser opens
// at the server's sign-in page, whose address is printed too, and the
// tokens go to the keyring.
func mcpLogin(ctx context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("mcp login", flag.ContinueOnError)
	timeout := fs.Duration("timeout", 10*time.Minute, "")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 1 {
		return usagef("usage: deckhand mcp login ALIAS [--timeout DURATION]")
	}
	alias := rest[0]
	cfg, err := e.loadConfig()
	if err != nil {
		return err
	}
	srv, ok := cfg.MCP.Servers[alias]
	switch {
	case !ok:
		return usagef("no server named %q in %s", alias, cfg.Path)
	case srv.URL == "":
		return usagef("%s is a local server (a command): only HTTP servers sign in", alias)
	case srv.AuthToken != "" || srv.AuthEnv != "":
		return usagef("%s uses a bearer token (auth_token or auth_env): remove it from the config to sign in instead", alias)
	}
	sys, _, err := e.connect(ctx, cfg, shortWait, alias)
	if err != nil {
		return err
	}
	defer e.stopSystem(sys)
	sctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	host := srv.URL
	if u, err := url.Parse(srv.URL); err == nil {
		host = u.Host
	}
	fmt.Fprintf(e.stderr, "Signing in to %s (%s)…\n", alias, host)
	st, err := sys.SignIn(sctx, alias, func(page string) {
		where := page
		if u, err := url.Parse(page); err == nil {
			where = u.Host
		}
		fmt.Fprintf(e.stderr, "Your browser should open at %s to sign in. If it does not, open this address:\n\n  %s\n\n", where, page)
	})
	if err != nil {
		return err
	}
	who := "signed in"
	if st.Account != "" {
		who = "signed in as " + st.Account
	}
	fmt.Fprintf(e.stdout, "%s: %s, %d %s\n", alias, who, st.Tools, plural(st.Tools, "tool", "tools"))
	if w := sys.TokensWarning(); w != "" {
		fmt.Fprintf(e.stderr, "warning: %s\n", w)
	}
	return nil
}

// mcpLogout forgets a server's sign-in: its tokens leave the keyring.
func mcpLogout(ctx context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("mcp logout", flag.ContinueOnError)
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 1 {
		return usagef("usage: deckhand mcp logout ALIAS")
	}
	alias := rest[0]
	cfg, err := e.loadConfig()
	if err != nil {
		return err
	}
	srv, ok := cfg.MCP.Servers[alias]
	if !ok {
		return usagef("no server named %q in %s", alias, cfg.Path)
	}
	if srv.URL == "" {
		return usagef("%s is a local server (a command): it has no sign-in", alias)
	}
	// No connection needed: the tokens are the sign-in.
	if err := (&keys.Tokens{}).Remove(srv.URL); err != nil {
		return fmt.Errorf("removing the sign-in from the keyring: %w", err)
	}
	fmt.Fprintf(e.stdout, "%s: signed out\n", alias)
	return nil
}
