package policy

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"deckhand/config"
	"deckhand/sandbox"
)

// Warnings are what a careful person should know about cfg's policy:
// servers that run unconfined, roots that open the whole home folder (or
// more), a folder a server's arguments name that its roots leave out, and
// a kernel that cannot confine. Sorted, in plain words.
func (p *Policy) Warnings(cfg *config.Config) []string {
	var out []string
	for _, kind := range []struct {
		name  string
		roots []string
	}{{"write_roots", p.Write}, {"read_roots", p.Read}} {
		for _, r := range kind.roots {
			if p.broad(r) {
				out = append(out, fmt.Sprintf("policy.fs.%s includes %s, which holds your whole home folder (keys, browser profiles, Deckhand's own log): narrow it to the folders tools need", kind.name, r))
			}
		}
	}
	aliases := slices.Sorted(maps.Keys(cfg.MCP.Servers))
	confined := false
	for _, alias := range aliases {
		srv := cfg.MCP.Servers[alias]
		if !srv.IsStdio() || srv.Disabled {
			continue
		}
		if !srv.SandboxOn() {
			out = append(out, fmt.Sprintf("%s runs unconfined (sandbox = \"off\"): it can read and write everything you can", alias))
			continue
		}
		confined = true
		roots := p.ServerRoots(srv)
		for _, a := range srv.Args {
			dir := config.ExpandPath(a)
			if !strings.HasPrefix(a, "/") && !strings.HasPrefix(a, "~") {
				continue
			}
			if st, err := os.Stat(dir); err != nil || !st.IsDir() {
				continue
			}
			if !slices.ContainsFunc(roots, func(r string) bool { return within(dir, r) }) {
				out = append(out, fmt.Sprintf("%s names %s in its arguments, outside its roots: the sandbox lets it read there but not write, and servers that follow roots (server-filesystem) will not serve it; add write = [%q] (or read) to mcp.servers.%s, or move the files into the workspace", alias, a, a, alias))
			}
		}
		if !srv.NetworkOn() && sandbox.ABI() > 0 && sandbox.ABI() < 4 {
			out = append(out, fmt.Sprintf("%s has network = false, which needs Landlock ABI 4 (Linux 6.7); this kernel has ABI %d, so it will not start", alias, sandbox.ABI()))
		}
	}
	if err := sandbox.Available(); err != nil && confined {
		out = append(out, fmt.Sprintf("%v: sandboxed servers will not start; set sandbox = \"off\" on a server to run it unconfined, knowing it can then read and write everything you can", err))
	}
	return out
}

// broad reports whether a root opens the whole home folder or more.
func (p *Policy) broad(root string) bool {
	if root == "/" || p.home == "" {
		return root == "/"
	}
	return within(p.home, filepath.Clean(root))
}
