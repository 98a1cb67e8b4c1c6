package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"strings"
	"text/tabwriter"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/actors"
	"deckhand/config"
	"deckhand/tools"
)

const mcpUsage = `Usage:
  deckhand mcp list [--json] [--wait DURATION]
  deckhand mcp tools [ALIAS] [--json] [--wait DURATION]
  deckhand mcp tool ALIAS.TOOL [--json]
  deckhand mcp search QUERY... [--server ALIAS] [--limit N] [--json] [--wait DURATION]
  deckhand mcp call ALIAS.TOOL [JSON_ARGS | -] [--json] [--timeout DURATION]
  deckhand mcp connect (URL | -- COMMAND ARGS...) [--alias A] [--transport T] [--auth-env VAR] [--save] [--json]

list     every configured server: transport, endpoint, state (with the reason
         when it failed), protocol version and tool count
tools    every tool as alias.tool with a one-line description
tool     one tool's whole definition: schemas and annotations
search   find tools by what they do, as the model's tool_search does: name,
         risk (from the annotations), parameters and description
call     call a tool; JSON_ARGS is a JSON object ("-" reads it from stdin);
         a tool error exits 1 with the error text
connect  try a server that is not in the config, list its tools, and with
         --save add it to the config

--wait   list, tools and search say what they know after this long (default
         3s); servers still starting are shown as connecting
`

