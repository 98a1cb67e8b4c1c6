package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fsnotify/fsnotify"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/actors"
	"deckhand/actors/servers"
	"deckhand/config"
	"deckhand/policy"
	"deckhand/sandbox"
	"deckhand/store"
	"deckhand/tools"
	"deckhand/toolserver"
)

const toolsUsage = `Usage:
  deckhand tools serve [--dir D] [--scope PATH] [--http ADDR [--echo]] [--sync] [--no-sandbox]
  deckhand tools list [--dir D] [--json]
  deckhand tools validate [FILE | DIR]
  deckhand tools schema

The built-in tools server: command-line programs as MCP tools, from JSON
definitions (the built-in files_, git_ and shell tools, and yours in
$XDG_CONFIG_HOME/deckhand/tools/*.json, which add to them or replace those
of the same name). Every command runs sandboxed: it reads the system and
the scope, writes only the scope, with no network and the minimal
environment.

serve     serve the tools over stdio (or streamable HTTP at ADDR/mcp with
          --http, loopback only); definitions are reloaded as their files change
list      the tools: name, whether it is offered (or why not), description
validate  check definition files (default: your folder) and say why each
          bad one is rejected: file, JSON path, reason
schema    print the definitions' JSON Schema

--dir         the folder of your definitions (default: config tools.dir)
--scope       the folder commands may read and write (default:
              $DECKHAND_TOOLS_SCOPE, else the workspace, config policy.workspace)
--http        listen at ADDR (127.0.0.1:PORT) instead of stdio
--echo        with --http: write each message in and out to stderr,
              pretty-printed after "→ STDIN:" or "← STDOUT:", for debugging
--sync        every call waits for its command, whatever the definitions and
              a call's execution_mode say (for clients that cannot await)
--no-sandbox  run commands without the tools server's sandbox (where Landlock
              is missing, or inside another sandbox that confines the server,
              such as Deckhand's own); also DECKHAND_NO_SANDBOX=1. Outside a
              sandbox, commands can then read and change any of your files
`

func runTools(ctx context.Context, e *env, args []string) error {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprint(e.stdout, toolsUsage)
		return nil
	}
	sub := map[string]func(context.Context, *env, []string) error{
		"serve":    toolsServe,
		"list":     toolsList,
		"validate": toolsValidate,
		"schema":   toolsSchema,
	}[args[0]]
	if sub == nil {
		fmt.Fprint(e.stderr, toolsUsage)
		return usagef("unknown tools subcommand %q", args[0])
	}
	return sub(ctx, e, args[1:])
}

// toolsOptions are the server's options from the config and flags.
func toolsOptions(e *env, cfg *config.Config, dir, scope string, noSandbox bool) toolserver.Options {
	if dir == "" {
		dir = cfg.Tools.DefinitionsDir()
	}
	return toolserver.Options{
		Dir:         config.ExpandPath(dir),
		Scope:       scope,
		Policy:      policy.New(cfg, e.getenv),
		NoSandbox:   noSandbox,
		Logger:      e.log.With("component", "tools"),
		Version:     version,
		OutputLimit: cfg.MCP.MaxOutputBytes,
	}
}

