package policy

import (
	"os"
	"path/filepath"
	"slices"
)

// protectedInRepos are, for each folder a confined program may write, the
// places of the git repositories there that name programs to run: each
// repository's hooks and config (core.fsmonitor, core.hooksPath, aliases
// and filters run commands), and its submodules'. Git runs what they name
// when the person next works there, or their shell's prompt runs git
// status, unconfined: a program that could write them would run as the
// person. The repositories are the folder's own and those one level down
// (a workspace of projects); a repository the program makes itself is
// not covered. skip are write folders that hold no repository of the
// person's (a state folder).
func protectedInRepos(writes []string, skip ...string) []string {
	var out []string
	add := func(repo string) {
		git := filepath.Join(repo, ".git")
		if st, err := os.Stat(git); err != nil || !st.IsDir() {
			return
		}
		out = append(out, filepath.Join(git, "hooks"), filepath.Join(git, "config"))
		subs, _ := filepath.Glob(filepath.Join(git, "modules", "*"))
		for _, s := range subs {
			out = append(out, filepath.Join(s, "hooks"), filepath.Join(s, "config"))
		}
	}
	for _, w := range writes {
		if slices.Contains(skip, w) {
			continue
		}
		add(w)
		entries, _ := os.ReadDir(w)
		for _, e := range entries {
			if e.IsDir() && e.Name() != ".git" {
				add(filepath.Join(w, e.Name()))
			}
		}
	}
	return out
}
