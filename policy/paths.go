package policy

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/clean"
	"deckhand/config"
)

// Capabilities a decision is about.
const (
	CapRead  = "fs.read"
	CapWrite = "fs.write"
	CapExec  = "exec"
	CapNet   = "net"
)

// Decision is one policy decision: a capability asked for a target, and
// the rule that allowed or denied it.
type Decision struct {
	Capability string `json:"capability"`
	Target     string `json:"target"`
	Allowed    bool   `json:"allowed"`
	Rule       string `json:"rule"`
}

// pathNames are parameters that name files, whatever their schema says.
var pathNames = map[string]bool{
	"path": true, "paths": true, "file": true, "files": true, "filename": true, "filepath": true, "file_path": true,
	"directory": true, "dir": true, "dirname": true, "folder": true, "source": true, "destination": true,
	"src": true, "dst": true, "dest": true, "target": true, "root": true, "cwd": true, "working_directory": true,
	"old_path": true, "new_path": true, "output_path": true, "input_path": true,
}

// CheckPaths decides the file paths a call of a local server's tool names.
// Every string of the arguments, at any depth, is looked at: a parameter
// declared `format: "path"` or named like a path is always a path; any
// other string is one when it looks like one (absolute, ~/, file://, ./
// or ../, or with a /..) or names something that exists. A read-only
// tool's paths must be within the read roots, any other's within the
// write roots (the server's own read and write paths count too);
// readOnly must come from the person's config or a trusted server, never
// from an untrusted server's hint. That hint counts for one thing only:
// a path of a sandboxed server's tool that marks itself read-only may be
// within the read roots (a read the person granted) — its sandbox lets it
// write only within the write roots, whatever the tool does — and the
// decision says on whose word. Without it, "Read only" granted to an
// untrusted server served nothing: each of its reads was refused as a
// write. Paths are resolved as the kernel would
// (a symbolic link before the .. after it), relative ones from the
// server's folder (its cwd, or the workspace). A path in one of
// Deckhand's own places (Own: its log, config, keys) is refused always; a
// path in a secret folder is refused unless a root names that folder
// exactly; one the kernel
// would refuse as too long, or holding a NUL, is refused outright.
func (p *Policy) CheckPaths(srv config.Server, def *sdk.Tool, args json.RawMessage, readOnly bool) []Decision {
	var obj any
	if json.Unmarshal(args, &obj) != nil {
		return nil
	}
	declared := pathParams(def)
	base := p.Workspace
	if srv.Cwd != "" {
		base = config.ExpandPath(srv.Cwd)
	}
	readRoots := slices.Concat(p.Read, config.ExpandPaths(srv.Read), config.ExpandPaths(srv.Write))
	capability, roots, kind := CapWrite, slices.Concat(p.Write, config.ExpandPaths(srv.Write)), "write roots"
	if readOnly {
		capability, roots, kind = CapRead, readRoots, "read roots"
	}
	hinted := !readOnly && def != nil && def.Annotations != nil && def.Annotations.ReadOnlyHint
	var out []Decision
	walkStrings(obj, false, func(v string, named bool) {
		if !named && !p.looksLikePath(v, base) {
			return
		}
		if v == "" {
			return
		}
		if strings.ContainsRune(v, 0) || len(v) > maxPath {
			out = append(out, Decision{Capability: capability, Target: cut(strings.ToValidUTF8(strings.ReplaceAll(v, "\x00", "␀"), "?"), 120), Rule: "a path holding a NUL byte or longer than the kernel takes (4096 bytes)"})
			return
		}
		if !named && strings.ContainsAny(v, "\n\r") {
			return
		}
		path := resolve(v, base)
		if o, ok := p.ownHolding(path); ok {
			out = append(out, Decision{Capability: capability, Target: path, Rule: fmt.Sprintf("inside %s, %s, which no tool may name", p.short(o.Path), o.What)})
			return
		}
		if secret := p.secretHolding(path); secret != "" && !slices.Contains(roots, secret) {
			out = append(out, Decision{Capability: capability, Target: path, Rule: fmt.Sprintf("inside %s, a secret folder, which only a root naming it exactly opens", p.short(secret))})
			return
		}
		d := decide(capability, path, roots, kind)
		if !d.Allowed && capability == CapWrite {
			if r := decide(CapRead, path, readRoots, "read roots"); r.Allowed {
				switch {
				case hinted && srv.SandboxOn():
					r.Rule += " (read-only by its server's own mark; its sandbox lets it write only within the write roots)"
					d = r
				case hinted:
					d.Rule += fmt.Sprintf("; it is within the read roots, but %s's read-only mark is its server's own, which counts only for a sandboxed or trusted server, so what it names is checked as a write (read_only in its server's config marks it)", clean.Line(def.Name))
				case def != nil:
					d.Rule += fmt.Sprintf("; it is within the read roots, but %s is not marked read-only, so what it names is checked as a write (read_only in its server's config marks it; a sandboxed server's own mark counts)", clean.Line(def.Name))
				}
			}
		}
		out = append(out, d)
	}, declared)
	return out
}

// maxPath is the kernel's PATH_MAX.
const maxPath = 4096

