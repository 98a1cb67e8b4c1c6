package settings

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"deckhand/config"
)

// policyEdits reads the form's policy section into edits of the config
// file. Only what the person changed is written: a policy section written
// by hand (comments, a form the line editor cannot change) is left alone
// when they only change the model. An empty workspace or list of roots
// removes its key, which means the default (the workspace).
func policyEdits(was config.Policy, workspace, read, write string, allowExec bool) ([]config.Edit, error) {
	var edits []config.Edit
	workspace = strings.TrimSpace(workspace)
	if workspace != strings.TrimSpace(was.Workspace) {
		if workspace != "" && !absFolder(workspace) {
			return nil, fmt.Errorf("workspace folder: %q is not a full path: start it with / or ~/", workspace)
		}
		var v any
		if workspace != "" {
			v = workspace
		}
		edits = append(edits, config.Edit{Table: "policy", Key: "workspace", Value: v})
	}
	for _, r := range []struct {
		name, key, text string
		was             []string
	}{
		{"read roots", "read_roots", read, was.FS.ReadRoots},
		{"write roots", "write_roots", write, was.FS.WriteRoots},
	} {
		roots := rootLines(r.text)
		if slices.Equal(roots, rootLines(strings.Join(r.was, "\n"))) {
			continue
		}
		for _, root := range roots {
			if !absFolder(root) {
				return nil, fmt.Errorf("%s: %q is not a full path: start it with / or ~/", r.name, root)
			}
		}
		var v any
		if len(roots) > 0 {
			v = roots
		}
		edits = append(edits, config.Edit{Table: "policy.fs", Key: r.key, Value: v})
	}
	if allowExec != was.AllowExec {
		edits = append(edits, config.Edit{Table: "policy", Key: "allow_exec", Value: allowExec})
	}
	return edits, nil
}

// rootLines are the folders of a roots entry: one a line, blank lines
// dropped.
func rootLines(text string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// absFolder reports whether p names a folder wherever Deckhand was started
// from: absolute, or in the home folder.
func absFolder(p string) bool {
	return filepath.IsAbs(p) || p == "~" || strings.HasPrefix(p, "~/")
}

// ruleText says what an auto_approve rule does.
func ruleText(rule string, allow bool) string {
	switch {
	case !allow:
		return "always asked, even where a wider rule allows it"
	case strings.HasSuffix(rule, ".*"):
		return "every tool of " + strings.TrimSuffix(rule, ".*") + " runs without asking"
	}
	return "runs without asking"
}
