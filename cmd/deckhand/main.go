// Command deckhand is a desktop agent for MCP tools. This file holds the
// entry point, global flags and the subcommand table; each subcommand lives
// in its own file.
//
// Who owns its state: a subcommand's env (its flags, the config loaded
// once, the log) is its own, passed down, never package-level; what lives
// on while it runs belongs to the actors it starts (package actors) and,
// for the window, to package gui.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/actors"
	"deckhand/actors/servers"
	"deckhand/clean"
	"deckhand/config"
	"deckhand/policy"
	"deckhand/store"
	"deckhand/tools"
	"deckhand/transport/mcp"
)

// version is set at link time (-ldflags "-X main.version=…").
var version = "dev"

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	e := &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, getenv: os.LookupEnv}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		cancelled := false
		for sig := range sigs {
			switch {
			case sig == os.Interrupt && !cancelled && e.interrupt():
				// The command took it (chat: stop the run).
			case cancelled:
				os.Exit(130) // a second signal while shutting down: give up waiting
			default:
				cancelled = true
				cancel()
				// The quit is bounded: whatever it waits on (a view's
				// helper, a server, a call of the window's that does not
				// return), Deckhand ends. What the log's writer committed
				// is kept (SQLite).
				time.AfterFunc(quitLimit, func() {
					fmt.Fprintf(e.stderr, "deckhand: still quitting %s after the signal: exiting now\n", quitLimit)
					os.Exit(exitFailure)
				})
			}
		}
	}()
	code := run(ctx, os.Args[1:], e)
	cancel()
	os.Exit(code)
}

// quitLimit bounds a quit on a signal: the servers get 15 s to stop
// (stopSystem), the views' helpers 5 s (appview's CloseAll).
const quitLimit = 25 * time.Second

// env is what a command may touch of the outside world; tests replace it.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) (string, bool)

	// Set from the global flags.
	configPath string
	// noLog is why the log could not be opened, when a command goes on
	// without it (chat on a full disk).
	noLog  error
	dbPath string
	log    *slog.Logger

	// tty reports whether a stream is a terminal; tests replace it.
	tty func(any) bool

	// logDB, when a command opened the log, is passed to the actors.
	logDB *store.DB

	// local is the built-in tools server (for the window and chat), built
	// when it first connects.
	local *lazyLocal

	mu          sync.Mutex
	onInterrupt func() bool // a command's Ctrl+C handler; false: let it cancel
}

func (e *env) isTerminal(f any) bool {
	if e.tty != nil {
		return e.tty(f)
	}
	return isTerminal(f)
}

// interrupt offers a Ctrl+C to the running command.
func (e *env) interrupt() bool {
	e.mu.Lock()
	f := e.onInterrupt
	e.mu.Unlock()
	return f != nil && f()
}

// handleInterrupt makes f the Ctrl+C handler until the returned func is called.
func (e *env) handleInterrupt(f func() bool) (restore func()) {
	e.mu.Lock()
	e.onInterrupt = f
	e.mu.Unlock()
	return func() {
		e.mu.Lock()
		e.onInterrupt = nil
		e.mu.Unlock()
	}
}

// exit codes
const (
	exitOK      = 0
	exitFailure = 1 // the command ran and something failed (a tool error, a server down)
	exitUsage   = 2 // bad flags, arguments or config
)

// usageError marks errors that should print usage and exit 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return &usageError{fmt.Sprintf(format, args...)} }

// silentError carries an exit code for a failure that was already reported.
type silentError struct{ code int }

func (e *silentError) Error() string { return fmt.Sprintf("exit %d", e.code) }

type command struct {
	name    string
	summary string
	run     func(ctx context.Context, e *env, args []string) error
	hidden  bool
}

func commands() []command {
	return append([]command{
		{name: "init", summary: "write a first config, asking as it goes: the model, the workspace, the shell, a first server", run: runInit},
		{name: "window", summary: "open Deckhand's window (what plain deckhand does on a desktop)", run: runWindow},
		{name: "chat", summary: "chat with the model in the terminal; -p PROMPT for one answer", run: runChat},
		{name: "sessions", summary: "past sessions: title, last activity, runs, tokens and cost; export ID --format markdown|json [-o FILE]", run: runSessions},
		{name: "logs", summary: "what happened in a session or a run, as a timeline; --verify checks the log's chain", run: runLogs},
		{name: "approvals", summary: "the \"always allow\" grants: list, revoke", run: runApprovals},
		{name: "mcp", summary: "inspect and call MCP servers: list, tools, tool, call, connect", run: runMCP},
		{name: "doctor", summary: "check the config and every server, and say what to fix", run: runDoctor},
		{name: "policy", summary: "the capability policy in effect: roots, shell, hosts, secrets, the sandbox", run: runPolicy},
		{name: "import", summary: "add the servers of a Claude Desktop or VS Code config file, or Bosun's agent.toml (import bosun FILE)", run: runImport},
		{name: "tools", summary: "the built-in tools server: serve, list, validate, schema", run: runTools},
	}, testCommands()...)
}

