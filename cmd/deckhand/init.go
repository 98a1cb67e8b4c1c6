package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"deckhand/config"
	"deckhand/transport/llm"
)

// runInit writes a first config, asking as it goes: where the model runs
// and which one, the folder tools work in, whether shell commands may be
// proposed, and a first server. Answers are read a line at a time, so a
// script can pipe them in; Enter takes the default shown in brackets. The
// window's first-run panel is the way to the same for a window.
func runInit(ctx context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("init", flag.ContinueOnError)
	force := fs.Bool("force", false, "")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 0 {
		return usagef("usage: deckhand init [--force]")
	}
	e.rememberConfig()
	path := e.configPath
	if path == "" {
		if path, err = config.DefaultPath(); err != nil {
			return err
		}
	}
	if _, err := os.Stat(path); err == nil && !*force {
		return usagef("%s already exists: edit it (deckhand doctor checks it), or run deckhand init --force to start over (the old file is kept as %s.bak)", path, path)
	}
	a := &asker{in: bufio.NewReader(e.stdin), out: e.stdout, echo: !e.isTerminal(e.stdin)}
	fmt.Fprintf(e.stdout, "This writes %s. Enter takes the answer in brackets.\n\n", path)
	s, err := askStarter(ctx, a, e.getenv)
	if err != nil {
		return err
	}
	backup, err := config.WriteStarter(path, s, *force)
	if err != nil {
		return err
	}
	if backup != "" {
		fmt.Fprintf(e.stdout, "\nThe old config is kept as %s.\n", backup)
	}
	fmt.Fprintf(e.stdout, "\nWrote %s.\nNext: deckhand doctor checks it and every server; then deckhand opens the window, or deckhand chat talks in the terminal.\n", path)
	return nil
}

// asker reads one answer a line at a time. The end of the input takes the
// default; a question with no default then fails, naming itself.
type asker struct {
	in   *bufio.Reader
	out  io.Writer
	eof  bool
	echo bool // the input is not a terminal: show each answer read, so the output reads as a dialogue
}

func (a *asker) ask(question, def string) (string, error) {
	if def != "" {
		fmt.Fprintf(a.out, "%s [%s]: ", question, def)
	} else {
		fmt.Fprintf(a.out, "%s: ", question)
	}
	if a.eof {
		fmt.Fprintln(a.out)
		return def, nil
	}
	line, err := a.in.ReadString('\n')
	if err != nil {
		if !errors.Is(err, io.EOF) {
			return "", err
		}
		a.eof = true
		if line == "" {
			fmt.Fprintln(a.out)
		}
	}
	v := strings.TrimSpace(line)
	if a.echo && line != "" {
		fmt.Fprintln(a.out, v)
	}
	if v != "" {
		return v, nil
	}
	return def, nil
}

// askValid asks until check accepts the answer (at most five times, or
// until the input ends), printing why each answer was refused.
func (a *asker) askValid(question, def string, check func(string) error) (string, error) {
	for range 5 {
		v, err := a.ask(question, def)
		if err != nil {
			return "", err
		}
		err = check(v)
		if err == nil {
			return v, nil
		}
		fmt.Fprintf(a.out, "  %v\n", err)
		if a.eof {
			return "", fmt.Errorf("%s: %w", question, err)
		}
	}
	return "", fmt.Errorf("%s: no usable answer", question)
}

