package terminal

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"deckhand/actors"
	"deckhand/actors/servers"
	"deckhand/clean"
)

// The servers' prompts and resources as the chat lists them (:prompts,
// :resources) and as `deckhand mcp prompts` and `mcp resources` do.

// PromptsOf is server s's prompts.
func PromptsOf(ctx context.Context, sys *actors.System, s servers.ServerStatus) (ServerPrompts, error) {
	l, err := sys.Prompts(ctx, s.Alias)
	if err != nil {
		return ServerPrompts{}, err
	}
	return ServerPrompts{Server: s.Alias, Protocol: s.ProtocolVersion, Offered: l.Offered, Prompts: orEmpty(l.Prompts), Truncated: l.Truncated}, nil
}

// PrintPrompts prints the servers' prompts as they are typed in a chat
// (/ALIAS.PROMPT ARG=…), with their arguments.
func PrintPrompts(w io.Writer, out []ServerPrompts) {
	for _, l := range out {
		printServerPrompts(w, l)
	}
}

// ServerPrompts is one server's prompts, as `mcp prompts --json` prints
// them.
type ServerPrompts struct {
	Server    string           `json:"server"`
	Protocol  string           `json:"protocol,omitempty"`
	Offered   bool             `json:"offered"`
	Prompts   []servers.Prompt `json:"prompts"`
	Truncated bool             `json:"truncated,omitempty"`
}

// printServerPrompts prints one server's prompts.
func printServerPrompts(w io.Writer, l ServerPrompts) {
	if !l.Offered {
		fmt.Fprintf(w, "%s: no prompts\n", l.Server)
		return
	}
	for _, p := range l.Prompts {
		line := "/" + l.Server + "." + p.Name
		for _, a := range p.Arguments {
			if a.Required {
				line += " " + a.Name + "=…"
			} else {
				line += " [" + a.Name + "=…]"
			}
		}
		if d := FirstLine(servers.Label(p.Description, p.Title)); d != "" {
			line += "  — " + Shorten(d, 80)
		}
		fmt.Fprintln(w, line)
		for _, a := range p.Arguments {
			if d := FirstLine(servers.Label(a.Description, a.Title)); d != "" {
				req := ""
				if a.Required {
					req = " (required)"
				}
				fmt.Fprintf(w, "    %s%s: %s\n", a.Name, req, Shorten(d, 80))
			}
		}
	}
	if l.Truncated {
		fmt.Fprintf(w, "  (%s listed more: the rest are left out)\n", l.Server)
	}
}

// ResourcesOf is server s's resources and templates.
func ResourcesOf(ctx context.Context, sys *actors.System, s servers.ServerStatus) (ServerResources, error) {
	l, err := sys.Resources(ctx, s.Alias)
	if err != nil {
		return ServerResources{}, err
	}
	return ServerResources{Server: s.Alias, Protocol: s.ProtocolVersion, Offered: l.Offered, Subscribe: l.Subscribe,
		Resources: orEmpty(l.Resources), Templates: orEmpty(l.Templates), Truncated: l.Truncated, LeftOut: l.LeftOut}, nil
}

// PrintResources prints the servers' resources and templates.
func PrintResources(w io.Writer, out []ServerResources) {
	for i, l := range out {
		if i > 0 {
			fmt.Fprintln(w)
		}
		printServerResources(w, l)
	}
}

// ServerResources is one server's resources and templates, as `mcp
// resources --json` prints them.
type ServerResources struct {
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

// printServerResources prints one server's resources and templates (their texts
// were cleaned by the actors).
func printServerResources(w io.Writer, l ServerResources) {
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
		if d := FirstLine(r.Description); d != "" {
			line += " — " + Shorten(d, 80)
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
			if d := FirstLine(t.Description); d != "" {
				line += " — " + Shorten(d, 80)
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

// ReadResource reads uri from alias, or (alias "") from the one server
// that lists it or has a template for it.
func ReadResource(ctx context.Context, sys *actors.System, alias, uri string) (*servers.ResourceRead, error) {
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

// readyListing is what :resources and :prompts in deckhand chat share: the
// listings of the ready servers (or of the one alias given), as text.
func readyListing[T any](ctx context.Context, sys *actors.System, args []string,
	list func(context.Context, *actors.System, servers.ServerStatus) (T, error), print func(io.Writer, []T)) string {
	srvs, err := sys.ServerStatuses(ctx, false)
	if err != nil {
		return err.Error() + "\n"
	}
	var b strings.Builder
	var out []T
	for _, s := range srvs {
		if len(args) > 0 && s.Alias != args[0] || s.State != servers.StateReady {
			continue
		}
		l, err := list(ctx, sys, s)
		if err != nil {
			fmt.Fprintf(&b, "%s: %v\n", s.Alias, err)
			continue
		}
		out = append(out, l)
	}
	print(&b, out)
	if b.Len() == 0 {
		return "No ready servers.\n"
	}
	return b.String()
}
