package connect

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"fyne.io/fyne/v2"

	"deckhand/clean"
	"deckhand/config"
	"deckhand/gui/widgets"
	"deckhand/keys"
	"deckhand/policy"
	"deckhand/redact"
	"deckhand/transport/mcp"
)

// A server typed into the connect form is tried before it is saved, as
// `deckhand mcp connect --save` does: connected on its own (under the same
// policy and sandbox the servers get), its tools listed, then closed. Only
// a server that got that far is written to the config. A failure says
// everything: the error, and every line the server wrote on stderr (the
// real cause is often some lines above the last, as with node's "Cannot
// find module").

// trialResult is what a trial connection found.
type trialResult struct {
	tools int
	err   error
	// stderr is what the server wrote on stderr (its last lines), cleaned.
	stderr  []string
	earlier int // lines before those, not kept
	// secrets are the values of the secrets the server was given (typed,
	// or read from the keyring): removed from what the failure says.
	secrets []string
}

// maxStderrLines bounds the stderr a failure shows.
const maxStderrLines = 200

// trial connects to srv, lists its tools and closes the connection. It
// blocks; run it off the UI goroutine. lookup reads the environment the
// servers are started with (Host.LookupEnv).
// typed are the secrets' values typed into the form, not saved yet: the
// server gets them as it would from the keyring.
func trial(ctx context.Context, lookup func(string) (string, bool), cfg *config.Config, alias string, srv config.Server, typed map[string]string) trialResult {
	capture := &stderrCapture{}
	ctx, cancel := context.WithTimeout(ctx, cfg.MCP.DialTimeout(srv))
	defer cancel()
	var mu sync.Mutex
	var given []string
	for _, v := range typed {
		given = append(given, v)
	}
	conn, err := mcp.Dial(ctx, alias, srv, mcp.Options{
		Logger:    slog.New(capture),
		LookupEnv: lookup,
		Policy:    policy.New(cfg, lookup).WithTyped(alias, typed),
		OnSecrets: func(v ...string) { mu.Lock(); given = append(given, v...); mu.Unlock() },
	})
	mu.Lock()
	defer mu.Unlock()
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) && ctx.Err() != nil {
			err = fmt.Errorf("timed out after %v: %w", cfg.MCP.DialTimeout(srv), err)
		}
		lines, earlier := capture.tail()
		return trialResult{err: err, stderr: lines, earlier: earlier, secrets: given}
	}
	defer conn.Close()
	list, err := conn.ListTools(ctx)
	if err != nil {
		lines, earlier := capture.tail()
		return trialResult{err: fmt.Errorf("listing tools: %w", err), stderr: lines, earlier: earlier, secrets: given}
	}
	return trialResult{tools: len(list), secrets: given}
}

// Connect tries a server, then saves it to the config and starts it
// (Host.Save); without the form (a failure is shown in a dialog over win).
func Connect(h Host, win fyne.Window, alias string, srv config.Server) {
	if err := aliasProblem(h, alias, ""); err != nil {
		widgets.ShowError(err, win)
		return
	}
	cfg := h.Config()
	go func() {
		r := trial(context.Background(), h.LookupEnv, cfg, alias, srv, nil)
		h.Post(func() {
			if r.err != nil {
				widgets.ShowError(errors.New(r.failure(h.Config(), alias, srv, h.LookupEnv)), win)
				return
			}
			if err := h.Save("", alias, srv); err != nil {
				widgets.ShowError(err, win)
			}
		})
	}()
}

// keepSecrets keeps the values typed into the form in the keyring, under
// the server's alias, once the server connected with them: an error in
// the form's words when the keyring cannot (a *notKept).
func keepSecrets(alias string, typed map[string]string) error {
	for _, name := range slices.Sorted(maps.Keys(typed)) {
		if err := keys.StoreSecret(alias, name, typed[name]); err != nil {
			return &notKept{secretKeyringError(name, err)}
		}
	}
	return nil
}

// notKept is a server that connected, whose secret the keyring did not
// keep: it is not saved.
type notKept struct{ error }

// failure is the whole reason a trial failed, for people: the error, a hint
// where one helps, and the server's stderr. Known secrets are removed.
func (r trialResult) failure(cfg *config.Config, alias string, srv config.Server, lookup func(string) (string, bool)) string {
	var b strings.Builder
	msg := r.err.Error()
	var exit *mcp.ExitError
	if errors.As(r.err, &exit) && msg == exit.Error() && len(r.stderr) > 0 {
		short := *exit
		short.Stderr = "" // all of it follows
		msg = short.Error()
	}
	if errors.Is(r.err, mcp.ErrAuthEnv) {
		// The config's words (auth_env) are not the form's.
		msg = tokenVariableProblem(srv.AuthEnv, lookup)
	}
	b.WriteString(clean.Text(msg))
	if hint := Hint(mcp.Classify(r.err), r.err, srv); hint != "" && !errors.Is(r.err, mcp.ErrAuthEnv) {
		b.WriteString("\n\n" + hint)
	}
	if len(r.stderr) > 0 {
		b.WriteString("\n\nWhat the server wrote on stderr")
		if r.earlier > 0 {
			fmt.Fprintf(&b, " (its last %d lines; %d before them %s not shown)", len(r.stderr), r.earlier, widgets.Plural(r.earlier, "is", "are"))
		}
		b.WriteString(":\n")
		b.WriteString(strings.Join(r.stderr, "\n"))
	}
	one := *cfg
	one.MCP.Servers = map[string]config.Server{alias: srv}
	secrets := redact.New(slices.Concat(cfg.Secrets(lookup), one.Secrets(lookup), r.secrets)...)
	return secrets.String(b.String())
}

