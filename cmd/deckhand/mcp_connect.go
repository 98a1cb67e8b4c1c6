package main

import (
	"context"
	"flag"
	"fmt"
	"net/url"
	"text/tabwriter"

	"deckhand/actors/servers"
	"deckhand/config"
	"deckhand/terminal"
)

func mcpConnect(ctx context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("mcp connect", flag.ContinueOnError)
	alias := fs.String("alias", "", "")
	transport := fs.String("transport", "", "")
	authEnv := fs.String("auth-env", "", "")
	save := fs.Bool("save", false, "")
	asJSON := fs.Bool("json", false, "")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) == 0 {
		return usagef("usage: deckhand mcp connect (URL | -- COMMAND ARGS...) [--alias A] [--save]")
	}
	var srv config.Server
	if u, err := url.Parse(rest[0]); err == nil && (u.Scheme == "http" || u.Scheme == "https") && len(rest) == 1 {
		srv = config.Server{URL: rest[0], Transport: *transport, AuthEnv: *authEnv}
	} else {
		srv = config.Server{Command: rest[0], Args: rest[1:], Transport: *transport}
		if *authEnv != "" {
			return usagef("--auth-env applies to URL servers; pass secrets to a command through its environment")
		}
	}
	if *alias == "" {
		*alias = config.DeriveAlias(srv)
	}
	if err := config.CheckServer(*alias, srv); err != nil {
		return usagef("%v", err)
	}
	cfg, err := e.loadConfigForUpdate()
	if err != nil {
		return err
	}
	if _, taken := cfg.MCP.Servers[*alias]; taken && *save {
		return usagef("%s already has a server named %q; choose another with --alias", cfg.Path, *alias)
	}
	trial := *cfg
	trial.MCP.Servers = map[string]config.Server{*alias: srv}
	sys, list, err := e.connect(ctx, &trial, 0)
	if err != nil {
		return err
	}
	defer e.stopSystem(sys)
	st := list[0]
	cat, err := sys.Catalog(ctx)
	if err != nil {
		return err
	}
	if *asJSON {
		out := struct {
			statusJSON
			ToolList []toolJSON `json:"tool_list"`
			Saved    string     `json:"saved_to,omitempty"`
		}{statusJSON: toStatusJSON(st)}
		for _, t := range cat.Tools() {
			out.ToolList = append(out.ToolList, toToolJSON(t, false))
		}
		if st.State == servers.StateReady && *save {
			if err := config.AddServers(cfg.Path, map[string]config.Server{*alias: srv}); err != nil {
				return err
			}
			out.Saved = cfg.Path
		}
		if err := writeJSON(e.stdout, out); err != nil {
			return err
		}
		if st.State != servers.StateReady {
			return &silentError{code: exitFailure}
		}
		return nil
	}
	if st.State != servers.StateReady {
		return fmt.Errorf("%s (%s): %s", *alias, srv.Endpoint(), terminal.StateText(st))
	}
	server := st.ServerName
	if st.ServerVersion != "" {
		server += " " + st.ServerVersion
	}
	fmt.Fprintf(e.stdout, "Connected to %s as %q over %s (protocol %s): %d %s\n\n", server, *alias, st.Transport, st.ProtocolVersion, cat.Len(), plural(cat.Len(), "tool", "tools"))
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	for _, t := range cat.Tools() {
		fmt.Fprintf(tw, "  %s\t%s\n", t.Display, terminal.Shorten(terminal.FirstLine(t.Def.Description), 90))
	}
	tw.Flush()
	if *save {
		if err := config.AddServers(cfg.Path, map[string]config.Server{*alias: srv}); err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "\nSaved as [mcp.servers.%s] in %s\n", *alias, cfg.Path)
	} else {
		fmt.Fprintf(e.stdout, "\nNot saved; add --save to keep it in %s\n", cfg.Path)
	}
	return nil
}
