package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/terminal"
	"deckhand/tools"
)

type toolJSON struct {
	Name         string               `json:"name"`
	Server       string               `json:"server"`
	Tool         string               `json:"tool"`
	WireName     string               `json:"wire_name"`
	Title        string               `json:"title,omitempty"`
	Description  string               `json:"description,omitempty"`
	Annotations  *sdk.ToolAnnotations `json:"annotations,omitempty"`
	Warnings     []string             `json:"warnings,omitempty"`
	New          bool                 `json:"new,omitempty"`     // added to a known server lately
	Changed      bool                 `json:"changed,omitempty"` // differs from its pinned definition
	InputSchema  any                  `json:"input_schema,omitempty"`
	OutputSchema any                  `json:"output_schema,omitempty"`
}

func toToolJSON(t tools.Tool, full bool) toolJSON {
	j := toolJSON{Name: t.Display, Server: t.Server, Tool: t.Name, WireName: t.Wire, Title: t.Def.Title, Description: t.Def.Description, Warnings: t.Warnings()}
	if full {
		j.Annotations, j.InputSchema, j.OutputSchema = t.Def.Annotations, t.Def.InputSchema, t.Def.OutputSchema
	}
	return j
}

func mcpTool(ctx context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("mcp tool", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 1 {
		return usagef("usage: deckhand mcp tool ALIAS.TOOL")
	}
	sys, cfg, err := connectOne(ctx, e, rest[0])
	if err != nil {
		return err
	}
	defer e.stopSystem(sys)
	cat, err := sys.Catalog(ctx)
	if err != nil {
		return err
	}
	t, ok := cat.Lookup(rest[0])
	if !ok {
		msg := fmt.Sprintf("unknown tool %q", rest[0])
		if s := cat.Suggest(rest[0], 3); len(s) > 0 {
			msg += " (did you mean " + strings.Join(s, ", ") + "?)"
		}
		return errors.New(msg)
	}
	if *asJSON {
		return writeJSON(e.stdout, toToolJSON(t, true))
	}
	w := e.stdout
	fmt.Fprintf(w, "%s\n", t.Display)
	if t.Def.Title != "" {
		fmt.Fprintf(w, "title:      %s\n", t.Def.Title)
	}
	fmt.Fprintf(w, "wire name:  %s\n", t.Wire)
	for _, warn := range t.Warnings() {
		fmt.Fprintf(w, "warning:    %s\n", warn)
	}
	if t.Def.Description != "" {
		fmt.Fprintf(w, "\n%s\n", strings.TrimSpace(t.Def.Description))
	}
	if a := t.Def.Annotations; a != nil {
		if cfg.MCP.Servers[t.Server].Trusted {
			fmt.Fprintf(w, "\nannotations (the server is trusted):\n")
		} else {
			fmt.Fprintf(w, "\nannotations (hints from an untrusted server):\n")
		}
		if a.Title != "" {
			fmt.Fprintf(w, "  title:           %s\n", a.Title)
		}
		fmt.Fprintf(w, "  read-only:       %v\n", a.ReadOnlyHint)
		if a.DestructiveHint != nil {
			fmt.Fprintf(w, "  destructive:     %v\n", *a.DestructiveHint)
		}
		fmt.Fprintf(w, "  idempotent:      %v\n", a.IdempotentHint)
		if a.OpenWorldHint != nil {
			fmt.Fprintf(w, "  open world:      %v\n", *a.OpenWorldHint)
		}
	}
	terminal.PrintSchema(w, "input schema", t.Def.InputSchema)
	terminal.PrintSchema(w, "output schema", t.Def.OutputSchema)
	return nil
}
