package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
)

// Starter is what `deckhand init` asks: the model, the policy's two first
// choices and, optionally, a first server.
type Starter struct {
	Provider  string // "openai" or "anthropic"
	BaseURL   string
	Name      string
	APIKeyEnv string // "": the model needs no key, or it is in the keyring
	Workspace string // "": the default, ~/Deckhand
	AllowExec bool
	Alias     string // the first server's alias, with Server
	Server    *Server
}

// Render is the config file for s: every key it sets with a comment saying
// what it is, and the keys a person most often changes next, commented out
// at their defaults.
func (s Starter) Render() []byte {
	var b strings.Builder
	b.WriteString(`# Deckhand's config, written by deckhand init. Every key is in the README's
# "Config reference"; deckhand doctor checks this file and every server.

[model]
`)
	fmt.Fprintf(&b, "provider = %s          # the wire format: openai (any OpenAI-compatible server) or anthropic\n", jsonString(s.Provider))
	fmt.Fprintf(&b, "base_url = %s\n", jsonString(s.BaseURL))
	fmt.Fprintf(&b, "name = %s\n", jsonString(s.Name))
	if s.APIKeyEnv != "" {
		fmt.Fprintf(&b, "api_key_env = %s   # the variable holding the key (or paste the key in the window's Settings, kept in the keyring)\n", jsonString(s.APIKeyEnv))
	} else {
		b.WriteString("# api_key_env = \"OPENAI_API_KEY\"   # the variable holding the key, for a server that needs one (or the window's Settings)\n")
	}
	b.WriteString(`# max_context_tokens = 32000    # what one request may carry (estimated)
# price = { input_per_mtok = 0.15, output_per_mtok = 0.60 }   # US dollars per million tokens, for the cost in the log

[policy]                         # what tools may touch, whatever approvals say
`)
	ws := s.Workspace
	if ws == "" {
		ws = "~/Deckhand"
	}
	fmt.Fprintf(&b, "workspace = %s        # the folder tools work in, created on first use\n", jsonString(ws))
	fmt.Fprintf(&b, "allow_exec = %v                # true: the model may propose shell commands, each asked before it runs, confined to the workspace\n", s.AllowExec)
	fmt.Fprintf(&b, "# fs.read_roots = [%s]     # what tools may read; default the workspace\n", jsonString(ws))
	fmt.Fprintf(&b, "# fs.write_roots = [%s]    # what they may write; default the workspace\n", jsonString(ws))
	b.WriteString(`
[mcp]
# approval_timeout = "2m"        # no answer within this is a deny
`)
	if s.Server != nil {
		b.WriteString("\n# Your first server; deckhand mcp connect --save and deckhand import add more.\n")
		writeServer(&b, s.Alias, *s.Server)
	} else {
		b.WriteString(`
# Servers: deckhand mcp connect --save URL (or -- COMMAND ARGS...) adds one, deckhand import
# brings Claude Desktop's or VS Code's. By hand:
# [mcp.servers.fs]
# command = "npx"
# args = ["-y", "@modelcontextprotocol/server-filesystem", "~/Deckhand"]
`)
	}
	return []byte(b.String())
}

// ErrConfigExists is returned by WriteStarter when the file is there and
// force is not set.
var ErrConfigExists = errors.New("the config already exists")

// WriteStarter writes s to path (mode 0600), after checking that the result
// loads. An existing file is an error unless force, which keeps it as
// path.bak first; the backup's name is returned.
func WriteStarter(path string, s Starter, force bool) (backup string, err error) {
	data := s.Render()
	if _, err := Parse(path, data); err != nil {
		return "", fmt.Errorf("the config would not be valid: %w", err)
	}
	old, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return "", fmt.Errorf("reading config: %w", err)
	case !force:
		return "", fmt.Errorf("%s: %w", path, ErrConfigExists)
	default:
		backup = path + ".bak"
		if err := os.WriteFile(backup, old, 0o600); err != nil {
			return "", fmt.Errorf("keeping the old config: %w", err)
		}
	}
	return backup, writeFileAtomic(path, data)
}