func askStarter(ctx context.Context, a *asker, getenv func(string) (string, bool)) (config.Starter, error) {
	var s config.Starter
	fmt.Fprint(a.out, `Where does your model run?
  1) on this machine: Ollama, llama.cpp, LM Studio, vLLM (OpenAI-compatible)
  2) OpenAI
  3) Anthropic
  4) another OpenAI-compatible address
`)
	where, err := a.askValid("Choose", "1", func(v string) error {
		if n, err := strconv.Atoi(v); err != nil || n < 1 || n > 4 {
			return fmt.Errorf("%q: answer 1, 2, 3 or 4", v)
		}
		return nil
	})
	if err != nil {
		return s, err
	}
	checkURL := func(v string) error {
		u, err := url.Parse(v)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("%q is not an http:// or https:// address", v)
		}
		return nil
	}
	s.Provider = llm.ProviderOpenAI
	switch where {
	case "1":
		if s.BaseURL, err = a.askValid("Its address", "http://127.0.0.1:11434/v1", checkURL); err != nil {
			return s, err
		}
	case "2":
		s.BaseURL, s.APIKeyEnv = "https://api.openai.com/v1", "OPENAI_API_KEY"
	case "3":
		s.Provider, s.BaseURL, s.APIKeyEnv = llm.ProviderAnthropic, "https://api.anthropic.com/v1", "ANTHROPIC_API_KEY"
	case "4":
		if s.BaseURL, err = a.askValid("Its address (ending in /v1 for most)", "", checkURL); err != nil {
			return s, err
		}
	}
	if where != "1" {
		if s.APIKeyEnv, err = a.askValid("The environment variable holding its key (none: Enter, or set the key in the window's Settings)", s.APIKeyEnv, checkEnvName); err != nil {
			return s, err
		}
	}
	key := ""
	if s.APIKeyEnv != "" {
		key, _ = getenv(s.APIKeyEnv)
	}
	lctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	names, lerr := llm.ListModelsFor(lctx, s.Provider, s.BaseURL, key)
	cancel()
	names = llm.ChatModels(names)
	def := ""
	switch {
	case lerr != nil:
		fmt.Fprintf(a.out, "Could not list the models at %s (%v); type the model's name.\n", s.BaseURL, lerr)
	case len(names) == 0:
		fmt.Fprintf(a.out, "%s lists no models; type the model's name.\n", s.BaseURL)
	default:
		fmt.Fprintf(a.out, "Models at %s:\n", s.BaseURL)
		shown := names[:min(len(names), 20)]
		for i, n := range shown {
			fmt.Fprintf(a.out, "  %d) %s\n", i+1, n)
		}
		if len(names) > len(shown) {
			fmt.Fprintf(a.out, "  … and %d more (type a name)\n", len(names)-len(shown))
		}
		def = shown[0]
	}
	name, err := a.askValid("Model", def, func(v string) error {
		if v == "" {
			return errors.New("the model's name is needed")
		}
		return nil
	})
	if err != nil {
		return s, err
	}
	if n, err := strconv.Atoi(name); err == nil && n >= 1 && n <= min(len(names), 20) {
		name = names[n-1]
	}
	s.Name = name

	fmt.Fprintln(a.out)
	if s.Workspace, err = a.askValid("The folder tools work in (they read and write only there unless you add roots)", "~/Deckhand", func(v string) error {
		if !strings.HasPrefix(v, "/") && !strings.HasPrefix(v, "~/") && v != "~" {
			return fmt.Errorf("%q: give a full path, or one starting with ~/", v)
		}
		return nil
	}); err != nil {
		return s, err
	}
	exec, err := a.askValid("Let the model propose shell commands, each asked before it runs, confined to that folder? (y/N)", "n", yesNo)
	if err != nil {
		return s, err
	}
	s.AllowExec = strings.HasPrefix(strings.ToLower(exec), "y")

	fmt.Fprintln(a.out)
	for range 5 {
		line, err := a.ask("A first MCP server: a command (npx -y @modelcontextprotocol/server-filesystem ~/Deckhand) or an address (none: Enter)", "")
		if err != nil || line == "" {
			return s, err
		}
		var srv config.Server
		if strings.HasPrefix(line, "http://") || strings.HasPrefix(line, "https://") {
			srv.URL = line
		} else {
			words := strings.Fields(line)
			srv.Command, srv.Args = words[0], words[1:]
		}
		alias, err := a.askValid("Its name", config.DeriveAlias(srv), config.ValidAlias)
		if err != nil {
			return s, err
		}
		if err := config.CheckServer(alias, srv); err != nil {
			fmt.Fprintf(a.out, "  %v\n", err)
			if a.eof {
				return s, err
			}
			continue
		}
		s.Alias, s.Server = alias, &srv
		return s, nil
	}
	return s, errors.New("a first MCP server: no usable answer")
}

func checkEnvName(v string) error {
	if v == "" {
		return nil
	}
	for i, r := range v {
		if !(r == '_' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || i > 0 && r >= '0' && r <= '9') {
			return fmt.Errorf("%q is not a variable's name (letters, digits and _)", v)
		}
	}
	return nil
}

func yesNo(v string) error {
	switch strings.ToLower(v) {
	case "y", "yes", "n", "no":
		return nil
	}
	return fmt.Errorf("%q: answer y or n", v)
}
