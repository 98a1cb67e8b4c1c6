package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"unicode/utf8"

	"deckhand/agent"
	"deckhand/clean"
	"deckhand/config"
	"deckhand/conversation"
	"deckhand/servers"
	"deckhand/tools"
)

// `deckhand mcp resources [ALIAS]` and `deckhand mcp read [ALIAS:]URI`.

func mcpResources(ctx context.Context, e *env, args []string) error {
	return eachServer(ctx, e, "mcp resources", args, resourcesOf, printAllResources)
}

// resourcesOf is server s's resources and templates.
func resourcesOf(ctx context.Context, sys *agent.System, s servers.ServerStatus) (resourcesJSON, error) {
	l, err := sys.Resources(ctx, s.Alias)
	if err != nil {
		return resourcesJSON{}, err
	}
	return resourcesJSON{Server: s.Alias, Protocol: s.ProtocolVersion, Offered: l.Offered, Subscribe: l.Subscribe,
		Resources: orEmpty(l.Resources), Templates: orEmpty(l.Templates), Truncated: l.Truncated, LeftOut: l.LeftOut}, nil
}

func printAllResources(w io.Writer, out []resourcesJSON) {
	for i, l := range out {
		if i > 0 {
			fmt.Fprintln(w)
		}
		printResources(w, l)
	}
}

// resourcesJSON is one server's listing in `mcp resources --json`.
type resourcesJSON struct {
	Server    string                     `json:"server"`
	Protocol  string                     `json:"protocol,omitempty"`
	Offered   bool                       `json:"offered"`
	Subscribe bool                       `json:"subscribe,omitempty"`
	Resources []servers.Resource         `json:"resources"`
	Templates []servers.ResourceTemplate `json:"templates"`
	Truncated bool                       `json:"truncated,omitempty"`
	LeftOut   int                        `json:"left_out,omitempty"`
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// printResources prints one server's resources and templates (their texts
// were cleaned by the actors).
func printResources(w io.Writer, l resourcesJSON) {
	head := l.Server
	if l.Protocol != "" {
		head += " (protocol " + l.Protocol + ")"
	}
	if !l.Offered {
		fmt.Fprintf(w, "%s: no resources\n", head)
		return
	}
	notes := []string{fmt.Sprintf("%d %s, %d %s", len(l.Resources), plural(len(l.Resources), "resource", "resources"), len(l.Templates), plural(len(l.Templates), "template", "templates"))}
	if l.Subscribe {
		notes = append(notes, "subscriptions")
	}
	fmt.Fprintf(w, "%s: %s\n", head, strings.Join(notes, ", "))
	for _, r := range l.Resources {
		line := "  " + r.URI
		if label := servers.Label(r.Name, r.Title); label != "" && label != r.URI {
			line += "  " + label
		}
		if r.MIMEType != "" {
			line += " [" + r.MIMEType + "]"
		}
		if d := firstLine(r.Description); d != "" {
			line += " — " + shorten(d, 80)
		}
		fmt.Fprintln(w, line)
	}
	if len(l.Templates) > 0 {
		fmt.Fprintln(w, "  templates:")
		for _, t := range l.Templates {
			line := "  " + t.URITemplate
			if label := servers.Label(t.Name, t.Title); label != "" {
				line += "  " + label
			}
			if d := firstLine(t.Description); d != "" {
				line += " — " + shorten(d, 80)
			}
			fmt.Fprintln(w, line)
		}
	}
	if l.Truncated {
		fmt.Fprintln(w, "  (the server listed more: the rest are left out)")
	}
	if l.LeftOut > 0 {
		fmt.Fprintf(w, "  (%d left out: their URIs are not one clean line)\n", l.LeftOut)
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
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
		return fmt.Errorf("server %s: %s", alias, stateText(list[0]))
	}
	read, err := readResource(ctx, sys, alias, uri)
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

// readResource reads uri from alias, or (alias "") from the one server
// that lists it or has a template for it.
func readResource(ctx context.Context, sys *agent.System, alias, uri string) (*servers.ResourceRead, error) {
	if alias == "" {
		found, err := sys.FindResource(ctx, uri)
		if err != nil {
			return nil, err
		}
		switch len(found) {
		case 0:
			return nil, fmt.Errorf("no ready server lists %s (or has a template for it): name the server as ALIAS:URI", clean.Line(uri))
		case 1:
			alias = found[0]
		default:
			slices.Sort(found)
			return nil, fmt.Errorf("%s is offered by %s: name the server as ALIAS:URI", clean.Line(uri), strings.Join(found, ", "))
		}
	}
	return sys.ReadResource(ctx, alias, uri)
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