func toolsServe(ctx context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("tools serve", flag.ContinueOnError)
	dir := fs.String("dir", "", "")
	scope := fs.String("scope", "", "")
	addr := fs.String("http", "", "")
	tokenFile := fs.String("token-file", "", "")
	noSandbox := fs.Bool("no-sandbox", false, "")
	syncAll := fs.Bool("sync", false, "")
	echo := fs.Bool("echo", false, "")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usagef("tools serve takes no arguments")
	}
	// The environment can say what the flags say, for shell profiles and
	// service units (Ahma's R7.1.6 and R7.6.2); a flag wins.
	if *scope == "" {
		if v, ok := e.getenv("DECKHAND_TOOLS_SCOPE"); ok && v != "" {
			*scope = v
		}
	}
	if v, ok := e.getenv("DECKHAND_NO_SANDBOX"); ok && v != "" && v != "0" {
		if v != "1" {
			return usagef("DECKHAND_NO_SANDBOX=%q: set it to 1 to run commands without the tools server's sandbox, or unset it", v)
		}
		*noSandbox = true
	}
	cfg, err := e.loadConfig()
	if err != nil {
		return err
	}
	if *noSandbox {
		if outer, nested := sandbox.Nested(); nested {
			fmt.Fprintf(e.stderr, "deckhand tools: --no-sandbox inside %s: commands are confined by it alone\n", outer)
		} else {
			fmt.Fprintln(e.stderr, "deckhand tools: WARNING: --no-sandbox: commands run WITHOUT the kernel sandbox and can read and change any of your files")
		}
	}
	opts := toolsOptions(e, cfg, *dir, *scope, *noSandbox)
	opts.Sync = *syncAll
	if *echo {
		if *addr == "" {
			return usagef("--echo shows the HTTP traffic: it goes with --http (over stdio the traffic is the client's own input and output)")
		}
		opts.Echo, opts.EchoColor = e.stderr, e.isTerminal(e.stderr)
	}
	srv, err := toolserver.New(opts)
	if err != nil {
		return err
	}
	defer srv.Close()
	for _, p := range srv.Problems() {
		fmt.Fprintf(e.stderr, "deckhand tools: rejected %s\n", p)
	}
	wctx, stopWatch := context.WithCancel(ctx)
	defer stopWatch()
	go func() {
		if err := srv.Watch(wctx); err != nil {
			e.log.Warn("tool definitions are not watched", "err", err)
		}
	}()
	if *addr != "" {
		if *tokenFile == "" {
			cfgPath := e.configPath
			if cfgPath == "" {
				if cfgPath, err = config.DefaultPath(); err != nil {
					return err
				}
			}
			*tokenFile = filepath.Join(filepath.Dir(cfgPath), "tools-token")
		}
		if err := policy.Remember("token", *tokenFile); err != nil {
			return err
		}
		token, err := toolserver.Token(*tokenFile)
		if err != nil {
			return err
		}
		l, err := toolserver.Listen(*addr)
		if err != nil {
			return usagef("%v", err)
		}
		fmt.Fprintf(e.stderr, "deckhand tools: serving http://%s/mcp (scope %s)\n", l.Addr(), srv.Scope())
		fmt.Fprintf(e.stderr, "deckhand tools: clients must send the header \"Authorization: Bearer %s\" (the token is kept in %s, readable by you only)\n", token, *tokenFile)
		return srv.ServeHTTP(ctx, l, token)
	}
	// stdio: the protocol owns the process's own stdin and stdout.
	err = srv.MCP.Run(ctx, &sdk.StdioTransport{})
	if ctx.Err() != nil {
		return nil
	}
	return err
}

func toolsList(ctx context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("tools list", flag.ContinueOnError)
	dir := fs.String("dir", "", "")
	asJSON := fs.Bool("json", false, "")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usagef("tools list takes no arguments")
	}
	cfg, err := e.loadConfig()
	if err != nil {
		return err
	}
	opts := toolsOptions(e, cfg, *dir, "", false)
	if _, err := os.Stat(opts.Policy.Workspace); err != nil {
		opts.Scope = os.TempDir() // listing does not create the workspace
	}
	// Listing runs no tool, only the availability checks: without
	// Landlock it still lists, and says so.
	noLandlock := sandbox.Available() != nil
	opts.NoSandbox = noLandlock
	opts.Logger = slog.New(slog.DiscardHandler)
	srv, err := toolserver.New(opts)
	if err != nil {
		return err
	}
	defer srv.Close()
	list := srv.List()
	problems := srv.Problems()
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			Tools    []toolserver.Listed  `json:"tools"`
			Problems []toolserver.Problem `json:"problems"`
		}{list, problems})
	}
	fmt.Fprintf(e.stdout, "Definitions: built in, and %s\n", opts.Dir)
	if noLandlock {
		fmt.Fprintf(e.stdout, "No Landlock here: `tools serve` refuses to start without --no-sandbox (%v)\n", sandbox.Available())
	}
	for _, t := range list {
		if !t.Available {
			fmt.Fprintf(e.stdout, "  %-16s not offered: %s\n", t.Name, t.Why)
			continue
		}
		mode := "async"
		if t.Synchronous {
			mode = "sync"
		}
		risk := "writes"
		if t.Annotations != nil && t.Annotations.ReadOnlyHint {
			risk = "read-only"
		} else if t.Annotations != nil && t.Annotations.DestructiveHint != nil && *t.Annotations.DestructiveHint {
			risk = "destructive"
		}
		desc, _, _ := strings.Cut(t.Description, ". ")
		fmt.Fprintf(e.stdout, "  %-16s %-5s %-11s %s\n", t.Name, mode, risk, desc)
	}
	for _, p := range problems {
		fmt.Fprintf(e.stdout, "rejected: %s\n", p)
	}
	return nil
}

