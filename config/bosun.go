package config

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
)

// BosunImport is what an import of Bosun's agent.toml maps: settings as
// edits of Deckhand's config (only keys the config leaves unset: a person's
// own choice is never overwritten), servers to add, and the keys that did
// not map, each with why.
type BosunImport struct {
	Edits     []Edit
	Added     []Imported
	Skipped   []Skipped // servers not added, and why
	NotMapped []Skipped // settings not carried over, and why (Name is the agent.toml key)
}

// bosunFile is Bosun's agent.toml (its seed, section 6.1).
type bosunFile struct {
	Storage struct {
		Path string `toml:"path"`
	} `toml:"storage"`
	Workspace struct {
		Root string `toml:"root"`
	} `toml:"workspace"`
	LLM struct {
		Provider          string `toml:"provider"`
		Model             string `toml:"model"`
		BaseURL           string `toml:"base_url"`
		MaxContextTokens  int    `toml:"max_context_tokens"`
		MaxResponseTokens int    `toml:"max_response_tokens"`
	} `toml:"llm"`
	Policy struct {
		AllowExec    *bool `toml:"allow_exec"`
		AllowNetwork *bool `toml:"allow_network"`
		FS           struct {
			ReadRoots  []string `toml:"read_roots"`
			WriteRoots []string `toml:"write_roots"`
		} `toml:"fs"`
		NetHTTP struct {
			AllowDomains []string `toml:"allow_domains"`
		} `toml:"net_http"`
	} `toml:"policy"`
	Secrets struct {
		Keys []string `toml:"keys"`
	} `toml:"secrets"`
	MCPServers []struct {
		Name    string            `toml:"name"`
		Command string            `toml:"command"`
		Args    []string          `toml:"args"`
		Env     map[string]string `toml:"env"`
	} `toml:"mcp_servers"`
}

// modelKeyEnv is the variable each provider's key is read from by
// convention: Bosun lists it among its secrets, Deckhand names it as the
// model's key (and does not pass it on to servers).
var modelKeyEnv = map[string]string{"anthropic": "ANTHROPIC_API_KEY", "openai": "OPENAI_API_KEY"}

