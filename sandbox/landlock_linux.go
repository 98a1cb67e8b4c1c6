package sandbox

import (
	"fmt"
	"os"
	"slices"

	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// ABI is the kernel's Landlock ABI version, 0 when it has none (or it is
// turned off). Probed with the syscall: /sys/kernel/security/lsm may be
// empty where Landlock works.
func ABI() int {
	if os.Getenv(noLandlockEnv) == "1" {
		return 0
	}
	v, err := ll.LandlockGetABIVersion()
	if err != nil || v < 0 {
		return 0
	}
	return v
}

// landlock confines this process (and what it starts) to the plan's rules,
// in one layer: files (read, or read and write), TCP (with a network of
// its own: nothing, or only the proxy's port), and, from ABI 6, no signals
// to and no abstract sockets of processes outside. Below what a rule needs
// it fails rather than run with less: Landlock is the second wall, behind
// the namespaces, and a person who asked for it gets it.
func (p *plan) landlock(proxyPort int) error {
	abi := ABI()
	if abi < 1 {
		return fmt.Errorf("%w: no Landlock (Linux 5.13 or later with Landlock enabled is needed)", ErrUnavailable)
	}
	cfg := landlock.V11.BestEffort()
	if !p.NewNet {
		cfg.HandledAccessNet = 0 // the network is on: TCP is not filtered
	}
	readDirs, readFiles := split(p.Read)
	writeDirs, writeFiles := split(p.Write)
	rw := landlock.RWDirs(writeDirs...).IgnoreIfMissing()
	if abi >= 2 {
		// Moving files between folders (npm's cache does) needs "refer";
		// asked for below ABI 2, best effort would drop Landlock entirely.
		rw = rw.WithRefer()
	}
	rules := []landlock.Rule{
		landlock.RODirs(readDirs...).IgnoreIfMissing(), rw,
		landlock.ROFiles(readFiles...).IgnoreIfMissing(),
		landlock.RWFiles(writeFiles...).IgnoreIfMissing(),
	}
	for _, m := range p.Mounts {
		if m.Kind == mountPts && slices.Contains(writeDirs, m.Path) {
			// The terminals of the devpts instance the sandbox mounts
			// (its own, none of the person's): from ABI 5 Landlock
			// refuses a device's ioctls, which a terminal is made and
			// used with, unless a rule allows them. TIOCSTI and TIOCLINUX
			// stay refused by seccomp.
			rules = append(rules, landlock.RWDirs(m.Path).WithIoctlDev().IgnoreIfMissing())
		}
		if m.Kind == mountSock {
			// From ABI 9, Landlock also guards pathname sockets.
			rules = append(rules, landlock.RWFiles(m.Path).WithResolveUnix().IgnoreIfMissing())
		}
	}
	if proxyPort > 0 {
		rules = append(rules, landlock.ConnectTCP(uint16(proxyPort)))
	}
	if err := cfg.Restrict(rules...); err != nil {
		return fmt.Errorf("confining with Landlock: %w", err)
	}
	return nil
}

// split sorts paths into folders and other files (a rule for a folder's
// rights on a file fails); a missing path counts as a folder and is
// skipped.
func split(paths []string) (dirs, files []string) {
	for _, p := range paths {
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			files = append(files, p)
		} else {
			dirs = append(dirs, p)
		}
	}
	return dirs, files
}