func toolsValidate(ctx context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("tools validate", flag.ContinueOnError)
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 1 {
		return usagef("tools validate takes one file or folder")
	}
	target := ""
	if len(rest) == 1 {
		target = rest[0]
	} else {
		cfg, err := e.loadConfig()
		if err != nil {
			return err
		}
		target = cfg.Tools.DefinitionsDir()
	}
	var files []*toolserver.File
	var problems []toolserver.Problem
	st, err := os.Stat(target)
	switch {
	case err != nil:
		return err
	case st.IsDir():
		files, problems = toolserver.ReadDir(target)
	default:
		f, err := toolserver.ParseFile(target)
		if err != nil {
			var de *toolserver.DefError
			if !asDefError(err, &de) {
				return err
			}
			problems = de.Problems
		} else {
			files = []*toolserver.File{f}
		}
	}
	builtin, _ := toolserver.Builtin()
	cat := toolserver.Assemble(builtin, files)
	problems = append(problems, cat.Problems...)
	for _, f := range files {
		var names []string
		for _, t := range f.Tools {
			names = append(names, t.Name)
		}
		fmt.Fprintf(e.stdout, "ok %s: %s\n", f.Path, strings.Join(names, ", "))
	}
	for _, r := range cat.Replaced {
		fmt.Fprintf(e.stdout, "replaces %s\n", r)
	}
	for _, p := range problems {
		fmt.Fprintf(e.stdout, "rejected %s\n", p)
	}
	if len(files) == 0 && len(problems) == 0 {
		fmt.Fprintf(e.stdout, "no definitions (*.json) in %s\n", filepath.Clean(target))
	}
	if len(problems) > 0 {
		return &silentError{code: exitFailure}
	}
	return nil
}

func asDefError(err error, target **toolserver.DefError) bool {
	de, ok := err.(*toolserver.DefError)
	if ok {
		*target = de
	}
	return ok
}

func toolsSchema(ctx context.Context, e *env, args []string) error {
	if len(args) > 0 {
		return usagef("tools schema takes no arguments")
	}
	_, err := e.stdout.Write(toolserver.SchemaJSON)
	return err
}

// lazyLocal is the built-in tools server "local" for the window and
// deckhand chat, built when first needed: its definitions read, its
// regular expressions compiled, its folder watched.
type lazyLocal struct {
	cfg *config.Config
	e   *env

	once   sync.Once
	mu     sync.Mutex
	srv    *toolserver.Server
	err    error
	cancel context.CancelFunc
	done   bool // Deckhand is ending
	built  chan struct{}
	ended  chan struct{} // closed by stop: the wake watch ends too
	// allowExec is policy.allow_exec as it is now: the shell is offered
	// only with it (followPolicy).
	allowExec atomic.Bool
	// sys is the system the server is connected in, once started: a
	// reload that changes only what is left out has it listed again.
	sys atomic.Pointer[actors.System]
}

// localTools returns the built-in tools server, not yet built; nil when the
// config turns it off.
func (e *env) localTools(cfg *config.Config) *lazyLocal {
	if !cfg.Tools.On() {
		return nil
	}
	l := &lazyLocal{cfg: cfg, e: e, built: make(chan struct{}), ended: make(chan struct{})}
	l.allowExec.Store(policy.New(cfg, e.getenv).AllowExec)
	return l
}

// followPolicy offers or withdraws the shell as policy.allow_exec changes
// (in Settings): the server built lists its tools again; one not yet built
// connects, since the tools of its last connection are no longer its offer.
func (l *lazyLocal) followPolicy(sys *actors.System) {
	sys.OnPolicy(func(p *policy.Policy) {
		if l.allowExec.Swap(p.AllowExec) == p.AllowExec {
			return
		}
		l.mu.Lock()
		srv := l.srv
		l.mu.Unlock()
		if srv != nil {
			go srv.Refresh() // it may run availability checks: not on the caller's (an actor's) goroutine
			return
		}
		sys.Root.Send(sys.Servers, &servers.ConnectServer{Alias: config.LocalAlias, Why: "connecting: shell commands were turned on or off"})
	})
}

