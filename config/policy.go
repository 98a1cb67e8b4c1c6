package config

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// DefaultWorkspace is the folder a new user's tools work in: empty at
// first, so nothing the person already has is exposed, and created on
// first use.
const DefaultWorkspace = "~/Deckhand"

// Policy is the capability policy: what tools may touch, whatever the
// approval gate allows. Every field has a safe default.
type Policy struct {
	// Workspace is the folder tools work in, created on first use; "~/"
	// expands to the home folder. Default ~/Deckhand.
	Workspace string `toml:"workspace"`
	// AllowExec lets the model propose shell commands (lines starting with
	// "CMD:"), each asked every time and run confined to the workspace.
	// Default false.
	AllowExec bool `toml:"allow_exec"`
	// FS bounds the files tools may name and sandboxed servers may open.
	FS PolicyFS `toml:"fs"`
	// Net bounds where remote servers may be reached.
	Net PolicyNet `toml:"net"`
	// Secrets bounds the environment variables passed on to servers.
	Secrets PolicySecrets `toml:"secrets"`
}

// PolicyFS lists the roots of file access.
type PolicyFS struct {
	// ReadRoots may be read (by read-only tools, and by sandboxed servers).
	// Default: the workspace. The write roots may be read too.
	ReadRoots []string `toml:"read_roots"`
	// WriteRoots may be read and written. Default: the workspace.
	WriteRoots []string `toml:"write_roots"`
}

// PolicyNet lists where remote servers may be.
type PolicyNet struct {
	// AllowDomains are hosts (and their subdomains, written ".example.com"
	// or "*.example.com") that HTTP servers may use besides the host of
	// their own url, for example after a redirect. Default: none.
	AllowDomains []string `toml:"allow_domains"`
}

// PolicySecrets lists the variables of Deckhand's environment that may be
// passed on to servers that name them (`secrets = [...]` or "${NAME}" in
// their env). The model's API key is never passed on. Default: none.
type PolicySecrets struct {
	Keys []string `toml:"keys" validate:"dive,env_name"`
}

// Sandbox values of [Server.Sandbox].
const (
	SandboxOn  = "on"  // the default for command servers
	SandboxOff = "off" // run unconfined (shown as a warning)
)

// WorkspaceDir is the workspace's absolute path.
func (p Policy) WorkspaceDir() string {
	w := p.Workspace
	if w == "" {
		w = DefaultWorkspace
	}
	return ExpandPath(w)
}

// Roots are the read and write roots, absolute and cleaned, with their
// defaults (the workspace). Read includes every write root.
func (p Policy) Roots() (read, write []string) {
	write = ExpandPaths(p.FS.WriteRoots)
	if p.FS.WriteRoots == nil {
		write = []string{p.WorkspaceDir()}
	}
	read = ExpandPaths(p.FS.ReadRoots)
	if p.FS.ReadRoots == nil {
		read = []string{p.WorkspaceDir()}
	}
	for _, w := range write {
		if !slices.Contains(read, w) {
			read = append(read, w)
		}
	}
	return read, write
}

// SecretAllowed reports whether the policy lets name be passed on.
func (p Policy) SecretAllowed(name string) bool {
	return slices.Contains(p.Secrets.Keys, name)
}

// SandboxOn reports whether a command server runs in the sandbox.
func (s Server) SandboxOn() bool { return s.IsStdio() && s.Sandbox != SandboxOff }

// NetworkOn reports whether a sandboxed server may use the network
// (default on: npx and uvx fetch packages).
func (s Server) NetworkOn() bool { return s.Network.On() }

// ExpandPath expands a leading "~/" and makes p absolute and clean.
func ExpandPath(p string) string {
	if p == "~" || strings.HasPrefix(p, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			p = filepath.Join(home, strings.TrimPrefix(p, "~"))
		}
	}
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	return filepath.Clean(p)
}

// ExpandPaths expands each of paths (see ExpandPath), leaving out blank ones.
func ExpandPaths(paths []string) []string {
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, ExpandPath(p))
		}
	}
	return out
}