// ParseBosun maps Bosun's agent.toml (name, data) onto Deckhand's config.
// current is the config file as it is now (nil or empty: none yet); keys it
// defines are kept and reported. Relative paths in agent.toml (the
// workspace, roots, "./" arguments) are relative to its folder, as Bosun
// reads them, and become absolute.
func ParseBosun(name string, data []byte, current []byte, existing map[string]Server) (*BosunImport, error) {
	var b bosunFile
	md, err := toml.Decode(string(data), &b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if !md.IsDefined("llm") && !md.IsDefined("mcp_servers") && !md.IsDefined("policy") && !md.IsDefined("workspace") {
		return nil, fmt.Errorf("%s: not a Bosun agent.toml (no [llm], [policy], [workspace] or [[mcp_servers]])", name)
	}
	var cur toml.MetaData
	if len(current) > 0 {
		if cur, err = toml.Decode(string(current), &map[string]any{}); err != nil {
			return nil, fmt.Errorf("the config: %w", err)
		}
	}
	dir, err := filepath.Abs(filepath.Dir(name))
	if err != nil {
		return nil, err
	}
	abs := func(p string) string {
		if p == "" || filepath.IsAbs(p) || strings.HasPrefix(p, "~/") {
			return p
		}
		return filepath.Join(dir, p)
	}
	absAll := func(ps []string) []string {
		out := make([]string, len(ps))
		for i, p := range ps {
			out[i] = abs(p)
		}
		return out
	}
	rep := &BosunImport{}
	set := func(from, table, key string, value any) {
		path := append(strings.Split(table, "."), strings.Split(key, ".")...)
		if cur.IsDefined(path...) {
			rep.NotMapped = append(rep.NotMapped, Skipped{from, fmt.Sprintf("kept the config's own %s.%s", table, key)})
			return
		}
		rep.Edits = append(rep.Edits, Edit{Table: table, Key: key, Value: value})
	}
	notMapped := func(key, why string) {
		if md.IsDefined(strings.Split(key, ".")...) {
			rep.NotMapped = append(rep.NotMapped, Skipped{key, why})
		}
	}

	provider := strings.ToLower(b.LLM.Provider)
	if b.LLM.Provider != "" {
		if provider != "anthropic" && provider != "openai" {
			rep.NotMapped = append(rep.NotMapped, Skipped{"llm.provider", fmt.Sprintf("%q: Deckhand speaks openai (any OpenAI-compatible server) and anthropic; set model.provider and model.base_url by hand", b.LLM.Provider)})
			provider = ""
		} else {
			set("llm.provider", "model", "provider", provider)
		}
	}
	if b.LLM.Model != "" {
		set("llm.model", "model", "name", b.LLM.Model)
	}
	if b.LLM.BaseURL != "" {
		set("llm.base_url", "model", "base_url", b.LLM.BaseURL)
	}
	if b.LLM.MaxContextTokens > 0 {
		set("llm.max_context_tokens", "model", "max_context_tokens", b.LLM.MaxContextTokens)
	}
	if b.LLM.MaxResponseTokens > 0 {
		set("llm.max_response_tokens", "model", "max_output_tokens", b.LLM.MaxResponseTokens)
	}
	if b.Workspace.Root != "" {
		set("workspace.root", "policy", "workspace", abs(b.Workspace.Root))
	}
	if b.Policy.AllowExec != nil {
		set("policy.allow_exec", "policy", "allow_exec", *b.Policy.AllowExec)
	}
	if b.Policy.AllowNetwork != nil {
		rep.NotMapped = append(rep.NotMapped, Skipped{"policy.allow_network", "Deckhand decides the network per server: a local server's `network` key (none by default), and the hosts remote servers may use (their own and policy.net.allow_domains)"})
	}
	if len(b.Policy.FS.ReadRoots) > 0 {
		set("policy.fs.read_roots", "policy.fs", "read_roots", absAll(b.Policy.FS.ReadRoots))
	}
	if len(b.Policy.FS.WriteRoots) > 0 {
		set("policy.fs.write_roots", "policy.fs", "write_roots", absAll(b.Policy.FS.WriteRoots))
	}
	if len(b.Policy.NetHTTP.AllowDomains) > 0 {
		set("policy.net_http.allow_domains", "policy.net", "allow_domains", b.Policy.NetHTTP.AllowDomains)
	}
	var secrets []string
	for _, k := range b.Secrets.Keys {
		if provider != "" && k == modelKeyEnv[provider] {
			set("secrets.keys", "model", "api_key_env", k) // the model's key, never passed on to servers
			continue
		}
		secrets = append(secrets, k)
	}
	if len(secrets) > 0 {
		set("secrets.keys", "policy.secrets", "keys", secrets)
	}
	notMapped("storage.path", "Bosun's log is not Deckhand's; Deckhand keeps its own (deckhand --db FILE chooses where)")
	for _, k := range md.Undecoded() {
		rep.NotMapped = append(rep.NotMapped, Skipped{k.String(), "no such setting in Deckhand"})
	}

	taken := map[string]bool{}
	for alias := range existing {
		taken[alias] = true
	}
	for i, ms := range b.MCPServers {
		n := ms.Name
		if n == "" {
			n = fmt.Sprintf("mcp_servers[%d]", i)
		}
		if ms.Command == "" {
			rep.Skipped = append(rep.Skipped, Skipped{n, "no command"})
			continue
		}
		s := Server{Command: ms.Command, Env: ms.Env}
		if strings.HasPrefix(ms.Command, "./") || strings.HasPrefix(ms.Command, "../") {
			s.Command = abs(ms.Command)
		}
		for _, a := range ms.Args {
			if strings.HasPrefix(a, "./") || strings.HasPrefix(a, "../") || a == "." {
				a = abs(a) // Bosun starts servers in agent.toml's folder
			}
			s.Args = append(s.Args, a)
		}
		if added, skipped := admit(n, s, taken); skipped != nil {
			rep.Skipped = append(rep.Skipped, *skipped)
		} else {
			rep.Added = append(rep.Added, added)
		}
	}
	slices.SortStableFunc(rep.NotMapped, func(a, b Skipped) int { return strings.Compare(a.Name, b.Name) })
	return rep, nil
}
