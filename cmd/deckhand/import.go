package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"

	"deckhand/config"
	"deckhand/terminal"
)

// runImport adds the servers of a Claude Desktop or VS Code config file.
func runImport(_ context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("import", flag.ContinueOnError)
	dryRun := fs.Bool("dry-run", false, "")
	asJSON := fs.Bool("json", false, "")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	bosun := len(rest) == 2 && rest[0] == "bosun"
	if bosun {
		rest = rest[1:]
	}
	if len(rest) != 1 {
		return usagef("usage: deckhand import [bosun] FILE [--dry-run] [--json]\n  FILE is a claude_desktop_config.json (mcpServers), a VS Code mcp.json (servers), or (with bosun, or a .toml file) Bosun's agent.toml")
	}
	data, err := os.ReadFile(rest[0])
	if err != nil {
		return err
	}
	cfg, err := e.loadConfigForUpdate()
	if err != nil {
		return err
	}
	if bosun || strings.HasSuffix(rest[0], ".toml") {
		return importBosun(e, cfg, rest[0], data, *dryRun, *asJSON)
	}
	home, _ := os.UserHomeDir()
	rep, err := config.ParseImport(rest[0], data, home, cfg.MCP.Servers)
	if err != nil {
		return err
	}
	if len(rep.Added) > 0 && !*dryRun {
		add := map[string]config.Server{}
		for _, a := range rep.Added {
			add[a.Alias] = a.Server
		}
		if err := config.AddServers(cfg.Path, add); err != nil {
			return err
		}
	}
	if *asJSON {
		out := struct {
			Format  string          `json:"format"`
			Config  string          `json:"config"`
			DryRun  bool            `json:"dry_run"`
			Added   []importAdded   `json:"added"`
			Skipped []importSkipped `json:"skipped"`
		}{Format: rep.Format, Config: cfg.Path, DryRun: *dryRun, Added: importedJSON(rep.Added), Skipped: skippedJSON(rep.Skipped)}
		return writeJSON(e.stdout, out)
	}
	w := e.stdout
	n := len(rep.Added) + len(rep.Skipped)
	fmt.Fprintf(w, "Read %s (%s): %d %s\n", rest[0], rep.Format, n, plural(n, "server", "servers"))
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, a := range rep.Added {
		from := ""
		if a.From != a.Alias {
			from = fmt.Sprintf(" (from %q)", a.From)
		}
		fmt.Fprintf(tw, "  added\t%s\t%s%s\n", a.Alias, terminal.Shorten(a.Server.Endpoint(), 70), from)
	}
	for _, s := range rep.Skipped {
		fmt.Fprintf(tw, "  skipped\t%s\t%s\n", s.Name, s.Reason)
	}
	tw.Flush()
	switch {
	case len(rep.Added) == 0:
		fmt.Fprintln(w, "Nothing to add.")
	case *dryRun:
		fmt.Fprintf(w, "Dry run: %s was not changed.\n", cfg.Path)
	default:
		fmt.Fprintf(w, "Saved %d server(s) to %s. Check them with: deckhand mcp list\n", len(rep.Added), cfg.Path)
	}
	return nil
}

// importBosun carries Bosun's agent.toml over: its settings where the config
// leaves them unset, its servers, and a list of what did not map and why.
func importBosun(e *env, cfg *config.Config, name string, data []byte, dryRun, asJSON bool) error {
	current, err := os.ReadFile(cfg.Path)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	rep, err := config.ParseBosun(name, data, current, cfg.MCP.Servers)
	if err != nil {
		return err
	}
	if !dryRun {
		if len(rep.Edits) > 0 {
			if err := config.Update(cfg.Path, rep.Edits, nil); err != nil {
				return err
			}
		}
		if len(rep.Added) > 0 {
			add := map[string]config.Server{}
			for _, a := range rep.Added {
				add[a.Alias] = a.Server
			}
			if err := config.AddServers(cfg.Path, add); err != nil {
				return err
			}
		}
	}
	if asJSON {
		type setting struct {
			Key   string `json:"key"`
			Value any    `json:"value"`
		}
		out := struct {
			Format    string          `json:"format"`
			Config    string          `json:"config"`
			DryRun    bool            `json:"dry_run"`
			Set       []setting       `json:"set"`
			Added     []importAdded   `json:"added"`
			Skipped   []importSkipped `json:"skipped"`
			NotMapped []importSkipped `json:"not_mapped"`
		}{Format: "Bosun", Config: cfg.Path, DryRun: dryRun, Set: []setting{}, Added: importedJSON(rep.Added), Skipped: skippedJSON(rep.Skipped), NotMapped: skippedJSON(rep.NotMapped)}
		for _, ed := range rep.Edits {
			out.Set = append(out.Set, setting{ed.Table + "." + ed.Key, ed.Value})
		}
		return writeJSON(e.stdout, out)
	}
	w := e.stdout
	fmt.Fprintf(w, "Read %s (Bosun): %d setting(s), %d server(s)\n", name, len(rep.Edits), len(rep.Added)+len(rep.Skipped))
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, ed := range rep.Edits {
		fmt.Fprintf(tw, "  set\t%s.%s\t%v\n", ed.Table, ed.Key, ed.Value)
	}
	for _, a := range rep.Added {
		fmt.Fprintf(tw, "  added\t%s\t%s\n", a.Alias, terminal.Shorten(a.Server.Endpoint(), 70))
	}
	for _, s := range rep.Skipped {
		fmt.Fprintf(tw, "  skipped\t%s\t%s\n", s.Name, s.Reason)
	}
	for _, s := range rep.NotMapped {
		fmt.Fprintf(tw, "  not mapped\t%s\t%s\n", s.Name, s.Reason)
	}
	tw.Flush()
	switch {
	case len(rep.Added) == 0 && len(rep.Edits) == 0:
		fmt.Fprintln(w, "Nothing to change.")
	case dryRun:
		fmt.Fprintf(w, "Dry run: %s was not changed.\n", cfg.Path)
	default:
		fmt.Fprintf(w, "Saved to %s. Check it with: deckhand doctor\n", cfg.Path)
	}
	return nil
}

// importAdded and importSkipped are an import's servers in --json.
type importAdded struct {
	Alias    string `json:"alias"`
	From     string `json:"from"`
	Endpoint string `json:"endpoint"`
}

type importSkipped struct {
	Name   string `json:"name"`
	Reason string `json:"reason"`
}

func importedJSON(list []config.Imported) []importAdded {
	out := []importAdded{}
	for _, a := range list {
		out = append(out, importAdded{a.Alias, a.From, a.Server.Endpoint()})
	}
	return out
}

func skippedJSON(list []config.Skipped) []importSkipped {
	out := []importSkipped{}
	for _, s := range list {
		out = append(out, importSkipped{s.Name, s.Reason})
	}
	return out
}
