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
// servers that run unconfined, roots (the policy's, or a server's read,
// write and cwd) that open the whole home folder, other programs' data or
// a secret folder, a folder a server's arguments name that its roots
// leave out, and a kernel that cannot confine. Sorted, in plain words.
func (p *Policy) Warnings(cfg *config.Config) []string {
	var out []string
	for _, kind := range []struct {
		name  string
		roots []string
	}{{"write_roots", p.Write}, {"read_roots", p.Read}} {
		for _, r := range kind.roots {
			if what := p.opensHome(r); what != "" {
				out = append(out, fmt.Sprintf("policy.fs.%s includes %s, which opens %s: narrow it to the folders tools need (%s stay hidden from sandboxed servers unless named exactly; Deckhand's own files always)", kind.name, p.short(r), what, p.hiddenSummary()))
			}
		}
	}
	if err := p.checkOwnRoots("", config.Server{}); err != nil {
		out = append(out, err.Error())
	}
	aliases := slices.Sorted(maps.Keys(cfg.MCP.Servers))
	confined := false
	for _, alias := range aliases {
		srv := cfg.MCP.Servers[alias]
		if !srv.IsStdio() || srv.Disabled {
			continue
		}
		if !srv.SandboxOn() {
			out = append(out, fmt.Sprintf("%s runs unconfined (sandbox = \"off\"): it can read and write everything you can, and reach your session (display, keyring, ssh-agent)", alias))
			continue
		}
		confined = true
		for _, key := range []struct {
			name  string
			paths []string
		}{{"read", srv.Read}, {"write", srv.Write}, {"cwd", []string{srv.Cwd}}} {
			for _, r := range key.paths {
				if r == "" {
					continue
				}
				if what := p.opensHome(config.ExpandPath(r)); what != "" {
					out = append(out, fmt.Sprintf("mcp.servers.%s.%s is %s, which opens %s to that server: narrow it (%s stay hidden unless named exactly; Deckhand's own files always)", alias, key.name, r, what, p.hiddenSummary()))
				}
			}
		}
		if _, err := p.ServerSpec(alias, srv, "", ""); err != nil {
			out = append(out, fmt.Sprintf("%v: the server will not start", err))
		}
		for _, a := range p.ArgFoldersOutside(srv) {
			out = append(out, fmt.Sprintf("%s names %s in its arguments, outside its roots: the sandbox lets it read there but not write, and servers that follow roots (server-filesystem) will not serve it; add write = [%q] (or read) to mcp.servers.%s, or move the files into the workspace", alias, a, a, alias))
		}
		if sandbox.ABI() > 0 && sandbox.ABI() < 6 && srv.NetworkOn() {
			out = append(out, fmt.Sprintf("%s has the network on, and this kernel's Landlock (ABI %d, before 6) cannot keep it from abstract unix sockets (an X display or a bus listening on one); set network = false or a list of hosts to give it a network of its own", alias, sandbox.ABI()))
		}
	}
	if err := sandbox.Available(); err != nil && confined {
		out = append(out, fmt.Sprintf("%v: sandboxed servers will not start; set sandbox = \"off\" on a server to run it unconfined, knowing it can then read and write everything you can", err))
	}
	return out
}

// hiddenSummary names a few of the places sandboxes hide.
func (p *Policy) hiddenSummary() string {
	return "~/.ssh, ~/.gnupg, ~/.aws, keyrings and browser profiles"
}

// broad reports whether a root opens the whole home folder or more.
func (p *Policy) broad(root string) bool {
	if root == "/" || p.home == "" {
		return root == "/"
	}
	return within(p.home, filepath.Clean(root))
}

// ArgFoldersOutside are the folders a command server's arguments name
// (as written) that exist and lie outside its roots: a server-filesystem
// added for ~/Documents that would serve the workspace instead, unless the
// person grants them.
func (p *Policy) ArgFoldersOutside(srv config.Server) []string {
	roots := p.ServerRoots(srv)
	var out []string
	for _, a := range ArgFolders(srv) {
		if !slices.ContainsFunc(roots, func(r string) bool { return within(config.ExpandPath(a), r) }) {
			out = append(out, a)
		}
	}
	return out
}

// ArgFolders are the folders a command server's arguments name, as
// written: each absolute or under ~, and an existing directory.
func ArgFolders(srv config.Server) []string {
	if !srv.IsStdio() {
		return nil
	}
	var out []string
	for _, a := range srv.Args {
		if !strings.HasPrefix(a, "/") && !strings.HasPrefix(a, "~") {
			continue
		}
		if st, err := os.Stat(config.ExpandPath(a)); err != nil || !st.IsDir() {
			continue
		}
		if !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	return out
}
