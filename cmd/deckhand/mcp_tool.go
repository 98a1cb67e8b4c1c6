package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/actors/servers"
	"deckhand/clean"
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
	openLogQuietly(ctx, e) // which quarantined tools were released
	if e.logDB != nil {
		defer e.logDB.Close()
	}
	sys, cfg, err := connectOne(ctx, e, rest[0])
	if err != nil {
		return err
	}
	defer e.stopSystem(sys)
	// Every listed tool, quarantined and disabled ones too: this is where
	// a person looks one over.
	cat, err := sys.AllTools(ctx)
	if err != nil {
		return err
	}
	t, ok := cat.Lookup(rest[0])
	if !ok {
		return unknownTool(cat, rest[0])
	}
	if *asJSON {
		return writeJSON(e.stdout, toToolJSON(t, true))
	}
	printTool(e.stdout, t, cfg.MCP.Servers[t.Server].Trusted)
	if q, err := sys.Quarantined(ctx); err == nil && slices.ContainsFunc(q, func(x tools.Tool) bool { return x.Display == t.Display }) {
		fmt.Fprintf(e.stdout, "\nquarantined: not offered to the model until you release it: %s\n", servers.HowToRelease(t.Display))
	}
	return nil
}

// unknownTool is the error for a name no tool of cat has, with the names
// it looks like.
func unknownTool(cat *tools.Catalog, name string) error {
	msg := fmt.Sprintf("unknown tool %q", name)
	if s := cat.Suggest(name, 3); len(s) > 0 {
		msg += " (did you mean " + strings.Join(s, ", ") + "?)"
	}
	return errors.New(msg)
}

// printTool prints a tool's whole definition, its flags first (each with
// its kind).
func printTool(w io.Writer, t tools.Tool, trusted bool) {
	fmt.Fprintf(w, "%s\n", t.Display)
	if t.Def.Title != "" {
		fmt.Fprintf(w, "title:      %s\n", t.Def.Title)
	}
	fmt.Fprintf(w, "wire name:  %s\n", t.Wire)
	for _, f := range t.Flags {
		fmt.Fprintf(w, "warning:    %s (%s)\n", clean.Line(f.Text), f.Kind)
	}
	if t.Def.Description != "" {
		fmt.Fprintf(w, "\n%s\n", strings.TrimSpace(t.Def.Description))
	}
	if a := t.Def.Annotations; a != nil {
		if trusted {
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
}

// openLogQuietly opens the log for a command that reads what it holds of
// tools (pins, reviews) but works without it.
func openLogQuietly(ctx context.Context, e *env) {
	if db, err := e.openLog(ctx); err == nil {
		e.logDB = db
	}
}
