package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"deckhand/actors/servers"
	"deckhand/config"
	"deckhand/policy"
	"deckhand/transport/mcp"
)

// doctorReport is what doctor found; --json prints it as is.
type doctorReport struct {
	Config struct {
		Path     string   `json:"path"`
		Exists   bool     `json:"exists"`
		Problems []string `json:"problems,omitempty"`
	} `json:"config"`
	// Model is the model chats are sent to, or how to set one.
	Model struct {
		Configured bool   `json:"configured"`
		Name       string `json:"name,omitempty"`
		BaseURL    string `json:"base_url,omitempty"`
		Fix        string `json:"fix,omitempty"`
	} `json:"model"`
	Servers []doctorServer `json:"servers"`
	// Policy are warnings about the capability policy (deckhand policy
	// shows it whole): unconfined servers, broad roots.
	Policy   []string `json:"policy_warnings"`
	Problems int      `json:"problems"`
}

type doctorServer struct {
	statusJSON
	OK    bool     `json:"ok"`
	Notes []string `json:"notes,omitempty"`
	Fix   string   `json:"fix,omitempty"`
}

// runDoctor checks the config and every server and says what to fix.
func runDoctor(ctx context.Context, e *env, args []string) error {
	flags := flag.NewFlagSet("doctor", flag.ContinueOnError)
	asJSON := flags.Bool("json", false, "")
	maxWait := flags.Duration("wait", shortWait, "")
	if rest, err := parseFlags(flags, args); err != nil {
		return err
	} else if len(rest) > 0 {
		return usagef("doctor takes no arguments")
	}
	rep, err := diagnose(ctx, e, *maxWait)
	if err != nil {
		return err
	}
	if *asJSON {
		if err := writeJSON(e.stdout, rep); err != nil {
			return err
		}
	} else {
		printDoctor(e.stdout, rep)
	}
	if rep.Problems > 0 {
		return &silentError{code: exitFailure}
	}
	return nil
}

func diagnose(ctx context.Context, e *env, maxWait time.Duration) (*doctorReport, error) {
	rep := &doctorReport{Servers: []doctorServer{}, Policy: []string{}}
	cfg, err := e.loadConfig()
	var cerr *config.Error
	switch {
	case errors.As(err, &cerr):
		rep.Config.Path, rep.Config.Exists = cerr.File, true
		for _, p := range cerr.Problems {
			rep.Config.Problems = append(rep.Config.Problems, (&config.Error{File: filepath.Base(cerr.File), Problems: []config.Problem{p}}).Error())
		}
		rep.Problems = len(cerr.Problems)
		return rep, nil
	case err != nil:
		return nil, err
	}
	rep.Config.Path = cfg.Path
	if _, err := os.Stat(cfg.Path); err == nil {
		rep.Config.Exists = true
	}
	rep.Policy = nonNil(policy.New(cfg, e.getenv).Warnings(cfg))
	rep.Model.Configured, rep.Model.Name, rep.Model.BaseURL = cfg.Model.Configured(), cfg.Model.Name, cfg.Model.BaseURL
	if !rep.Model.Configured {
		// Not a problem for the exit code: the mcp commands work without
		// one; a chat does not.
		rep.Model.Fix = fmt.Sprintf("set [model] base_url and name in %s (base_url = \"http://localhost:11434/v1\" and name = \"qwen3:8b\" for a local Ollama), or in the window's Settings", cfg.Path)
	}
	if len(cfg.MCP.Servers) == 0 {
		return rep, nil
	}
	sys, list, err := e.connect(ctx, cfg, maxWait)
	if err != nil {
		return nil, err
	}
	defer e.stopSystem(sys)
	paths := &mcp.PathResolver{}
	for _, st := range list {
		srv := cfg.MCP.Servers[st.Alias]
		d := doctorServer{statusJSON: toStatusJSON(st), Notes: staticChecks(srv, paths, e.getenv)}
		switch st.State {
		case servers.StateReady, servers.StateStopped:
			d.OK = true
		case servers.StateConnecting:
			d.Reason = fmt.Sprintf("still connecting after %v", maxWait)
			d.Fix = fmt.Sprintf("it may be slow to start (give it longer: deckhand doctor --wait %v; its limit is mcp.servers.%s.connect_timeout) or stuck; try: deckhand -v mcp tools %s --wait %v",
				cfg.MCP.DialTimeout(srv), st.Alias, st.Alias, cfg.MCP.DialTimeout(srv))
		default:
			d.Fix = advice(st, srv, cfg, e.getenv)
		}
		if !d.OK {
			rep.Problems++
		}
		rep.Servers = append(rep.Servers, d)
	}
	return rep, nil
}