// walkStrings calls f with every string in v, depth first in key order,
// and whether it is a path by its parameter's name (a top-level one
// declared as a path, or any key named like one).
func walkStrings(v any, named bool, f func(string, bool), declared map[string]bool) {
	switch v := v.(type) {
	case string:
		f(v, named)
	case []any:
		for _, e := range v {
			walkStrings(e, named, f, nil)
		}
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			walkStrings(v[k], declared[k] || pathNames[strings.ToLower(k)], f, nil)
		}
	}
}

// looksLikePath says whether a string that no name marks as a path is
// one anyway: by its form, or because it names something that exists.
func (p *Policy) looksLikePath(v, base string) bool {
	if !strings.ContainsAny(v, " \t") && (looksAbsolute(v) || strings.HasPrefix(v, "./") || strings.HasPrefix(v, "../") || v == ".." ||
		strings.Contains(v, "/../") || strings.HasSuffix(v, "/..") || strings.HasPrefix(v, "~")) {
		return true
	}
	if len(v) > maxPath || strings.ContainsAny(v, "\n\r") {
		return false
	}
	// Prose that starts with a slash ("/etc/passwd is a file") is a path
	// only if it names something; so is a relative name.
	_, err := os.Lstat(resolve(v, base))
	return err == nil
}

func cut(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

func decide(capability, path string, roots []string, kind string) Decision {
	for _, r := range roots {
		if within(path, RealPath(r)) || within(path, r) {
			return Decision{Capability: capability, Target: path, Allowed: true, Rule: "within " + r}
		}
	}
	return Decision{Capability: capability, Target: path, Rule: fmt.Sprintf("outside the %s (%s)", kind, strings.Join(roots, ", "))}
}

// pathParams are the top-level parameters a tool's schema declares as
// paths (`"format": "path"`, on the property or its items).
func pathParams(def *sdk.Tool) map[string]bool {
	out := map[string]bool{}
	if def == nil || def.InputSchema == nil {
		return out
	}
	data, err := json.Marshal(def.InputSchema)
	if err != nil {
		return out
	}
	var schema struct {
		Properties map[string]struct {
			Format string `json:"format"`
			Items  *struct {
				Format string `json:"format"`
			} `json:"items"`
		} `json:"properties"`
	}
	if json.Unmarshal(data, &schema) != nil {
		return out
	}
	for name, prop := range schema.Properties {
		if prop.Format == "path" || prop.Items != nil && prop.Items.Format == "path" {
			out[name] = true
		}
	}
	return out
}

func looksAbsolute(v string) bool {
	return strings.HasPrefix(v, "/") && !strings.HasPrefix(v, "//") && !strings.HasPrefix(v, "/*") ||
		strings.HasPrefix(v, "~/") || strings.HasPrefix(v, "file:///")
}

// resolve makes v an absolute path resolved as the kernel would.
func resolve(v, base string) string {
	v = strings.TrimPrefix(v, "file://")
	if v == "~" || strings.HasPrefix(v, "~/") {
		v = config.ExpandPath(v)
	}
	if !filepath.IsAbs(v) {
		v = base + "/" + v
	}
	return RealPath(v)
}

// RealPath resolves path (absolute) as the kernel would: component by
// component, a symbolic link replaced by its target before a ".." after
// it is taken, so "link/../x" is x beside the link's target, not beside
// the link. From the first component that does not exist, the rest is
// taken as written (cleaned).
func RealPath(path string) string {
	real, _ := resolveLinks(path, nil)
	return real
}

// resolveLinks resolves path as RealPath does, telling stop of each
// symbolic link met (the link's own path, before it is followed); it
// ends where stop says true, and says so.
func resolveLinks(path string, stop func(link string) bool) (string, bool) {
	parts := strings.Split(path, "/")
	cur := "/"
	for hops, i := 0, 0; i < len(parts); i++ {
		switch part := parts[i]; part {
		case "", ".":
		case "..":
			cur = filepath.Dir(cur)
		default:
			next := filepath.Join(cur, part)
			st, err := os.Lstat(next)
			if err != nil {
				return filepath.Join(cur, filepath.Clean(strings.Join(parts[i:], "/"))), false
			}
			if st.Mode()&os.ModeSymlink == 0 {
				cur = next
				continue
			}
			if stop != nil && stop(next) {
				return next, true
			}
			target, err := os.Readlink(next)
			if hops++; err != nil || hops > 40 {
				return filepath.Join(cur, filepath.Clean(strings.Join(parts[i:], "/"))), false
			}
			if filepath.IsAbs(target) {
				cur = "/"
			}
			parts = append(strings.Split(target, "/"), parts[i+1:]...)
			i = -1
		}
	}
	return cur, false
}

// Describe says what the decision lets a call do, for the approval prompt.
func (d Decision) Describe() string {
	verb := map[string]string{CapRead: "reads", CapWrite: "may write", CapExec: "runs", CapNet: "reaches"}[d.Capability]
	if verb == "" {
		verb = d.Capability
	}
	return fmt.Sprintf("%s %s (%s)", verb, d.Target, d.Rule)
}

// linkIn reports whether resolving path (absolute) meets a symbolic link
// inside one of roots (a link that is a root itself does not count), as
// RealPath resolves it: a link that a program allowed to write there may
// have planted.
func linkIn(path string, roots []string) bool {
	_, met := resolveLinks(path, func(link string) bool {
		return slices.ContainsFunc(roots, func(r string) bool { return link != r && within(link, r) })
	})
	return met
}
