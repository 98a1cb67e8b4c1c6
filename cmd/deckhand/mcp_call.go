package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"sync"

	"deckhand/actors"
	"deckhand/actors/servers"
	"deckhand/config"
	"deckhand/terminal"
	"deckhand/tools"
)

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
	if len(list) == 1 && list[0].State != servers.StateReady {
		e.stopSystem(sys)
		return nil, nil, fmt.Errorf("server %s: %s", alias, terminal.StateText(list[0]))
	}
	return sys, cfg, nil
}

func mcpCall(ctx context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("mcp call", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "")
	timeout := fs.Duration("timeout", 0, "")
	full := fs.Bool("full", false, "")
	noWait := fs.Bool("no-wait", false, "")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) < 1 || len(rest) > 2 {
		return usagef("usage: deckhand mcp call ALIAS.TOOL [JSON_ARGS | -]")
	}
	openLogQuietly(ctx, e) // a quarantined tool the person released may be called
	if e.logDB != nil {
		defer e.logDB.Close()
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
	// The same check as the chat's (toolcall.Arguments): arguments the
	// tool's input schema refuses never reach the server.
	if cat, err := sys.Catalog(ctx); err == nil {
		if t, ok := cat.Lookup(rest[0]); ok {
			if err := tools.NewValidator(1).Validate(t, raw); err != nil {
				return usagef("JSON_ARGS for %s: %v (nothing was sent; `deckhand mcp tool %s` shows its input schema)", t.Display, err, t.Display)
			}
		}
	}

	cctx := ctx
	if *timeout > 0 {
		var cancel context.CancelFunc
		cctx, cancel = context.WithTimeout(ctx, *timeout)
		defer cancel()
	}
	var shown terminal.ProgressGate
	call := sys.CallTool
	if *noWait {
		call = sys.StartTool
	}
	// Progress comes on the connection's goroutine, and may come after
	// the result (a server's notification overtaking nothing): it is
	// printed under a lock, and none once the call has returned.
	var progressMu sync.Mutex
	returned := false
	res, err := call(cctx, rest[0], raw, func(p *servers.ToolProgress) {
		progressMu.Lock()
		defer progressMu.Unlock()
		// A task's changes of status are always shown; other progress
		// at most so often.
		if !returned && (p.Progress.Task != "" || shown.Due(p.ID)) {
			fmt.Fprintf(e.stderr, "progress: %s\n", terminal.ProgressText(p))
		}
	})
	progressMu.Lock()
	returned = true
	progressMu.Unlock()
	if err != nil {
		return err
	}
	if res.Err != nil {
		return res.Err
	}
	if res.Task != nil {
		return printTask(e, res.Task, *asJSON)
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
		if !*full && len(text) > printLimit {
			text = tools.Cap(text, printLimit) + "\n(the whole result is " + tools.Size(len(text)) + ": --full prints it all)"
		}
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

// printLimit is how much of a result mcp call prints without --full: head
// and tail, with a marker between.
const printLimit = 64 << 10

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
