package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// startFDs are the descriptors above 2 the program was started with,
// listed before anything of its own is opened.
var startFDs = func() []int {
	entries, _ := os.ReadDir("/proc/self/fd")
	var fds []int
	for _, e := range entries {
		if n, err := strconv.Atoi(e.Name()); err == nil && n > 2 {
			fds = append(fds, n)
		}
	}
	// The listing's own descriptor is among them, closed by now, and so
	// are the Go runtime's (it keeps its cgroup's CPU limit open): both
	// close on exec, which no descriptor that came through exec does.
	return slices.DeleteFunc(fds, func(fd int) bool {
		flags, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0)
		return err != nil || flags&unix.FD_CLOEXEC != 0
	})
}()

// probeInheritedFDs reads what came through the descriptors the program
// was started with beyond its standard three: a file opened outside
// (the session's key), a socket of the session. Landlock and the mounts
// judge a path when it is opened; a descriptor opened before passes both.
func probeInheritedFDs() finding {
	var got []string
	for _, fd := range startFDs {
		target, _ := os.Readlink(fmt.Sprintf("/proc/self/fd/%d", fd))
		buf := make([]byte, 64)
		n, err := unix.Pread(fd, buf, 0)
		switch {
		case err == nil:
			got = append(got, fmt.Sprintf("fd %d (%s): read %d bytes", fd, target, n))
		default:
			got = append(got, fmt.Sprintf("fd %d (%s)", fd, target))
		}
	}
	if len(got) == 0 {
		return finding{Detail: "started with no descriptor beyond 0-2"}
	}
	return finding{Escaped: true, Detail: "started with " + strings.Join(got, "; ")}
}

// sessionVars are the variables that lead to the session (its sockets,
// its display) or hold a secret by their name.
var (
	sessionVars = []string{"DBUS_SESSION_BUS_ADDRESS", "SSH_AUTH_SOCK", "SSH_AGENT_PID", "DISPLAY", "XAUTHORITY", "WAYLAND_DISPLAY", "GNOME_KEYRING_CONTROL", "GPG_AGENT_INFO"}
	secretVar   = regexp.MustCompile(`(?i)token|secret|passw|api_?key|access_key|credential`)
)

// probeEnvironment looks for the session's variables and secrets in the
// program's own environment and in every /proc/PID/environ it can read.
// The detail names variables, never their values.
func probeEnvironment() finding {
	look := func(env []string, where string) []string {
		var got []string
		for _, kv := range env {
			k, v, _ := strings.Cut(kv, "=")
			if v != "" && (slices.Contains(sessionVars, k) || secretVar.MatchString(k)) {
				got = append(got, k+" ("+where+")")
			}
		}
		return got
	}
	got := look(os.Environ(), "its own")
	self, _ := os.Readlink("/proc/self")
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil || e.Name() == self {
			continue
		}
		data, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err != nil {
			continue
		}
		comm, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "comm"))
		got = append(got, look(strings.Split(string(data), "\x00"), "of "+e.Name()+" "+strings.TrimSpace(string(comm)))...)
	}
	if len(got) == 0 {
		return finding{Detail: "no session variable or secret in any environment it can read"}
	}
	slices.Sort(got)
	return finding{Escaped: true, Detail: "found " + strings.Join(slices.Compact(got), ", ")}
}