// build builds the server (once) and starts watching its definitions.
func (l *lazyLocal) build() (*sdk.Server, error) {
	l.once.Do(func() {
		defer close(l.built)
		opts := toolsOptions(l.e, l.cfg, "", "", false)
		// Deckhand's own conversations wait for a command (its output
		// shows as progress on the tool card, and Stop cancels it), so
		// that its result reaches the model as the call's answer; only a
		// command that outlives the tool timeout answers with an
		// operation to await.
		opts.InlineWait = max(l.cfg.MCP.ToolTimeout-2*time.Second, 2*time.Second)
		// Deckhand's default is deny: without policy.allow_exec the model
		// is offered no shell (a call of one is refused at the gate).
		opts.Shell = l.allowExec.Load
		srv, err := toolserver.New(opts)
		l.mu.Lock()
		defer l.mu.Unlock()
		switch {
		case err != nil:
			l.err = err
			l.e.log.Warn("the built-in tools server (local) is not started", "err", err)
		case l.done:
			srv.Close()
			l.err = errors.New("the built-in tools server is not started: Deckhand is ending")
		default:
			var ctx context.Context
			ctx, l.cancel = context.WithCancel(context.Background())
			l.srv = srv
			srv.OnReload(func(ev toolserver.Event) {
				// A change of tools announces itself (tools/list_changed);
				// a definition newly broken, or mended into what was
				// offered already, does not.
				if sys := l.sys.Load(); sys != nil && len(ev.Added)+len(ev.Removed)+len(ev.Changed) == 0 {
					sys.Root.Send(sys.Servers, &servers.RelistTools{Alias: config.LocalAlias})
				}
			})
			go srv.Watch(ctx)
		}
	})
	if l.err != nil {
		return nil, l.err
	}
	return l.srv.MCP, nil
}

// wake connects local, not yet built, when what it would offer may differ
// from the tools of its last connection (which stand in until its first
// call): at once when a definition changed since those were kept (while
// Deckhand was not running), else at the first change in its folder. It
// ends once local is built or Deckhand ends.
func (l *lazyLocal) wake(sys *actors.System, db *store.DB) {
	dir := config.ExpandPath(l.cfg.Tools.DefinitionsDir())
	connect := func() {
		sys.Root.Send(sys.Servers, &servers.ConnectServer{Alias: config.LocalAlias, Why: "connecting: its tool definitions changed"})
	}
	if db != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		saved, err := db.Catalogs(ctx)
		cancel()
		if c, ok := saved[config.LocalAlias]; err == nil && ok && changedSince(dir, c.Time) {
			connect()
			return
		}
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return
	}
	if err := w.Add(dir); err != nil {
		w.Close()
		return // no folder yet: built-in tools only, which a new Deckhand may change (checked at the call)
	}
	go func() {
		defer w.Close()
		for {
			select {
			case <-l.built:
				return
			case <-l.ended:
				return
			case ev, ok := <-w.Events:
				if !ok {
					return
				}
				if toolserver.IsDefinitionFile(filepath.Base(ev.Name)) {
					connect()
					return
				}
			case _, ok := <-w.Errors:
				if !ok {
					return
				}
			}
		}
	}()
}

// changedSince reports whether dir or a definition in it was modified
// after t.
func changedSince(dir string, t time.Time) bool {
	if st, err := os.Stat(dir); err != nil || st.ModTime().After(t) {
		return err == nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if info, err := e.Info(); err == nil && toolserver.IsDefinitionFile(e.Name()) && info.ModTime().After(t) {
			return true
		}
	}
	return false
}

// notLoaded are the definitions the server left out, and why, for the
// catalog (none before it is built).
func (l *lazyLocal) notLoaded() []tools.Rejected {
	l.mu.Lock()
	srv := l.srv
	l.mu.Unlock()
	if srv == nil {
		return nil
	}
	return srv.LeftOut()
}

// isBuilt reports whether the server has been built.
func (l *lazyLocal) isBuilt() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.srv != nil
}

// stop stops the server if it was built, and keeps it from being built.
func (l *lazyLocal) stop() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.done {
		close(l.ended)
	}
	l.done = true
	if l.srv != nil {
		l.cancel()
		l.srv.Close()
	}
}

// startChat is startApp for deckhand chat: the built-in server too, as in
// the window, unless the config turns it off.
func (e *env) startChat(cfg *config.Config) *actors.System { return e.startApp(cfg) }