const usageText = `Deckhand: a desktop agent for MCP tools.

Usage:
  deckhand [global flags] [command] [flags] [arguments]

With no command, deckhand opens its window (with no display: shows the servers).

Commands:
%s
Global flags (before the command):
  --config FILE       config file (default $XDG_CONFIG_HOME/deckhand/config.toml)
  --db FILE           the log of sessions (default $XDG_DATA_HOME/deckhand/deckhand.db)
  --log-level LEVEL   debug, info, warn or error (default warn); -v is --log-level debug
  --version           print the version

Run "deckhand mcp" for the mcp subcommands.
`

func usage(w io.Writer) {
	var b strings.Builder
	for _, c := range commands() {
		if !c.hidden {
			fmt.Fprintf(&b, "  %-10s %s\n", c.name, c.summary)
		}
	}
	fmt.Fprintf(w, usageText, b.String())
}

func run(ctx context.Context, args []string, e *env) int {
	fs := flag.NewFlagSet("deckhand", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&e.configPath, "config", "", "")
	fs.StringVar(&e.dbPath, "db", "", "")
	level := fs.String("log-level", "warn", "")
	verbose := fs.Bool("v", false, "")
	showVersion := fs.Bool("version", false, "")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			usage(e.stdout)
			return exitOK
		}
		fmt.Fprintf(e.stderr, "deckhand: %v\n\n", err)
		usage(e.stderr)
		return exitUsage
	}
	if *showVersion {
		fmt.Fprintln(e.stdout, "deckhand", version)
		return exitOK
	}
	var lvl slog.Level
	if err := lvl.UnmarshalText([]byte(*level)); err != nil {
		fmt.Fprintf(e.stderr, "deckhand: --log-level: %v\n", err)
		return exitUsage
	}
	if *verbose {
		lvl = slog.LevelDebug
	}
	e.log = slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: lvl}))

	rest := fs.Args()
	var err error
	if len(rest) == 0 {
		if e.hasDisplay() {
			err = runWindow(ctx, e, nil)
		} else {
			e.stdout, e.stderr = clean.NewWriter(e.stdout), clean.NewWriter(e.stderr)
			err = runOverview(ctx, e)
		}
	} else {
		name := rest[0]
		var found *command
		for _, c := range commands() {
			if c.name == name {
				found = &c
			}
		}
		switch {
		case name == "help":
			usage(e.stdout)
			return exitOK
		case found == nil:
			fmt.Fprintf(e.stderr, "deckhand: unknown command %q\n\n", name)
			usage(e.stderr)
			return exitUsage
		}
		if name != "chat" && name != "window" {
			// What servers, models and the log hold is untrusted text: no
			// escape sequence or bidi trick of theirs reaches the terminal.
			// (chat cleans what it prints itself, around its own colours.)
			e.stdout, e.stderr = clean.NewWriter(e.stdout), clean.NewWriter(e.stderr)
		}
		err = found.run(ctx, e, rest[1:])
	}
	return report(e, err)
}

// report prints err (if any) and returns the exit code.
func report(e *env, err error) int {
	var silent *silentError
	var uerr *usageError
	var cerr *config.Error
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &silent):
		return silent.code
	case errors.As(err, &uerr):
		fmt.Fprintf(e.stderr, "deckhand: %v\n", err)
		return exitUsage
	case errors.As(err, &cerr):
		fmt.Fprintf(e.stderr, "deckhand: bad config:\n%v\n", err)
		return exitUsage
	default:
		fmt.Fprintf(e.stderr, "deckhand: %v\n", err)
		return exitFailure
	}
}

// loadConfig reads the config named by --config, or the default one.
func (e *env) loadConfig() (*config.Config, error) {
	e.rememberConfig()
	return config.Load(e.configPath)
}

// rememberConfig lists a config given with --config among Deckhand's own
// files, hidden from every sandbox (the default one is in a folder hidden
// anyway).
func (e *env) rememberConfig() {
	if e.configPath == "" {
		return
	}
	if err := policy.Remember("config", e.configPath); err != nil {
		e.log.Warn("a config given with --config may be seen by sandboxed servers", "err", err)
	}
}

// loadConfigForUpdate is loadConfig for commands that add to the config,
// which may create the file.
func (e *env) loadConfigForUpdate() (*config.Config, error) {
	e.rememberConfig()
	return config.LoadForUpdate(e.configPath)
}

