package main

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"unicode/utf8"

	"deckhand/actors/conversation"
	"deckhand/actors/servers"
	"deckhand/clean"
	"deckhand/config"
	"deckhand/terminal"
	"deckhand/tools"
)

// `deckhand mcp resources [ALIAS]` and `deckhand mcp read [ALIAS:]URI`.

func mcpResources(ctx context.Context, e *env, args []string) error {
	return eachServer(ctx, e, "mcp resources", args, terminal.ResourcesOf, terminal.PrintResources)
}

func mcpRead(ctx context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("mcp read", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 1 {
		return usagef("usage: deckhand mcp read [ALIAS:]URI")
	}
	cfg, err := e.loadConfig()
	if err != nil {
		return err
	}
	alias, uri := splitResourceArg(rest[0], cfg)
	var only []string
	if alias != "" {
		only = []string{alias}
	}
	sys, list, err := e.connect(ctx, cfg, 0, only...)
	if err != nil {
		return err
	}
	defer e.stopSystem(sys)
	if alias != "" && len(list) == 1 && list[0].State != servers.StateReady && list[0].State != servers.StateIdle {
		return fmt.Errorf("server %s: %s", alias, terminal.StateText(list[0]))
	}
	read, err := terminal.ReadResource(ctx, sys, alias, uri)
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(e.stdout, map[string]any{"server": read.Alias, "uri": read.URI, "contents": read.Contents})
	}
	fmt.Fprint(e.stdout, describeContents(read))
	return nil
}

// splitResourceArg reads ALIAS:URI when ALIAS is a configured server.
func splitResourceArg(arg string, cfg *config.Config) (alias, uri string) {
	var srvs []servers.ServerStatus
	for a := range cfg.MCP.Servers {
		srvs = append(srvs, servers.ServerStatus{Alias: a})
	}
	return servers.SplitResource(arg, srvs)
}

// describeContents prints what a resource holds: text as it is (cleaned),
// a blob that is text the same, other blobs as a line saying what they
// are.
func describeContents(r *servers.ResourceRead) string {
	var b strings.Builder
	for i, c := range r.Contents {
		if len(r.Contents) > 1 || c.URI != r.URI && c.URI != "" {
			if i > 0 {
				b.WriteString("\n")
			}
			fmt.Fprintf(&b, "== %s\n", conversation.ResourceName(c.URI))
		}
		text := c.Text
		if text == "" && c.Blob != nil {
			if !utf8.Valid(c.Blob) || slices.Contains(c.Blob, 0) {
				kind := http.DetectContentType(c.Blob)
				fmt.Fprintf(&b, "[%s, %s]\n", kind, tools.Size(len(c.Blob)))
				continue
			}
			text = string(c.Blob)
		}
		text = clean.Text(text)
		b.WriteString(text)
		if text != "" && !strings.HasSuffix(text, "\n") {
			b.WriteString("\n")
		}
	}
	if len(r.Contents) == 0 {
		b.WriteString("(the server returned no contents)\n")
	}
	return b.String()
}
