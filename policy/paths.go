package policy

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

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

// textNames are parameters whose value is text, never a path, even if it
// starts with a slash.
var textNames = map[string]bool{"content": true, "contents": true, "text": true, "body": true, "message": true,
	"query": true, "pattern": true, "command": true, "code": true, "script": true, "description": true, "data": true}

// CheckPaths decides the file paths a call of a local server's tool names:
// parameters declared `format: "path"`, parameters named like paths, and
// absolute paths in any other top-level string (or list of strings). A
// read-only tool's paths must be within the read roots, any other's within
// the write roots (the server's own read and write paths count too).
// Relative paths are taken from the server's folder (its cwd, or the
// workspace). Symbolic links are followed as far as they exist.
func (p *Policy) CheckPaths(srv config.Server, def *sdk.Tool, args json.RawMessage, readOnly bool) []Decision {
	var obj map[string]any
	if json.Unmarshal(args, &obj) != nil {
		return nil
	}
	declared := pathParams(def)
	base := p.Workspace
	if srv.Cwd != "" {
		base = config.ExpandPath(srv.Cwd)
	}
	capability, roots, kind := CapWrite, slices.Concat(p.Write, config.ExpandPaths(srv.Write)), "write roots"
	if readOnly {
		capability, roots, kind = CapRead, slices.Concat(p.Read, config.ExpandPaths(srv.Read), config.ExpandPaths(srv.Write)), "read roots"
	}
	var out []Decision
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		named := declared[k] || pathNames[strings.ToLower(k)]
		if textNames[strings.ToLower(k)] && !declared[k] {
			continue
		}
		for _, v := range strs(obj[k]) {
			if !named && !looksAbsolute(v) {
				continue
			}
			if v == "" || strings.ContainsAny(v, "\n\x00") || len(v) > 4096 {
				continue
			}
			out = append(out, decide(capability, resolve(v, base), roots, kind))
		}
	}
	return out
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

// strs is v's strings: v itself, or the strings of a list.
func strs(v any) []string {
	switch v := v.(type) {
	case string:
		return []string{v}
	case []any:
		var out []string
		for _, e := range v {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

func looksAbsolute(v string) bool {
	return strings.HasPrefix(v, "/") && !strings.HasPrefix(v, "//") && !strings.HasPrefix(v, "/*") ||
		strings.HasPrefix(v, "~/") || strings.HasPrefix(v, "file:///")
}

// resolve makes v an absolute, clean path, with symbolic links followed
// as far as the path exists.
func resolve(v, base string) string {
	v = strings.TrimPrefix(v, "file://")
	if v == "~" || strings.HasPrefix(v, "~/") {
		v = config.ExpandPath(v)
	}
	if !filepath.IsAbs(v) {
		v = filepath.Join(base, v)
	}
	return RealPath(filepath.Clean(v))
}

// RealPath follows the symbolic links of the longest part of path that
// exists, and keeps the rest.
func RealPath(path string) string {
	rest := ""
	for cur := path; ; {
		if r, err := filepath.EvalSymlinks(cur); err == nil {
			return filepath.Join(r, rest)
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return path
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}

// Describe says what the decision lets a call do, for the approval prompt.
func (d Decision) Describe() string {
	verb := map[string]string{CapRead: "reads", CapWrite: "may write", CapExec: "runs", CapNet: "reaches"}[d.Capability]
	if verb == "" {
		verb = d.Capability
	}
	return fmt.Sprintf("%s %s (%s)", verb, d.Target, d.Rule)
}
