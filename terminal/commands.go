package terminal

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"deckhand/actors/conversation"
	"deckhand/actors/servers"
	"deckhand/config"
)

// helpText is :help.
const helpText = `Type a message and press Enter. While the model works you can type the next one (it waits its turn).
Approvals: [y]es once · [s]ession (this tool, until you quit) · [a]lways · [N]o (the default)

  :mcp list                   servers and their state
  :mcp tools [ALIAS]          tools, as alias.tool
  :mcp tool ALIAS.TOOL        one tool's whole definition
  :mcp connect URL [ALIAS] [--auth-env VAR | --auth-token-file FILE]
                              add a server for this session (also: :mcp connect -- COMMAND ARGS...)
  :mcp disconnect ALIAS       remove a server
  :resources [ALIAS]          servers' resources and resource templates
  :attach [ALIAS:]URI         attach a resource to your next message (kept up to date until sent, where the server offers it)
  :prompts [ALIAS]            servers' prompts, as typed: /ALIAS.PROMPT ARG=VALUE … sends one
  :stop                       stop the current answer and its tool calls (Ctrl+C does too)
  :help                       this
  :quit                       leave (Ctrl+D, or Ctrl+C when nothing runs)
`

// command runs a typed :command. What waits on the actors (:mcp,
// :resources, :prompts) runs on a goroutine of its own, which sends what
// to print back to the actor (printOut).
func (t *chat) command(c actor.Context, line string) {
	fields := strings.Fields(line)
	root, self := c.ActorSystem().Root, c.Self()
	later := func(f func(ctx context.Context) string) {
		t.commands++
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			root.Send(self, &printOut{text: f(ctx)})
		}()
	}
	switch {
	case fields[0] == ":quit" || fields[0] == ":q" || fields[0] == ":exit":
		if t.running {
			c.Send(t.conv, &conversation.StopRun{})
		}
		t.quit(nil)
	case fields[0] == ":help" || fields[0] == ":h":
		fmt.Fprint(t.info, helpText)
		t.prompt()
	case fields[0] == ":stop":
		if t.running {
			c.Send(t.conv, &conversation.StopRun{})
		} else {
			t.note("(nothing to stop)")
			t.prompt()
		}
	case fields[0] == ":attach" && len(fields) == 2:
		t.attachResource(c, fields[1])
	case fields[0] == ":resources" && len(fields) <= 2:
		later(func(ctx context.Context) string { return t.listResources(ctx, fields[1:]) })
	case fields[0] == ":prompts" && len(fields) <= 2:
		later(func(ctx context.Context) string { return t.listPrompts(ctx, fields[1:]) })
	case fields[0] == ":mcp" && len(fields) >= 2:
		later(func(ctx context.Context) string { return t.mcpCommand(ctx, fields[1], fields[2:]) })
	default:
		t.note(fmt.Sprintf("unknown command %q: :help lists them", fields[0]))
		t.prompt()
	}
}

// mcpCommand runs a :mcp command and returns what to print.
func (t *chat) mcpCommand(ctx context.Context, sub string, args []string) string {
	var b strings.Builder
	switch sub {
	case "list":
		list, err := t.sys.ServerStatuses(ctx, false)
		if err != nil {
			return err.Error() + "\n"
		}
		if len(list) == 0 {
			return "No MCP servers. Add one with :mcp connect URL [ALIAS].\n"
		}
		PrintStatuses(&b, list)
	case "tools":
		cat, err := t.sys.Catalog(ctx)
		if err != nil {
			return err.Error() + "\n"
		}
		for _, tool := range cat.Tools() {
			if len(args) == 0 || tool.Server == args[0] {
				fmt.Fprintf(&b, "%-40s %s\n", tool.Display, Shorten(FirstLine(tool.Def.Description), 80))
			}
		}
		if b.Len() == 0 {
			return "No tools.\n"
		}
	case "tool":
		if len(args) != 1 {
			return "usage: :mcp tool ALIAS.TOOL\n"
		}
		cat, err := t.sys.Catalog(ctx)
		if err != nil {
			return err.Error() + "\n"
		}
		tool, ok := cat.Lookup(args[0])
		if !ok {
			return fmt.Sprintf("unknown tool %q\n", args[0])
		}
		fmt.Fprintf(&b, "%s (wire name %s)\n%s\n", tool.Display, tool.Wire, strings.TrimSpace(tool.Def.Description))
		PrintSchema(&b, "input schema", tool.Def.InputSchema)
		PrintSchema(&b, "output schema", tool.Def.OutputSchema)
	case "connect":
		return t.connect(ctx, args)
	case "disconnect":
		if len(args) != 1 {
			return "usage: :mcp disconnect ALIAS\n"
		}
		if err := t.sys.RemoveServer(ctx, args[0]); err != nil {
			return err.Error() + "\n"
		}
		return fmt.Sprintf("Disconnected %s.\n", args[0])
	default:
		return fmt.Sprintf("unknown :mcp command %q: :help lists them\n", sub)
	}
	return b.String()
}

