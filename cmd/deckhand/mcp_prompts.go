package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"deckhand/actors"
	"deckhand/actors/servers"
	"deckhand/terminal"
)

// `deckhand mcp prompts [ALIAS]`. The listing is package terminal's, which
// also offers the prompts as slash commands in `deckhand chat`
// (/alias.prompt arg=value …).

func mcpPrompts(ctx context.Context, e *env, args []string) error {
	return eachServer(ctx, e, "mcp prompts", args, terminal.PromptsOf, terminal.PrintPrompts)
}

// eachServer is what `mcp prompts` and `mcp resources` share: their flags
// (--json, --wait), the config, the servers connected (all, or the one
// alias given), one listing per server that is ready (or connects on
// demand; the others are said on stderr, as is a listing that failed),
// then the listings as JSON or as text.
func eachServer[T any](ctx context.Context, e *env, name string, args []string,
	list func(context.Context, *actors.System, servers.ServerStatus) (T, error), print func(io.Writer, []T)) error {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "")
	maxWait := fs.Duration("wait", shortWait, "")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 1 {
		return usagef("%s takes at most one alias", name)
	}
	cfg, err := e.loadConfig()
	if err != nil {
		return err
	}
	sys, srvs, err := e.connect(ctx, cfg, *maxWait, rest...)
	if err != nil {
		return err
	}
	defer e.stopSystem(sys)
	out := []T{}
	for _, s := range srvs {
		if s.State != servers.StateReady && s.State != servers.StateIdle {
			fmt.Fprintf(e.stderr, "%s: %s\n", s.Alias, terminal.StateText(s))
			continue
		}
		l, err := list(ctx, sys, s)
		if err != nil {
			fmt.Fprintf(e.stderr, "%s: %v\n", s.Alias, err)
			continue
		}
		out = append(out, l)
	}
	if *asJSON {
		return writeJSON(e.stdout, out)
	}
	if len(srvs) == 0 {
		fmt.Fprintf(e.stdout, "No MCP servers configured in %s.\n\n%s", cfg.Path, addServerHint)
		return nil
	}
	print(e.stdout, out)
	return nil
}