func runMCP(ctx context.Context, e *env, args []string) error {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprint(e.stdout, mcpUsage)
		return nil
	}
	sub := map[string]func(context.Context, *env, []string) error{
		"list":    mcpList,
		"tools":   mcpTools,
		"tool":    mcpTool,
		"search":  mcpSearch,
		"call":    mcpCall,
		"connect": mcpConnect,
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

type statusJSON struct {
	Alias           string    `json:"alias"`
	State           string    `json:"state"`
	Reason          string    `json:"reason,omitempty"`
	Transport       string    `json:"transport"`
	Endpoint        string    `json:"endpoint"`
	ProtocolVersion string    `json:"protocol_version,omitempty"`
	Server          string    `json:"server,omitempty"`
	Tools           int       `json:"tools"`
	NextRetry       time.Time `json:"next_retry,omitzero"`
}

func toStatusJSON(s actors.ServerStatus) statusJSON {
	server := s.ServerName
	if s.ServerVersion != "" {
		server += " " + s.ServerVersion
	}
	return statusJSON{
		Alias: s.Alias, State: string(s.State), Reason: s.Reason, Transport: s.Transport, Endpoint: s.Endpoint,
		ProtocolVersion: s.ProtocolVersion, Server: server, Tools: s.Tools, NextRetry: s.NextRetry,
	}
}

func mcpList(ctx context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("mcp list", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "")
	maxWait := fs.Duration("wait", shortWait, "")
	if rest, err := parseFlags(fs, args); err != nil {
		return err
	} else if len(rest) > 0 {
		return usagef("mcp list takes no arguments")
	}
	cfg, err := e.loadConfig()
	if err != nil {
		return err
	}
	sys, list, err := e.connect(ctx, cfg, *maxWait)
	if err != nil {
		return err
	}
	defer e.stopSystem(sys)
	if *asJSON {
		out := make([]statusJSON, len(list))
		for i, s := range list {
			out[i] = toStatusJSON(s)
		}
		return writeJSON(e.stdout, out)
	}
	if len(list) == 0 {
		fmt.Fprintf(e.stdout, "No MCP servers configured in %s.\n\n%s", cfg.Path, addServerHint)
		return nil
	}
	printStatuses(e.stdout, list)
	return nil
}

const addServerHint = `Add one with, for example:
  deckhand mcp connect --save -- npx -y @modelcontextprotocol/server-filesystem ~/Documents
  deckhand mcp connect --save https://example.com/mcp --alias example --auth-env EXAMPLE_TOKEN
  deckhand import ~/.config/Claude/claude_desktop_config.json
or edit the config file (see the README's config reference).
`

func printStatuses(w io.Writer, list []actors.ServerStatus) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ALIAS\tTRANSPORT\tPROTOCOL\tTOOLS\tENDPOINT\tSTATE")
	for _, s := range list {
		tools, proto := "-", "-"
		if s.State == actors.StateReady {
			tools = fmt.Sprint(s.Tools)
		}
		if s.ProtocolVersion != "" {
			proto = s.ProtocolVersion
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", s.Alias, s.Transport, proto, tools, shorten(s.Endpoint, 48), stateText(s))
	}
	tw.Flush()
}

// stateText is the state with its reason, and when the next attempt is due.
func stateText(s actors.ServerStatus) string {
	out := string(s.State)
	if s.Reason != "" {
		out += ": " + s.Reason
	}
	if !s.NextRetry.IsZero() && s.State != actors.StateReady {
		if d := time.Until(s.NextRetry); d >= time.Second {
			out += fmt.Sprintf(" (retrying in %v)", d.Round(time.Second))
		}
	}
	return out
}

func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

func mcpTools(ctx context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("mcp tools", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "")
	maxWait := fs.Duration("wait", shortWait, "")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 1 {
		return usagef("mcp tools takes at most one alias")
	}
	sys, cat, list, err := e.catalog(ctx, "", *maxWait, rest...)
	if err != nil {
		return err
	}
	defer e.stopSystem(sys)
	if *asJSON {
		out := []toolJSON{}
		for _, t := range cat.Tools() {
			out = append(out, toToolJSON(t, false))
		}
		return writeJSON(e.stdout, out)
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	for _, t := range cat.Tools() {
		fmt.Fprintf(tw, "%s\t%s\n", t.Display, shorten(firstLine(t.Def.Description), 100))
	}
	tw.Flush()
	if cat.Len() == 0 && len(list) == 0 {
		fmt.Fprintf(e.stdout, "No MCP servers configured.\n\n%s", addServerHint)
	}
	return nil
}

// catalog connects the configured servers (or only those named), waits at
// most maxWait, and returns the tools of those ready, saying on stderr which
// servers are down or still connecting, with note after the reason. An idle
// on-demand server is not down: its tools are those of its last
// connection. On success the caller must stopSystem.
func (e *env) catalog(ctx context.Context, note string, maxWait time.Duration, only ...string) (*actors.System, *tools.Catalog, []actors.ServerStatus, error) {
	cfg, err := e.loadConfig()
	if err != nil {
		return nil, nil, nil, err
	}
	sys, list, err := e.connect(ctx, cfg, maxWait, only...)
	if err != nil {
		return nil, nil, nil, err
	}
	cat, err := sys.Catalog(ctx)
	if err != nil {
		e.stopSystem(sys)
		return nil, nil, nil, err
	}
	for _, s := range list {
		if s.State != actors.StateReady && s.State != actors.StateIdle {
			fmt.Fprintf(e.stderr, "%s: %s%s\n", s.Alias, stateText(s), note)
		}
	}
	return sys, cat, list, nil
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	return s
}

type toolJSON struct {
	Name         string               `json:"name"`
	Server       string               `json:"server"`
	Tool         string               `json:"tool"`
	WireName     string               `json:"wire_name"`
	Title        string               `json:"title,omitempty"`
	Description  string               `json:"description,omitempty"`
	Annotations  *sdk.ToolAnnotations `json:"annotations,omitempty"`
	InputSchema  any                  `json:"input_schema,omitempty"`
	OutputSchema any                  `json:"output_schema,omitempty"`
}

func toToolJSON(t tools.Tool, full bool) toolJSON {
	j := toolJSON{Name: t.Display, Server: t.Server, Tool: t.Name, WireName: t.Wire, Title: t.Def.Title, Description: t.Def.Description}
	if full {
		j.Annotations, j.InputSchema, j.OutputSchema = t.Def.Annotations, t.Def.InputSchema, t.Def.OutputSchema
	}
	return j
}

// connectOne starts only the server of alias.tool and waits for it.
func connectOne(ctx context.Context, e *env, name string) (*actors.System, *config.Config, error) {
	alias, _, ok := strings.Cut(name, ".")
	if !ok {
		return nil, nil, usagef("want ALIAS.TOOL, got %q", name)
	}
	cfg, err := e.loadConfig()
	if err != nil {
		return nil, nil, err
	}
	sys, list, err := e.connect(ctx, cfg, 0, alias)
	if err != nil {
		return nil, nil, err
	}
	if len(list) == 1 && list[0].State != actors.StateReady {
		e.stopSystem(sys)
		return nil, nil, fmt.Errorf("server %s: %s", alias, stateText(list[0]))
	}
	return sys, cfg, nil
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
	printSchema(w, "input schema", t.Def.InputSchema)
	printSchema(w, "output schema", t.Def.OutputSchema)
	return nil
}

func printSchema(w io.Writer, label string, schema any) {
	if schema == nil {
		return
	}
	data, err := json.Marshal(schema)
	if err != nil || string(data) == "null" {
		return
	}
	fmt.Fprintf(w, "\n%s:\n%s\n", label, tools.PrettyJSON(data))
}

func mcpCall(ctx context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("mcp call", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "")
	timeout := fs.Duration("timeout", 0, "")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) < 1 || len(rest) > 2 {
		return usagef("usage: deckhand mcp call ALIAS.TOOL [JSON_ARGS | -]")
	}
	raw := []byte("{}")
	if len(rest) == 2 {
		raw = []byte(rest[1])
		if rest[1] == "-" {
			if raw, err = io.ReadAll(e.stdin); err != nil {
				return fmt.Errorf("reading arguments from stdin: %w", err)
			}
		}
	}
	if err := checkArgs(raw); err != nil {
		return err
	}
	sys, _, err := connectOne(ctx, e, rest[0])
	if err != nil {
		return err
	}
	defer e.stopSystem(sys)

	cctx := ctx
	if *timeout > 0 {
		var cancel context.CancelFunc
		cctx, cancel = context.WithTimeout(ctx, *timeout)
		defer cancel()
	}
	res, err := sys.CallTool(cctx, rest[0], raw, func(p *actors.ToolProgress) {
		fmt.Fprintf(e.stderr, "progress: %s\n", progressText(p))
	})
	if err != nil {
		return err
	}
	if res.Err != nil {
		return res.Err
	}
	if *asJSON {
		if err := writeJSON(e.stdout, res.Result); err != nil {
			return err
		}
	} else {
		out := e.stdout
		if res.Result.IsError {
			out = e.stderr
		}
		text := tools.RenderResult(res.Result)
		fmt.Fprint(out, text)
		if !strings.HasSuffix(text, "\n") {
			fmt.Fprintln(out)
		}
	}
	if res.Result.IsError {
		return &silentError{code: exitFailure}
	}
	return nil
}

// checkArgs insists on one JSON object, saying where it went wrong.
func checkArgs(raw []byte) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	var v any
	if err := dec.Decode(&v); err != nil {
		var se *json.SyntaxError
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			return usagef("JSON_ARGS: the JSON ends early (is the object closed?)")
		}
		if errors.As(err, &se) {
			return usagef("JSON_ARGS: %v at byte %d", err, se.Offset)
		}
		return usagef("JSON_ARGS: %v", err)
	}
	if _, ok := v.(map[string]any); !ok {
		return usagef("JSON_ARGS must be a JSON object, like '{\"path\": \"/tmp\"}'")
	}
	if dec.More() {
		return usagef("JSON_ARGS: text after the JSON object")
	}
	return nil
}

