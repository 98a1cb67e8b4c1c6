package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"deckhand/actors"
	"deckhand/config"
	"deckhand/transport/mcp"
)

// runOverview is what plain `deckhand` does until the window exists: show the
// config and the servers, and how to add one.
func runOverview(ctx context.Context, e *env) error {
	cfg, err := e.loadConfig()
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "Deckhand %s\nConfig: %s", version, cfg.Path)
	if _, err := os.Stat(cfg.Path); errors.Is(err, fs.ErrNotExist) {
		fmt.Fprint(e.stdout, " (not created yet: using defaults)")
	}
	fmt.Fprint(e.stdout, "\n\n")
	if len(cfg.MCP.Servers) == 0 {
		fmt.Fprintf(e.stdout, "No MCP servers configured.\n\n%s", addServerHint)
		return nil
	}
	sys, err := e.startSystem(cfg)
	if err != nil {
		return err
	}
	defer e.stopSystem(sys)
	list, err := settle(ctx, sys, defaultWait(cfg))
	if err != nil {
		return err
	}
	printStatuses(e.stdout, list)
	fmt.Fprint(e.stdout, "\nTry: deckhand mcp tools · deckhand mcp call ALIAS.TOOL '{...}' · deckhand doctor\n")
	return nil
}

// runDoctor checks the config and every server and says what to fix.
func runDoctor(ctx context.Context, e *env, args []string) error {
	flags := flag.NewFlagSet("doctor", flag.ContinueOnError)
	if rest, err := parseFlags(flags, args); err != nil {
		return err
	} else if len(rest) > 0 {
		return usagef("doctor takes no arguments")
	}
	w := e.stdout
	problems := 0
	cfg, err := e.loadConfig()
	var cerr *config.Error
	switch {
	case errors.As(err, &cerr):
		fmt.Fprintf(w, "✗ config %s has %d problem(s):\n", cerr.File, len(cerr.Problems))
		for _, p := range cerr.Problems {
			fmt.Fprintf(w, "    %s\n", (&config.Error{File: filepath.Base(cerr.File), Problems: []config.Problem{p}}).Error())
		}
		fmt.Fprintln(w, "  fix: edit the file; the README's config reference lists every key")
		return &silentError{code: exitFailure}
	case err != nil:
		return err
	}
	if _, err := os.Stat(cfg.Path); errors.Is(err, fs.ErrNotExist) {
		fmt.Fprintf(w, "✓ config %s does not exist yet: defaults apply\n", cfg.Path)
	} else {
		fmt.Fprintf(w, "✓ config %s is valid\n", cfg.Path)
	}
	if len(cfg.MCP.Servers) == 0 {
		fmt.Fprintf(w, "\nNo MCP servers configured.\n\n%s", addServerHint)
		return nil
	}

	paths := &mcp.PathResolver{}
	sys, err := e.startSystem(cfg)
	if err != nil {
		return err
	}
	defer e.stopSystem(sys)
	list, err := settle(ctx, sys, defaultWait(cfg))
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\nServers (%d):\n", len(list))
	for _, st := range list {
		srv := cfg.MCP.Servers[st.Alias]
		notes := staticChecks(st.Alias, srv, paths, e.getenv)
		switch st.State {
		case actors.StateReady:
			fmt.Fprintf(w, "✓ %s: ready over %s, protocol %s, %d tools\n", st.Alias, st.Transport, st.ProtocolVersion, st.Tools)
		case actors.StateStopped:
			fmt.Fprintf(w, "– %s: %s\n", st.Alias, st.Reason)
			continue
		case actors.StateConnecting:
			problems++
			fmt.Fprintf(w, "✗ %s: still connecting after %v\n", st.Alias, defaultWait(cfg))
			notes = append(notes, fmt.Sprintf("fix: it may be slow to start (raise mcp.servers.%s.connect_timeout) or stuck; try: deckhand -v mcp tools %s", st.Alias, st.Alias))
		default:
			problems++
			fmt.Fprintf(w, "✗ %s: %s\n", st.Alias, st.Reason)
			notes = append(notes, "fix: "+advice(st, srv, cfg, e.getenv))
		}
		for _, n := range notes {
			fmt.Fprintf(w, "    %s\n", n)
		}
	}
	if problems > 0 {
		fmt.Fprintf(w, "\n%d of %d servers need attention.\n", problems, len(list))
		return &silentError{code: exitFailure}
	}
	fmt.Fprintln(w, "\nAll good.")
	return nil
}

