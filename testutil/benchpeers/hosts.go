package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// scenario is what one run sets up: how many server-everything instances
// (aliases ev01, ev02, …), whether one more server never initializes, and
// which prompt the host is given.
type scenario struct {
	servers int
	hang    bool
	loop    bool // the 8-round tool loop instead of a plain answer
	// ready: the host must have every server's tools before its first
	// model request. mcphost and crush always wait for their servers;
	// Deckhand waits --wait (2 s by default) and then starts with the
	// tools of those ready, so it is given the cap as its --wait here.
	ready bool
	// sized: the servers are stdioserver -tools sized (that many tools
	// each) rather than server-everything.
	sized int
	// sample: the process tree is sampled while the first model request
	// carrying tools is held.
	sample bool
}

// scaleServers are the server counts of the scale measure.
var scaleServers = []int{1, 10, 100}

// stage holds what every host is pointed at: the same model endpoint and
// the same server programs.
type stage struct {
	node       string // node, for the servers
	everything string // server-everything's entry point
	sized      string // testutil/stdioserver, built for the run
	hangJS     string // the server that never initializes
	modelURL   string // OpenAI-compatible base URL, ending in /v1
	sandbox    string // Deckhand's per-server sandbox setting; "" keeps its default
	limit      time.Duration
}

func alias(i int) string { return fmt.Sprintf("ev%02d", i) }

// server is the command line of each of sc's servers.
func (st *stage) server(sc scenario) []string {
	if sc.sized > 0 {
		return []string{st.sized, "-tools", strconv.Itoa(sc.sized)}
	}
	return []string{st.node, st.everything, "stdio"}
}

// host drives one MCP host non-interactively.
type host interface {
	name() string
	// command writes the host's own config for sc into dir and returns the
	// command that asks prompt and prints the answer on stdout.
	command(st *stage, dir string, sc scenario, prompt string) (*exec.Cmd, error)
	// toolName is the function name the model must call to reach a
	// server's tool through this host.
	toolName(alias, tool string) string
}

// deckhand: `deckhand --config FILE chat -p PROMPT --approve=auto`, its
// built-in tools server off so that only the bench's servers are there.
type deckhand struct{ bin string }

func (deckhand) name() string                       { return "deckhand" }
func (deckhand) toolName(alias, tool string) string { return alias + "__" + tool }

func (d deckhand) command(st *stage, dir string, sc scenario, prompt string) (*exec.Cmd, error) {
	q := strconv.Quote
	var b strings.Builder
	fmt.Fprintf(&b, "[model]\nbase_url = %s\nname = \"bench-model\"\napi_key_env = \"BENCH_API_KEY\"\n\n", q(st.modelURL))
	b.WriteString("[tools]\nenabled = false\n\n")
	// Room for the loop's eight rounds and its answer whatever the default.
	b.WriteString("[mcp]\nmax_tool_depth = 16\n\n")
	server := func(name, command string, args ...string) {
		fmt.Fprintf(&b, "[mcp.servers.%s]\ncommand = %s\nargs = [", name, q(command))
		for i, a := range args {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(q(a))
		}
		b.WriteString("]\n")
		if st.sandbox != "" {
			fmt.Fprintf(&b, "sandbox = %s\n", q(st.sandbox))
		}
		b.WriteString("\n")
	}
	for i := 1; i <= sc.servers; i++ {
		cmd := st.server(sc)
		server(alias(i), cmd[0], cmd[1:]...)
	}
	if sc.hang {
		server("hang", st.node, st.hangJS)
	}
	cfg := filepath.Join(dir, "deckhand.toml")
	if err := os.WriteFile(cfg, []byte(b.String()), 0o600); err != nil {
		return nil, err
	}
	args := []string{"--config", cfg, "chat", "-p", prompt, "--approve=auto"}
	if sc.ready {
		args = append(args, "--wait", st.limit.String())
	}
	return exec.Command(d.bin, args...), nil
}

// mcphost: `mcphost --config FILE -m openai:MODEL --provider-url URL -p
// PROMPT --quiet` (its README's non-interactive mode; tools run without
// asking there). Servers in its "local" form: command and arguments in one
// array. It names tools server__tool.
type mcphost struct{ bin string }

func (mcphost) name() string                       { return "mcphost" }
func (mcphost) toolName(alias, tool string) string { return alias + "__" + tool }

func (m mcphost) command(st *stage, dir string, sc scenario, prompt string) (*exec.Cmd, error) {
	type server struct {
		Type    string   `json:"type"`
		Command []string `json:"command"`
	}
	servers := map[string]server{}
	for i := 1; i <= sc.servers; i++ {
		servers[alias(i)] = server{"local", st.server(sc)}
	}
	if sc.hang {
		servers["hang"] = server{"local", []string{st.node, st.hangJS}}
	}
	b, err := json.MarshalIndent(map[string]any{"mcpServers": servers}, "", "  ")
	if err != nil {
		return nil, err
	}
	cfg := filepath.Join(dir, "mcphost.json")
	if err := os.WriteFile(cfg, b, 0o600); err != nil {
		return nil, err
	}
	return exec.Command(m.bin, "--config", cfg, "-m", "openai:bench-model", "--provider-url", st.modelURL,
		"--provider-api-key", "bench-key", "-p", prompt, "--quiet"), nil
}

// crush: `crush run --quiet PROMPT` in a folder holding its project config
// crush.json (README: providers of type openai with base_url and models,
// servers under "mcp" with type stdio); `crush run` approves tools by
// itself. It names tools mcp_server_tool. Written from its documentation
// and source; it has not run here (the module proxy this machine reaches
// refuses every crush version).
type crush struct{ bin string }

func (crush) name() string                       { return "crush" }
func (crush) toolName(alias, tool string) string { return "mcp_" + alias + "_" + tool }

func (c crush) command(st *stage, dir string, sc scenario, prompt string) (*exec.Cmd, error) {
	type server struct {
		Type    string   `json:"type"`
		Command string   `json:"command"`
		Args    []string `json:"args"`
	}
	servers := map[string]server{}
	for i := 1; i <= sc.servers; i++ {
		cmd := st.server(sc)
		servers[alias(i)] = server{"stdio", cmd[0], cmd[1:]}
	}
	if sc.hang {
		servers["hang"] = server{"stdio", st.node, []string{st.hangJS}}
	}
	model := map[string]any{"id": "bench-model", "name": "bench-model", "context_window": 128000, "default_max_tokens": 4096}
	cfg := map[string]any{
		"providers": map[string]any{"bench": map[string]any{
			"type": "openai", "base_url": st.modelURL, "api_key": "bench-key", "models": []any{model},
		}},
		"models": map[string]any{
			"large": map[string]any{"provider": "bench", "model": "bench-model"},
			"small": map[string]any{"provider": "bench", "model": "bench-model"},
		},
		"mcp":     servers,
		"options": map[string]any{"disable_provider_auto_update": true},
	}
	b, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "crush.json"), b, 0o600); err != nil {
		return nil, err
	}
	return exec.Command(c.bin, "run", "--quiet", prompt), nil
}
