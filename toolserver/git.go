package toolserver

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// gitSafety are the settings every git Deckhand runs gets first: a
// repository is untrusted input, and its own settings may name programs
// that git runs on a read-only status or diff (core.fsmonitor, diff
// textconv and external diff, filters) or a commit (hooks, signing, gc).
// With these, git runs none of them. The person's own ~/.gitconfig is
// kept (their name, their git-lfs).
var gitSafety = []string{
	"-c", "core.fsmonitor=false",
	"-c", "core.hooksPath=/dev/null",
	"-c", "core.pager=cat",
	"-c", "core.sshCommand=false",
	"-c", "core.askPass=",
	"-c", "credential.helper=",
	"-c", "diff.external=",
	"-c", "commit.gpgSign=false",
	"-c", "tag.gpgSign=false",
	"-c", "log.showSignature=false",
	"-c", "gc.auto=0",
	"-c", "maintenance.auto=false",
	"-c", "protocol.allow=never",
}

// gitNoDriverArgs are the options, for the subcommands that show
// changes, that keep git from running a textconv or external diff
// program.
var gitNoDriverArgs = map[string][]string{
	"diff": {"--no-textconv", "--no-ext-diff"},
	"show": {"--no-textconv", "--no-ext-diff"},
	"log":  {"--no-textconv", "--no-ext-diff"},
}

// gitEnv keeps the system's settings out too (a shared machine's
// /etc/gitconfig is not the person's).
var gitEnv = []string{"GIT_CONFIG_NOSYSTEM=1", "GIT_TERMINAL_PROMPT=0", "GIT_NO_REPLACE_OBJECTS=1"}

// isGit reports whether a job's program is git.
func isGit(path string) bool { return filepath.Base(path) == "git" }

// repoDrivers are the keys of the repository's own settings that name
// programs for filters, diffs and merges ("filter.x.clean", …), read
// without running any: each is then overridden to nothing. Reading
// settings runs no program of theirs.
func repoDrivers(ctx context.Context, git, dir string) []string {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, git, "config", "--local", "--includes", "--null", "--name-only", "--get-regexp",
		`^(filter|diff|merge)\..+\.(clean|smudge|process|textconv|command|driver|required)$`)
	cmd.Dir = dir
	cmd.Env = append(slices.Clone(gitEnv), "HOME="+os.Getenv("HOME"), "PATH=/usr/bin:/bin")
	out, err := cmd.Output()
	if err != nil && len(out) == 0 {
		return nil // no repository, or none of these keys
	}
	var args []string
	for _, key := range bytes.Split(out, []byte{0}) {
		k := strings.TrimSpace(string(key))
		if k == "" {
			continue
		}
		value := ""
		if strings.HasSuffix(k, ".required") {
			value = "false"
		}
		args = append(args, "-c", k+"="+value)
	}
	return args
}

// hardenGit puts the safety settings before a git job's own arguments,
// and the no-driver options after its subcommand.
func hardenGit(ctx context.Context, git, dir string, args []string) []string {
	out := slices.Concat(gitSafety, repoDrivers(ctx, git, dir))
	for i, a := range args {
		if strings.HasPrefix(a, "-") {
			continue
		}
		if extra, ok := gitNoDriverArgs[a]; ok {
			return slices.Concat(out, args[:i+1], extra, args[i+1:])
		}
		break
	}
	return append(out, args...)
}