// tokenVariableProblem says, in the form's words, why the variable
// Token variable names gave no token, and what to do.
func tokenVariableProblem(name string, lookup func(string) (string, bool)) string {
	what := "is not set"
	if lookup != nil {
		if _, ok := lookup(name); ok {
			what = "is empty"
		}
	}
	return fmt.Sprintf("Token variable: %s %s in the environment Deckhand was started from, so there is no token to send. "+
		"Set it there (a line %s=… in ~/.config/environment.d/deckhand.conf, then log out and back in), "+
		"or clear Token variable if the server needs no token.", name, what, name)
}

// Hint says what to do about the common failures of srv: kind is the
// failure's (mcp.Classify), err the error itself when known. The form
// knows the error; the servers panel only the kind its row was told,
// and is given the hints that need no more (the kinds that do, a command
// that stopped at start and an HTTP answer, get none without err).
func Hint(kind mcp.Failure, err error, srv config.Server) string {
	switch kind {
	case mcp.FailureNotFound:
		if srv.IsStdio() && strings.ContainsRune(srv.Command, '/') {
			// A path was given: it is the path that is wrong.
			return fmt.Sprintf("No program at %s: check the spelling of the path.", srv.Command)
		}
		if srv.IsStdio() {
			return fmt.Sprintf("Is %s installed? Give its full path if it is not on PATH.", filepath.Base(srv.Command))
		}
	case mcp.FailureExited:
		if err == nil {
			return "" // "its stderr below": the form's
		}
		var exit *mcp.ExitError
		if errors.As(err, &exit) && exit.MayBeSandbox() {
			return "The command stopped at start: its stderr below usually says why.\n" +
				"It runs in Deckhand's sandbox, which lets it read only some folders: if what it could not open is elsewhere, add that folder under Also reads."
		}
		return "The command stopped at start: its stderr below usually says why."
	case mcp.FailureTimeout:
		return "No answer in time: the server may be slow to start (raise connect_timeout) or stuck."
	case mcp.FailureAuth:
		if srv.AuthEnv != "" {
			return fmt.Sprintf("Check that %s holds the server's token in the environment Deckhand was started from.", srv.AuthEnv)
		}
		return "The server wants a token: name the variable holding it in Token variable."
	case mcp.FailureUnreachable:
		return "Nothing answers there: is the server running? Check the host and port."
	case mcp.FailureHTTP:
		var h *mcp.HTTPError
		if errors.As(err, &h) && (h.Status == http.StatusNotFound || h.Status == http.StatusMethodNotAllowed) {
			said := fmt.Sprintf("HTTP %d %s", h.Status, http.StatusText(h.Status))
			if h.Body != "" {
				said += ": " + clean.Quote(widgets.Shorten(h.Body, 80))
			}
			return fmt.Sprintf("A web server answers there (%s), but not as an MCP server: is this the server's MCP endpoint? It often ends in /mcp (older servers: /sse).", said)
		}
	}
	return ""
}

// stderrCapture is a slog handler that keeps the lines a stdio server
// writes on stderr, which the connection logs one by one ("server
// stderr", at debug level).
type stderrCapture struct {
	mu      sync.Mutex
	lines   []string
	earlier int
}

func (h *stderrCapture) Enabled(context.Context, slog.Level) bool { return true }
func (h *stderrCapture) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h *stderrCapture) WithGroup(string) slog.Handler            { return h }

func (h *stderrCapture) Handle(_ context.Context, r slog.Record) error {
	if r.Message != "server stderr" {
		return nil
	}
	r.Attrs(func(a slog.Attr) bool {
		if a.Key != "line" {
			return true
		}
		line := clean.Line(a.Value.String())
		if len(line) > 2000 {
			cut := 2000
			for cut > 0 && !utf8.RuneStart(line[cut]) {
				cut--
			}
			line = line[:cut] + "…"
		}
		h.mu.Lock()
		h.lines = append(h.lines, line)
		if len(h.lines) > maxStderrLines {
			h.lines = h.lines[1:]
			h.earlier++
		}
		h.mu.Unlock()
		return false
	})
	return nil
}

// tail is the lines kept, without blank ones at the ends, and how many
// came before them.
func (h *stderrCapture) tail() ([]string, int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	lines := h.lines
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	return append([]string(nil), lines...), h.earlier
}
