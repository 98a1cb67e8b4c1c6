package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"deckhand/terminal"
	"deckhand/tools"
)

// mcpSearch runs tool_search's search over every server's tools.
func mcpSearch(ctx context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("mcp search", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	server := fs.String("server", "", "")
	limit := fs.Int("limit", tools.DefaultSearchLimit, "")
	asJSON := fs.Bool("json", false, "")
	maxWait := fs.Duration("wait", shortWait, "")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	query := strings.TrimSpace(strings.Join(rest, " "))
	if query == "" {
		return usagef("mcp search wants words to search for, such as: deckhand mcp search create calendar event")
	}
	if *limit < 1 {
		return usagef("--limit must be at least 1")
	}
	var only []string
	if *server != "" {
		only = []string{*server}
	}
	sys, cat, _, err := e.catalog(ctx, " (its tools are not searched)", *maxWait, only...)
	if err != nil {
		return err
	}
	defer e.stopSystem(sys)
	matches := cat.Search(query, *server, *limit)
	if *asJSON {
		type matchJSON struct {
			toolJSON
			Score      float64 `json:"score"`
			Risk       string  `json:"risk"`
			Parameters string  `json:"parameters"`
		}
		out := []matchJSON{}
		for _, m := range matches {
			out = append(out, matchJSON{toToolJSON(m.Tool, false), m.Score, m.Risk, m.Preview})
		}
		return writeJSON(e.stdout, out)
	}
	if len(matches) == 0 {
		fmt.Fprintf(e.stdout, "No tool matches %q.\n", query)
		return nil
	}
	for _, m := range matches {
		risk := m.Risk
		if !m.Tool.Trusted && risk != "unknown" {
			risk += " (hint)"
		}
		fmt.Fprintf(e.stdout, "%s  [%s]\n  %s\n  %s\n", m.Tool.Display, risk, m.Preview, terminal.Shorten(terminal.FirstLine(m.Tool.Def.Description), 110))
	}
	return nil
}
