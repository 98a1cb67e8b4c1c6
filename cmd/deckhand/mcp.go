package main

import (
	"context"
	"fmt"
	"time"

	"deckhand/config"
)

const mcpUsage = `Usage:
  deckhand mcp list [--json] [--wait DURATION]
  deckhand mcp tools [ALIAS] [--json] [--wait DURATION]
  deckhand mcp tool ALIAS.TOOL [--json]
  deckhand mcp search QUERY... [--server ALIAS] [--limit N] [--json] [--wait DURATION]
  deckhand mcp call ALIAS.TOOL [JSON_ARGS | -] [--json] [--timeout DURATION] [--full] [--no-wait]
  deckhand mcp task (get | cancel) ALIAS TASK_ID [--json]
  deckhand mcp pins [ALIAS] [--wait DURATION] | deckhand mcp pins accept ALIAS.TOOL
  deckhand mcp connect (URL | -- COMMAND ARGS...) [--alias A] [--transport T] [--auth-env VAR] [--save] [--json]
  deckhand mcp login ALIAS [--timeout DURATION] | deckhand mcp logout ALIAS
  deckhand mcp resources [ALIAS] [--json] [--wait DURATION]
  deckhand mcp read [ALIAS:]URI [--json]
  deckhand mcp prompts [ALIAS] [--json] [--wait DURATION]
  deckhand mcp scan [--json] [--wait DURATION]
  deckhand mcp review [--yes] ALIAS.TOOL

list     every configured server: transport, endpoint, state (with the reason
         when it failed), protocol version and tool count
tools    every tool as alias.tool with a one-line description
tool     one tool's whole definition: schemas and annotations
search   find tools by what they do, as the model's tool_search does: name,
         risk (from the annotations), parameters and description
call     call a tool; JSON_ARGS is a JSON object ("-" reads it from stdin);
         a tool error exits 1 with the error text
pins     each tool against its pinned definition (a changed tool is asked
         again before it runs); accept pins a tool's current definition
connect  try a server that is not in the config, list its tools, and with
         --save add it to the config
login    sign in to a server that asks for it (OAuth): the browser opens at
         its sign-in page (the address is printed too); tokens go to the
         keyring and are refreshed before they expire
logout   forget a server's sign-in (its tokens leave the keyring)
resources  each server's resources and resource templates (with its protocol)
read     read a resource: ALIAS:URI, or a URI that one server lists (or has
         a template for); binary contents are described, not printed
scan     connect every server and list, per tool, what its definition is
         flagged for (the approval's warnings); --json for an array of
         {"server","tool","flags":[{"kind","text"}]}
review   show a quarantined tool (high-risk flags, kept from the model)
         whole and, once you say so (or --yes), offer it to the model
prompts  each server's prompts, as /alias.prompt with their arguments (in
         deckhand chat, /alias.prompt ARG=VALUE … sends one)

--wait   list, tools and search say what they know after this long (default
         3s); servers still starting are shown as connecting
`

func runMCP(ctx context.Context, e *env, args []string) error {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprint(e.stdout, mcpUsage)
		return nil
	}
	sub := map[string]func(context.Context, *env, []string) error{
		"list":      mcpList,
		"tools":     mcpTools,
		"tool":      mcpTool,
		"search":    mcpSearch,
		"call":      mcpCall,
		"connect":   mcpConnect,
		"login":     mcpLogin,
		"logout":    mcpLogout,
		"pins":      mcpPins,
		"resources": mcpResources,
		"read":      mcpRead,
		"prompts":   mcpPrompts,
		"scan":      mcpScan,
		"review":    mcpReview,
		"task":      mcpTask,
	}[args[0]]
	if sub == nil {
		fmt.Fprint(e.stderr, mcpUsage)
		return usagef("unknown mcp subcommand %q", args[0])
	}
	return sub(ctx, e, args[1:])
}

// shortWait is how long commands that report on servers (mcp list, mcp
// tools, mcp search, doctor) wait by default before saying what they know:
// a server still starting is reported as connecting, never a 30 s stall.
// --wait gives slow servers longer.
const shortWait = 3 * time.Second

// defaultWait bounds how long a command that needs its servers waits for
// them: the longest connect timeout among them.
func defaultWait(cfg *config.Config) time.Duration {
	d := cfg.MCP.DialTimeout(config.Server{})
	for _, s := range cfg.MCP.Servers {
		d = max(d, cfg.MCP.DialTimeout(s))
	}
	return d + time.Second
}