// staticChecks are facts found without connecting: where a command was
// found, and whether a token's variable is set.
func staticChecks(alias string, srv config.Server, paths *mcp.PathResolver, getenv func(string) (string, bool)) []string {
	var notes []string
	if srv.Disabled {
		return nil
	}
	if srv.IsStdio() {
		path, loginPath, err := paths.LookPath(srv.Command)
		switch {
		case err != nil:
		case loginPath != "":
			notes = append(notes, fmt.Sprintf("%s was found only on your login shell's PATH (%s); Deckhand uses that PATH for it", srv.Command, path))
		default:
			notes = append(notes, fmt.Sprintf("command: %s", path))
		}
		return notes
	}
	if srv.AuthEnv != "" {
		if v, ok := getenv(srv.AuthEnv); ok && strings.TrimSpace(v) != "" {
			notes = append(notes, fmt.Sprintf("token from $%s (set)", srv.AuthEnv))
		}
	}
	return notes
}

// advice says, in plain words, what to do about a failed server.
func advice(st actors.ServerStatus, srv config.Server, cfg *config.Config, getenv func(string) (string, bool)) string {
	key := "mcp.servers." + st.Alias
	switch st.Failure {
	case mcp.FailureNotFound:
		switch filepath.Base(srv.Command) {
		case "npx", "node", "npm":
			return fmt.Sprintf("install Node.js (it provides %s), or set %s.command to its full path", srv.Command, key)
		case "uvx", "uv":
			return fmt.Sprintf("install uv (https://docs.astral.sh/uv/), or set %s.command to its full path", key)
		case "docker":
			return fmt.Sprintf("install Docker, or set %s.command to its full path", key)
		}
		return fmt.Sprintf("install %s, or set %s.command to its full path", srv.Command, key)
	case mcp.FailureAuth:
		switch {
		case srv.AuthEnv != "":
			if v, ok := getenv(srv.AuthEnv); !ok || strings.TrimSpace(v) == "" {
				return fmt.Sprintf("set %s to the server's token in the environment Deckhand starts from (export %s=…)", srv.AuthEnv, srv.AuthEnv)
			}
			return fmt.Sprintf("the server refused the token in $%s: check it, and that it is for %s", srv.AuthEnv, srv.Endpoint())
		case srv.AuthToken != "":
			return fmt.Sprintf("the server refused %s.auth_token: replace it with a valid token", key)
		}
		return fmt.Sprintf("the server wants a token: set %s.auth_env to the name of an environment variable holding it", key)
	case mcp.FailureUnreachable:
		return fmt.Sprintf("nothing answers at %s: is the server running? check the host and port", srv.Endpoint())
	case mcp.FailureHTTP:
		return fmt.Sprintf("check the URL's path (MCP endpoints are often /mcp, or /sse for older servers), or set %s.transport", key)
	case mcp.FailureTimeout:
		return fmt.Sprintf("no answer within %v: the server may be slow to start (raise %s.connect_timeout) or stuck", cfg.MCP.DialTimeout(srv), key)
	case mcp.FailureExited:
		return fmt.Sprintf("the command stops at start; run it in a terminal to see why: %s", srv.Endpoint())
	}
	if srv.IsStdio() {
		return fmt.Sprintf("the process does not speak MCP on stdout (is it an MCP server? does it print logs to stdout?): %s", srv.Endpoint())
	}
	return "the URL answers, but not as an MCP server: check it, or set " + key + ".transport"
}