func progressText(p *actors.ToolProgress) string {
	s := fmt.Sprintf("%g", p.Progress.Progress)
	if p.Progress.Total > 0 {
		s += fmt.Sprintf("/%g", p.Progress.Total)
	}
	if p.Progress.Message != "" {
		s += " " + p.Progress.Message
	}
	return s
}

func mcpConnect(ctx context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("mcp connect", flag.ContinueOnError)
	alias := fs.String("alias", "", "")
	transport := fs.String("transport", "", "")
	authEnv := fs.String("auth-env", "", "")
	save := fs.Bool("save", false, "")
	asJSON := fs.Bool("json", false, "")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) == 0 {
		return usagef("usage: deckhand mcp connect (URL | -- COMMAND ARGS...) [--alias A] [--save]")
	}
	var srv config.Server
	if u, err := url.Parse(rest[0]); err == nil && (u.Scheme == "http" || u.Scheme == "https") && len(rest) == 1 {
		srv = config.Server{URL: rest[0], Transport: *transport, AuthEnv: *authEnv}
	} else {
		srv = config.Server{Command: rest[0], Args: rest[1:], Transport: *transport}
		if *authEnv != "" {
			return usagef("--auth-env applies to URL servers; pass secrets to a command through its environment")
		}
	}
	if *alias == "" {
		*alias = config.DeriveAlias(srv)
	}
	if err := config.CheckServer(*alias, srv); err != nil {
		return usagef("%v", err)
	}
	cfg, err := e.loadConfigForUpdate()
	if err != nil {
		return err
	}
	if _, taken := cfg.MCP.Servers[*alias]; taken && *save {
		return usagef("%s already has a server named %q; choose another with --alias", cfg.Path, *alias)
	}
	trial := *cfg
	trial.MCP.Servers = map[string]config.Server{*alias: srv}
	sys, list, err := e.connect(ctx, &trial, 0)
	if err != nil {
		return err
	}
	defer e.stopSystem(sys)
	st := list[0]
	cat, err := sys.Catalog(ctx)
	if err != nil {
		return err
	}
	if *asJSON {
		out := struct {
			statusJSON
			ToolList []toolJSON `json:"tool_list"`
			Saved    string     `json:"saved_to,omitempty"`
		}{statusJSON: toStatusJSON(st)}
		for _, t := range cat.Tools() {
			out.ToolList = append(out.ToolList, toToolJSON(t, false))
		}
		if st.State == actors.StateReady && *save {
			if err := config.AddServers(cfg.Path, map[string]config.Server{*alias: srv}); err != nil {
				return err
			}
			out.Saved = cfg.Path
		}
		if err := writeJSON(e.stdout, out); err != nil {
			return err
		}
		if st.State != actors.StateReady {
			return &silentError{code: exitFailure}
		}
		return nil
	}
	if st.State != actors.StateReady {
		return fmt.Errorf("%s (%s): %s", *alias, srv.Endpoint(), stateText(st))
	}
	server := st.ServerName
	if st.ServerVersion != "" {
		server += " " + st.ServerVersion
	}
	fmt.Fprintf(e.stdout, "Connected to %s as %q over %s (protocol %s): %d tools\n\n", server, *alias, st.Transport, st.ProtocolVersion, cat.Len())
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	for _, t := range cat.Tools() {
		fmt.Fprintf(tw, "  %s\t%s\n", t.Display, shorten(firstLine(t.Def.Description), 90))
	}
	tw.Flush()
	if *save {
		if err := config.AddServers(cfg.Path, map[string]config.Server{*alias: srv}); err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "\nSaved as [mcp.servers.%s] in %s\n", *alias, cfg.Path)
	} else {
		fmt.Fprintf(e.stdout, "\nNot saved; add --save to keep it in %s\n", cfg.Path)
	}
	return nil
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

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
		fmt.Fprintf(e.stdout, "%s  [%s]\n  %s\n  %s\n", m.Tool.Display, risk, m.Preview, shorten(firstLine(m.Tool.Def.Description), 110))
	}
	return nil
}
