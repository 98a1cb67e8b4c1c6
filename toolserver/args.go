package toolserver

import (
	"deckhand/policy"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Call is a tool call's arguments turned into what runs.
type Call struct {
	Job     Job
	Display string // the command line, quoted, for the model and the log
}

// callArgs decodes and checks a call's arguments against the tool's input
// schema. Everything a client sends is untrusted.
func (t *Tool) callArgs(raw json.RawMessage) (map[string]any, error) {
	args := map[string]any{}
	if len(raw) > 0 && string(raw) != "null" {
		if err := json.Unmarshal(raw, &args); err != nil {
			return nil, fmt.Errorf("the arguments are not a JSON object: %v", err)
		}
	}
	if err := t.resolved.Validate(args); err != nil {
		return nil, fmt.Errorf("bad arguments: %s", schemaReason(err))
	}
	return args, nil
}

// prepare builds the job of a call of t with args, in scope (absolute,
// with symbolic links resolved).
func (t *Tool) prepare(args map[string]any, scope string, limit int) (*Call, error) {
	dir := scope
	if v, ok := args[MetaDir].(string); ok && v != "" {
		d, err := insideScope(v, scope, scope)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", MetaDir, err)
		}
		if st, err := os.Stat(d); err != nil || !st.IsDir() {
			return nil, fmt.Errorf("%s: %s is not a folder", MetaDir, v)
		}
		dir = d
	}
	timeout := t.Timeout
	if v, ok := args[MetaTimeout].(float64); ok && v >= 1 {
		timeout = min(time.Duration(v)*time.Second, MaxTimeout)
	}
	argv := append([]string(nil), t.Args...)
	var stdin string
	value := func(p Param) (any, bool) {
		if v, ok := args[p.Name]; ok && v != nil {
			return v, true
		}
		if len(p.Default) > 0 {
			var d any
			if json.Unmarshal(p.Default, &d) == nil {
				return d, true
			}
		}
		return nil, false
	}
	scalar := func(p Param, v any, positional bool, path bool) (string, error) {
		var s string
		switch v := v.(type) {
		case string:
			s = v
		case float64:
			if p.Type == "integer" || p.Items != nil && p.Items.Type == "integer" {
				// The whole number in digits, however large (int64(v)
				// would make 1e19 a negative number); -0 is 0.
				s = "0"
				if v != 0 {
					s = strconv.FormatFloat(v, 'f', -1, 64)
				}
			} else {
				s = strconv.FormatFloat(v, 'g', -1, 64)
			}
		case bool:
			s = strconv.FormatBool(v)
		default:
			return "", fmt.Errorf("%s: want a %s", p.Name, p.Type)
		}
		if strings.ContainsRune(s, 0) {
			return "", fmt.Errorf("%s: a value cannot hold a NUL character", p.Name)
		}
		if positional && strings.HasPrefix(s, "-") && !t.EndOfOpts && !p.EndOfOpts && !p.AllowDash && !p.Stdin {
			return "", fmt.Errorf("%s: %q starts with '-', which the program would take for an option", p.Name, s)
		}
		if path {
			if _, err := insideScope(s, dir, scope); err != nil {
				return "", fmt.Errorf("%s: %w", p.Name, err)
			}
		}
		return s, nil
	}
	isPath := func(p Param) bool { return p.Format == "path" || p.Items != nil && p.Items.Format == "path" }
	for _, p := range t.Options {
		v, ok := value(p)
		if !ok {
			continue
		}
		flag := p.Flag
		if flag == "" {
			flag = "--" + p.Name
		}
		emit := func(s string) {
			if p.Joined {
				argv = append(argv, flag+"="+s)
			} else {
				argv = append(argv, flag, s)
			}
		}
		switch p.Type {
		case "boolean":
			if b, _ := v.(bool); b {
				argv = append(argv, flag)
			}
		case "array":
			list, _ := v.([]any)
			for _, e := range list { // the flag repeated, one value each
				s, err := scalar(p, e, false, isPath(p))
				if err != nil {
					return nil, err
				}
				emit(s)
			}
		default:
			s, err := scalar(p, v, false, isPath(p))
			if err != nil {
				return nil, err
			}
			emit(s)
		}
	}
	if t.EndOfOpts {
		argv = append(argv, "--")
	}
	dashed := t.EndOfOpts
	for _, p := range t.Positional {
		v, ok := value(p)
		if !ok {
			continue
		}
		if p.EndOfOpts && !dashed {
			if list, isList := v.([]any); !isList || len(list) > 0 {
				argv = append(argv, "--")
				dashed = true
			}
		}
		if p.Type == "array" {
			list, _ := v.([]any)
			for _, e := range list {
				s, err := scalar(p, e, true, isPath(p))
				if err != nil {
					return nil, err
				}
				argv = append(argv, s)
			}
			continue
		}
		s, err := scalar(p, v, true, isPath(p))
		if err != nil {
			return nil, err
		}
		if p.Stdin {
			stdin = s
			continue
		}
		argv = append(argv, s)
	}
	var read []string
	home, _ := os.UserHomeDir()
	for _, r := range t.SandboxRead {
		if strings.HasPrefix(r, "~/") {
			if home == "" {
				continue
			}
			r = filepath.Join(home, r[2:])
		}
		read = append(read, filepath.Clean(r))
	}
	job := Job{Path: t.Command, Args: argv, Dir: dir, Stdin: stdin, Env: t.Env, Read: read, Timeout: timeout, Limit: limit}
	return &Call{Job: job, Display: displayCommand(t.Command, argv)}, nil
}

// insideScope resolves v (relative to dir) and checks it is in scope,
// following symbolic links as far as the path exists.
func insideScope(v, dir, scope string) (string, error) {
	if strings.HasPrefix(v, "~") {
		return "", fmt.Errorf("%s: ~ is not expanded; give a path inside %s", v, scope)
	}
	p := v
	if !filepath.IsAbs(p) {
		p = dir + "/" + p // not Join: its cleaning would take "link/.." away before the link is followed
	}
	real := policy.RealPath(p)
	if !within(real, policy.RealPath(scope)) {
		return "", fmt.Errorf("%s is outside the sandbox scope %s", v, scope)
	}
	return real, nil
}

// within reports whether path is root or inside it.
func within(path, root string) bool {
	if path == root {
		return true
	}
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../") && !filepath.IsAbs(rel)
}

// displayCommand is argv as a person would type it.
func displayCommand(program string, args []string) string {
	parts := []string{shellQuote(filepath.Base(program))}
	for _, a := range args {
		parts = append(parts, shellQuote(a))
	}
	return strings.Join(parts, " ")
}

func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,+@%", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
