package sandbox

import (
	"os"
	"strings"
)

// Nested says whether this process already runs inside another sandbox
// that keeps a second one from being built, and which: a seccomp filter
// (Deckhand's own sandbox, flatpak's, Docker's default profile all refuse
// new user namespaces to what they confine), a container. It reads what
// the kernel says of this process (/proc/self/status), not an environment
// variable a parent could set: a process that only claims to be confined
// must not be run unconfined.
func Nested() (string, bool) {
	return nestedFrom(readFile("/proc/self/status"), func(p string) bool { _, err := os.Stat(p); return err == nil })
}

func nestedFrom(status string, exists func(string) bool) (string, bool) {
	filtered := false
	for _, line := range strings.Split(status, "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && k == "Seccomp" && strings.TrimSpace(v) == "2" {
			filtered = true
		}
	}
	if !filtered {
		return "", false
	}
	switch {
	case exists("/.flatpak-info"):
		return "a Flatpak sandbox", true
	case exists("/.dockerenv"), exists("/run/.containerenv"):
		return "a container (its seccomp filter)", true
	}
	return "another sandbox (a seccomp filter, such as Deckhand's own around a server, a container's or an editor's)", true
}

func readFile(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	return string(data)
}