func printDoctor(w io.Writer, rep *doctorReport) {
	switch {
	case len(rep.Config.Problems) > 0:
		fmt.Fprintf(w, "✗ config %s has %d problem(s):\n", rep.Config.Path, len(rep.Config.Problems))
		for _, p := range rep.Config.Problems {
			fmt.Fprintf(w, "    %s\n", p)
		}
		fmt.Fprintln(w, "  fix: edit the file; the README's config reference lists every key")
		return
	case !rep.Config.Exists:
		fmt.Fprintf(w, "✓ config %s does not exist yet: defaults apply\n", rep.Config.Path)
	default:
		fmt.Fprintf(w, "✓ config %s is valid\n", rep.Config.Path)
	}
	if !rep.Model.Configured {
		fmt.Fprintln(w, "! no model is configured: chats cannot be answered")
		fmt.Fprintf(w, "  fix: %s\n", rep.Model.Fix)
	}
	for _, warn := range rep.Policy {
		fmt.Fprintf(w, "! %s\n", warn)
	}
	if len(rep.Policy) > 0 {
		fmt.Fprintln(w, "  (deckhand policy shows the policy in effect)")
	}
	if len(rep.Servers) == 0 {
		fmt.Fprintf(w, "\nNo MCP servers configured.\n\n%s", addServerHint)
		return
	}
	fmt.Fprintf(w, "\nServers (%d):\n", len(rep.Servers))
	for _, d := range rep.Servers {
		switch {
		case d.State == string(servers.StateReady):
			fmt.Fprintf(w, "✓ %s: ready over %s, protocol %s, %d %s\n", d.Alias, d.Transport, d.ProtocolVersion, d.Tools, plural(d.Tools, "tool", "tools"))
		case d.State == string(servers.StateStopped):
			fmt.Fprintf(w, "– %s: %s\n", d.Alias, d.Reason)
			continue
		default:
			fmt.Fprintf(w, "✗ %s: %s\n", d.Alias, d.Reason)
		}
		for _, n := range d.Notes {
			fmt.Fprintf(w, "    %s\n", n)
		}
		if d.Fix != "" {
			fmt.Fprintf(w, "    fix: %s\n", d.Fix)
		}
	}
	if rep.Problems > 0 {
		fmt.Fprintf(w, "\n%d of %d %s %s attention.\n", rep.Problems, len(rep.Servers), plural(len(rep.Servers), "server", "servers"), plural(rep.Problems, "needs", "need"))
		return
	}
	fmt.Fprintln(w, "\nAll good.")
}

// staticChecks are facts found without connecting: where a command was
// found, and whether a token's variable is set.
func staticChecks(srv config.Server, paths *mcp.PathResolver, getenv func(string) (string, bool)) []string {
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
func advice(st servers.ServerStatus, srv config.Server, cfg *config.Config, getenv func(string) (string, bool)) string {
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
		if srv.SandboxOn() {
			// Unconfined in a terminal, it may read what the sandbox hides.
			return fmt.Sprintf("the command stops at start; run it in a terminal to see why, where it runs outside Deckhand's sandbox (if it works there, it may need a folder granted in %s.read): %s", key, srv.Endpoint())
		}
		return fmt.Sprintf("the command stops at start; run it in a terminal to see why: %s", srv.Endpoint())
	case mcp.FailureSandbox:
		// Deckhand's own failure: the command never ran.
		return fmt.Sprintf("Deckhand could not build the server's sandbox, and the command never ran: narrow %s.read or %s.write (or [policy]) as the reason above says", key, key)
	case mcp.FailureConfig:
		return fmt.Sprintf("change %s or [policy] as the reason above says (deckhand policy shows what each server may reach); the server was not started", key)
	}
	if srv.IsStdio() {
		return fmt.Sprintf("the process does not speak MCP on stdout (is it an MCP server? does it print logs to stdout?): %s", srv.Endpoint())
	}
	return "the URL answers, but not as an MCP server: check it, or set " + key + ".transport"
}
