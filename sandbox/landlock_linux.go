package sandbox

import (
	"fmt"
	"os"

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

// Available says whether programs can be confined here, and if not, why.
func Available() error {
	if ABI() < 1 {
		return fmt.Errorf("%w (Linux 5.13 or later with Landlock enabled is needed)", ErrUnavailable)
	}
	return nil
}

// apply confines this process (and what it starts) to s. It never falls
// back to less than the file rules: on a kernel without Landlock it fails.
func (s *Spec) apply() error {
	abi := ABI()
	if abi < 1 {
		return Available()
	}
	cfg := landlock.V7.BestEffort()
	readDirs, readFiles := split(s.Read)
	writeDirs, writeFiles := split(s.Write)
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
	if err := cfg.RestrictPaths(rules...); err != nil {
		return fmt.Errorf("confining files: %w", err)
	}
	if !s.Network {
		if abi < 4 {
			return fmt.Errorf("network = false needs Landlock ABI 4 (Linux 6.7); this kernel has ABI %d", abi)
		}
		if err := cfg.RestrictNet(); err != nil {
			return fmt.Errorf("confining the network: %w", err)
		}
	}
	if abi >= 6 {
		// No signals to, and no abstract sockets of, processes outside.
		if err := cfg.RestrictScoped(); err != nil {
			return fmt.Errorf("confining signals: %w", err)
		}
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