// connect starts the actors for cfg's servers (or only those named in
// only) and waits until each has an outcome, at most maxWait (0: the longest
// connect timeout). On success the caller must stopSystem.
func (e *env) connect(ctx context.Context, cfg *config.Config, maxWait time.Duration, only ...string) (*actors.System, []servers.ServerStatus, error) {
	if len(only) > 0 {
		picked := map[string]config.Server{}
		for _, alias := range only {
			srv, ok := cfg.MCP.Servers[alias]
			if !ok {
				return nil, nil, fmt.Errorf("no server named %q in %s", alias, cfg.Path)
			}
			picked[alias] = srv
		}
		narrowed := *cfg
		narrowed.MCP.Servers = picked
		cfg = &narrowed
	}
	if maxWait <= 0 {
		maxWait = defaultWait(cfg)
	}
	sys := e.startSystem(cfg)
	wctx, cancel := context.WithTimeout(ctx, maxWait)
	defer cancel()
	list, err := sys.ServerStatuses(wctx, true)
	if ctx.Err() != nil {
		err = ctx.Err()
	}
	if err != nil {
		e.stopSystem(sys)
		return nil, nil, err
	}
	return sys, list, nil
}

// startSystem starts the actors for cfg, recording to the log if the
// command opened one.
func (e *env) startSystem(cfg *config.Config) *actors.System {
	return actors.Start(actors.Options{
		Config:    cfg,
		Logger:    e.log,
		Version:   version,
		LookupEnv: e.getenv,
		Paths:     &mcp.PathResolver{},
		Log:       e.logDB,
		Secrets:   cfg.Secrets(e.getenv),
		BuildInProcess: func() map[string]func() (*sdk.Server, error) {
			if e.local == nil {
				return nil
			}
			return map[string]func() (*sdk.Server, error){config.LocalAlias: e.local.build}
		}(),
		NotLoaded: func() map[string]func() []tools.Rejected {
			if e.local == nil {
				return nil
			}
			return map[string]func() []tools.Rejected{config.LocalAlias: e.local.notLoaded}
		}(),
	})
}

// startApp is startSystem for the window (and deckhand chat): with the
// built-in tools server connected in-process as "local". The window
// connects it unless the config's tools.enabled is false; deckhand chat
// only when it is written true (its scripts and tests see the configured
// servers alone otherwise).
func (e *env) startApp(cfg *config.Config) *actors.System {
	e.local = e.localTools(cfg)
	sys := e.startSystem(cfg)
	if e.local != nil {
		e.local.sys.Store(sys)
		e.local.followPolicy(sys)
		e.local.wake(sys, e.logDB)
	}
	return sys
}

// openLog opens the log named by --db, or the default one, for the rest of
// the command.
func (e *env) openLog(ctx context.Context) (*store.DB, error) {
	if e.dbPath != "" {
		// Before any server starts: every Deckhand hides it from then on.
		if err := policy.Remember("log", e.dbPath); err != nil {
			return nil, fmt.Errorf("opening the log: %w", err)
		}
	}
	db, err := store.Open(ctx, e.dbPath)
	if err != nil {
		return nil, fmt.Errorf("opening the log: %w", err)
	}
	return db, nil
}

// closeDeadRuns closes, for good, the runs of a Deckhand that died, counting
// their usage (at the configured prices, when the config can be read).
// Readers show such runs as interrupted anyway; this makes the totals right.
// Best effort: a failure is logged, and the command goes on.
func (e *env) closeDeadRuns(ctx context.Context, db *store.DB) {
	var cost store.CostFunc
	if cfg, err := e.loadConfig(); err == nil {
		m := cfg.Model
		cost = func(name string, in, out int) float64 { return m.PriceFor(name).Cost(in, out) }
	}
	if _, err := db.CloseDeadRuns(ctx, cost); err != nil {
		e.log.Warn("closing interrupted runs", "err", err)
	}
}

// stopSystem shuts the actors down, waiting for child processes to exit.
func (e *env) stopSystem(sys *actors.System) {
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := sys.Shutdown(ctx); err != nil {
		e.log.Warn("shutdown", "err", err)
	}
	if e.local != nil {
		e.local.stop()
		e.local = nil
	}
}

// parseFlags parses flags that may come before, between or after positional
// arguments; everything after "--" is positional.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	fs.SetOutput(io.Discard)
	var tail []string
	if i := slices.Index(args, "--"); i >= 0 {
		args, tail = args[:i], args[i+1:]
	}
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, usagef("%s: %v", fs.Name(), err)
		}
		args = fs.Args()
		if len(args) == 0 {
			return append(positional, tail...), nil
		}
		positional = append(positional, args[0])
		args = args[1:]
	}
}
