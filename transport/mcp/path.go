package mcp

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// PathResolver finds a server's command on PATH and, when it is not there, on
// the PATH that the user's login shell sets up. A program started from a
// desktop launcher often has a bare PATH without ~/.nvm, ~/.local/bin or
// /opt/homebrew/bin, where npx, uvx and friends live.
//
// The login shell is asked once, lazily; the zero value is ready to use.
type PathResolver struct {
	// Shell is the login shell; default $SHELL, then /bin/sh.
	Shell string
	// Timeout bounds asking the shell. Default 5s.
	Timeout time.Duration

	once sync.Once
	dirs []string
}

const pathMarker = "__DECKHAND_PATH__"

// LookPath resolves name. When it was found only on the login shell's PATH,
// loginPath is that PATH (for the child's environment, so that a script's
// "#!/usr/bin/env node" finds node too); otherwise loginPath is "".
func (r *PathResolver) LookPath(name string) (path, loginPath string, err error) {
	path, err = exec.LookPath(name)
	if err == nil || strings.ContainsRune(name, filepath.Separator) {
		return path, "", err
	}
	dirs := r.loginDirs()
	for _, dir := range dirs {
		candidate := filepath.Join(dir, name)
		if st, statErr := os.Stat(candidate); statErr == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return candidate, strings.Join(dirs, string(os.PathListSeparator)), nil
		}
	}
	return "", "", err // exec's own message: exec: "npx": executable file not found in $PATH
}

func (r *PathResolver) loginDirs() []string {
	r.once.Do(func() {
		shell := r.Shell
		if shell == "" {
			shell = os.Getenv("SHELL")
		}
		if shell == "" {
			shell = "/bin/sh"
		}
		timeout := r.Timeout
		if timeout <= 0 {
			timeout = 5 * time.Second
		}
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		// -i as well as -l: many people set PATH (nvm, for one) in .bashrc,
		// which a non-interactive shell skips.
		cmd := exec.CommandContext(ctx, shell, "-i", "-l", "-c", `printf '\n`+pathMarker+`%s`+pathMarker+`\n' "$PATH"`)
		cmd.Stdin = nil
		cmd.WaitDelay = time.Second
		out, err := cmd.Output()
		if err != nil && len(out) == 0 {
			return
		}
		r.dirs = parsePathOutput(out)
	})
	return r.dirs
}

// parsePathOutput finds the marked PATH in a shell's output, which may hold
// anything else an rc file printed.
func parsePathOutput(out []byte) []string {
	// The value is between the last two markers: an rc file that echoes
	// commands may print the marker inside the command text first.
	parts := bytes.Split(out, []byte(pathMarker))
	if len(parts) < 3 {
		return nil
	}
	var dirs []string
	for _, d := range filepath.SplitList(string(parts[len(parts)-2])) {
		if d != "" && filepath.IsAbs(d) {
			dirs = append(dirs, d)
		}
	}
	return dirs
}

// ChildPath is the PATH a child gets: Deckhand's own, extended by the
// login shell's (loginPath, from LookPath) when the command was found there.
func ChildPath(loginPath string) string {
	if loginPath == "" {
		return os.Getenv("PATH")
	}
	return mergePath(os.Getenv("PATH"), loginPath)
}

func mergePath(a, b string) string {
	seen := map[string]bool{}
	var out []string
	for _, d := range append(filepath.SplitList(a), filepath.SplitList(b)...) {
		if d != "" && !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	return strings.Join(out, string(os.PathListSeparator))
}

func expandHome(p string) (string, error) {
	if p != "~" && !strings.HasPrefix(p, "~/") {
		return p, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", errors.New("cannot expand ~: no home directory")
	}
	return filepath.Join(home, p[1:]), nil
}