const connectUsage = "usage: :mcp connect URL [ALIAS] [--auth-env VAR | --auth-token-file FILE], or :mcp connect -- COMMAND ARGS...\n"

// connect handles ":mcp connect URL [ALIAS] [--auth-env VAR |
// --auth-token-file FILE]" and ":mcp connect -- COMMAND ARGS...". A URL
// server's bearer token comes from a variable or a file, never from the
// line itself (which the terminal's history would keep); it is sent as
// "Authorization: Bearer …" and removed from everything shown or logged.
func (t *chat) connect(ctx context.Context, args []string) string {
	var srv config.Server
	alias := ""
	if len(args) >= 2 && args[0] == "--" {
		srv = config.Server{Command: args[1], Args: args[2:]}
	} else {
		var pos []string
		var authEnv, tokenFile string
		for i := 0; i < len(args); i++ {
			switch a := args[i]; a {
			case "--auth-env", "--auth-token-file":
				if i+1 == len(args) {
					return fmt.Sprintf("%s needs a value\n%s", a, connectUsage)
				}
				i++
				if a == "--auth-env" {
					authEnv = args[i]
				} else {
					tokenFile = args[i]
				}
			default:
				if strings.HasPrefix(a, "-") {
					return fmt.Sprintf("unknown flag %s\n%s", a, connectUsage)
				}
				pos = append(pos, a)
			}
		}
		if len(pos) < 1 || len(pos) > 2 || (authEnv != "" && tokenFile != "") {
			return connectUsage
		}
		if u, err := url.Parse(pos[0]); err != nil || (u.Scheme != "http" && u.Scheme != "https") {
			return connectUsage
		}
		srv = config.Server{URL: pos[0], AuthEnv: authEnv}
		if len(pos) == 2 {
			alias = pos[1]
		}
		if tokenFile != "" {
			tok, err := readTokenFile(tokenFile)
			if err != nil {
				return err.Error() + "\n"
			}
			srv.AuthToken = tok
		}
	}
	if alias == "" {
		alias = config.DeriveAlias(srv)
	}
	if err := config.CheckServer(alias, srv); err != nil {
		return err.Error() + "\n"
	}
	if err := t.sys.AddServer(ctx, alias, srv); err != nil {
		return err.Error() + "\n"
	}
	for {
		list, err := t.sys.ServerStatuses(ctx, false)
		if err != nil {
			return err.Error() + "\n"
		}
		for _, s := range list {
			if s.Alias != alias || !s.Settled() {
				continue
			}
			if s.State != servers.StateReady {
				t.sys.RemoveServer(ctx, alias)
				return fmt.Sprintf("%s: %s\n", alias, StateText(s))
			}
			return fmt.Sprintf("Connected %s over %s: %d %s (for this session; deckhand mcp connect --save keeps it).\n", alias, s.Transport, s.Tools, plural(s.Tools, "tool", "tools"))
		}
		select {
		case <-ctx.Done():
			return fmt.Sprintf("%s: still connecting\n", alias)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// readTokenFile reads a bearer token from a file: its first line, trimmed.
// An empty file, or one of more than 16 KiB, is an error naming the file;
// the token itself is never part of an error.
func readTokenFile(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("--auth-token-file: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, 16<<10+1))
	if err != nil {
		return "", fmt.Errorf("--auth-token-file %s: %w", path, err)
	}
	if len(data) > 16<<10 {
		return "", fmt.Errorf("--auth-token-file %s: more than 16 KiB; a token file holds one token", path)
	}
	tok, _, _ := strings.Cut(string(data), "\n")
	if tok = strings.TrimSpace(tok); tok == "" {
		return "", fmt.Errorf("--auth-token-file %s: empty; it should hold the bearer token", path)
	}
	return tok, nil
}
