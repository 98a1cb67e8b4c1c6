package config

import "path/filepath"

// Tools configures the built-in tools server: command-line programs as MCP
// tools, from JSON definitions (package toolserver), run sandboxed in the
// workspace. The window and `deckhand chat` connect it in-process as the
// server "local".
type Tools struct {
	// Enabled connects the built-in server. Default true.
	Enabled *bool `toml:"enabled"`
	// Dir holds a person's definitions (*.json), which add to the built-in
	// ones or replace those of the same name; "~/" expands to the home
	// folder. Default: tools/ beside the config file
	// ($XDG_CONFIG_HOME/deckhand/tools).
	Dir string `toml:"dir" validate:"omitempty,startswith=/|startswith=~/"`
}

// toolsDirTag is the validation of tools.dir, whose message is set here.
const toolsDirTag = "startswith=/|startswith=~/"

func init() {
	messages[toolsDirTag] = `must be an absolute path or start with "~/"`
}

// On reports whether the built-in tools server is connected.
func (t Tools) On() bool { return t.Enabled == nil || *t.Enabled }

// DefinitionsDir is the folder of a person's tool definitions.
func (t Tools) DefinitionsDir() string {
	if t.Dir != "" {
		return ExpandPath(t.Dir)
	}
	p, err := DefaultPath()
	if err != nil {
		return ""
	}
	return filepath.Join(filepath.Dir(p), "tools")
}
