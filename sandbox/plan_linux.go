package sandbox

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// A plan is what the helper builds inside the new namespaces: a root of its
// own (a read-only tmpfs holding only the mounts below), the network, and
// the Landlock rules. Deckhand computes it, with the person's view of the
// files (symlinks resolved, sockets found), and hands it to the helper in
// its environment.
type plan struct {
	Mounts []mountEntry `json:"m"`
	// Dir is the working directory inside; it must be visible there.
	Dir string `json:"dir,omitempty"`
	// NewNet: the program has a network namespace of its own (only its
	// loopback). Proxy: the helper opens the egress proxy's listener in it
	// and hands it to Deckhand over fd 3.
	NewNet bool `json:"net,omitempty"`
	Proxy  bool `json:"proxy,omitempty"`
	// Read and Write are Landlock's rules, paths as seen inside.
	Read  []string `json:"r,omitempty"`
	Write []string `json:"w,omitempty"`
	// Serve: the helper stays and runs commands sent over fd 3 (a
	// runner) instead of becoming the program.
	Serve bool `json:"serve,omitempty"`
	// Report is the descriptor the helper writes why it failed to,
	// instead of stderr (0: stderr); it closes as the program starts.
	Report int `json:"report,omitempty"`
	// Program is the descriptor of the program's file as Deckhand opened
	// it (Cmd.Program), 0 for none: the helper runs that file (see
	// pinProgram).
	Program int `json:"program,omitempty"`

	// run is what the helper executes in place of argv[0], when set.
	run string
}

// Kinds of mountEntry.
const (
	mountRO    = "ro"    // bind Src read-only
	mountRW    = "rw"    // bind Src read-write
	mountLink  = "link"  // a symlink to Target
	mountTmpfs = "tmpfs" // an empty writable tmpfs
	mountProc  = "proc"  // a proc of the new PID namespace
	mountPts   = "pts"   // a devpts instance of its own
	mountCover = "cover" // an empty file over a socket
	mountSock  = "sock"  // a granted socket, bound
	mountHide  = "hide"  // an empty folder (tmpfs) over a hidden one
)

type mountEntry struct {
	Path   string `json:"p"`
	Kind   string `json:"k"`
	Src    string `json:"s,omitempty"`
	Dir    bool   `json:"d,omitempty"`
	Target string `json:"t,omitempty"`
}

// devices are the device files every program gets (bound from the host).
var devices = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty"}

// ownedElsewhere are folders the plan provides itself; the spec's paths in
// them are dropped (their rights are the plan's).
var ownedElsewhere = []string{"/proc", "/dev"}

// errRoot: binding / would show everything, every socket included.
var errRoot = errors.New("the sandbox cannot show the whole file system (/): grant the folders it needs instead")

// buildPlan turns spec into a plan for a program whose working directory
// is dir ("" : the first write folder, or /). unixSockets lists the
// sockets the host has (see socketPaths); the ones inside what the plan
// shows are covered unless spec grants them.
func buildPlan(spec *Spec, dir string, unixSockets []string) (*plan, error) {
	if err := spec.Check(); err != nil {
		return nil, err
	}
	p := &plan{NewNet: !spec.Network, Proxy: !spec.Network && len(spec.Hosts) > 0}
	type want struct {
		path string
		rw   bool
	}
	var wants []want
	for _, r := range spec.Read {
		wants = append(wants, want{filepath.Clean(r), false})
	}
	for _, w := range spec.Write {
		wants = append(wants, want{filepath.Clean(w), true})
	}
	links := map[string]string{}
	best := map[string]mountEntry{} // by real path
	// named are the places the spec names, as it writes them: only a
	// bind it names exactly, not one it reaches through a symbolic link,
	// shows a hidden place or opens a protected one (a link in a folder a
	// program could write may be one it planted on an earlier run).
	named := map[string]bool{}
	for _, w := range wants {
		named[w.path] = true
	}
	for _, w := range wants {
		if w.path == "/" {
			return nil, errRoot
		}
		if slices.ContainsFunc(ownedElsewhere, func(o string) bool { return within(w.path, o) }) || w.path == "/tmp" && !w.rw {
			continue
		}
		met, real, err := resolve(w.path)
		if err != nil {
			continue // missing, or a folder the person cannot open: not shown
		}
		if real == "/" {
			return nil, errRoot
		}
		if slices.ContainsFunc(ownedElsewhere, func(o string) bool { return within(real, o) }) {
			continue
		}
		st, err := os.Stat(real)
		if err != nil {
			continue
		}
		for _, l := range met {
			links[l[0]] = l[1]
		}
		kind := mountRO
		if w.rw {
			kind = mountRW
		}
		if old, ok := best[real]; !ok || old.Kind == mountRO {
			best[real] = mountEntry{Path: real, Kind: kind, Src: real, Dir: st.IsDir()}
		}
	}
	// Keep a bind only where what holds it does not already give as much.
	binds := slices.SortedFunc(func(yield func(mountEntry) bool) {
		for _, e := range best {
			if !yield(e) {
				return
			}
		}
	}, func(a, b mountEntry) int { return strings.Compare(a.Path, b.Path) })
	var kept []mountEntry
	for _, e := range binds {
		covered := false
		for _, k := range kept {
			if within(e.Path, k.Path) && (k.Kind == mountRW || e.Kind == mountRO) {
				covered = true
			}
		}
		if !covered {
			kept = append(kept, e)
		}
	}
	shows := func(path string) bool {
		return slices.ContainsFunc(kept, func(k mountEntry) bool { return within(path, k.Path) })
	}
	// boundAsNamed: a bind of the place's real path that the spec names,
	// by the place's path or its real path.
	boundAsNamed := func(place, real string) bool {
		return (named[filepath.Clean(place)] || named[real]) && slices.ContainsFunc(kept, func(k mountEntry) bool {
			return k.Path == real && (k.Kind == mountRO || k.Kind == mountRW)
		})
	}
	for path, target := range links {
		if !shows(path) {
			kept = append(kept, mountEntry{Path: path, Kind: mountLink, Target: target})
		}
	}
	// Hidden places inside what is shown are replaced by empty ones, unless
	// a bind names them exactly (a bind reached through a symbolic link
	// does not: see named); the outer ones first, so that a place inside
	// one already hidden is left to it (there is nothing there to mount
	// on: the folder that hides it is empty).
	for _, h := range slices.Sorted(slices.Values(spec.Hide)) {
		_, real, err := resolve(h)
		if err != nil || !shows(real) || inHidden(kept, real) || boundAsNamed(h, real) || slices.ContainsFunc(kept, func(k mountEntry) bool {
			return k.Path == real && (k.Kind == mountHide || k.Kind == mountCover)
		}) {
			continue
		}
		st, err := os.Stat(real)
		if err != nil {
			continue
		}
		if st.IsDir() {
			kept = append(kept, mountEntry{Path: real, Kind: mountHide, Dir: true})
		} else {
			kept = append(kept, mountEntry{Path: real, Kind: mountCover})
		}
		kept = append(kept, pinAncestors(kept, real)...)
	}
	// Protected places inside what the program may write are bound onto
	// themselves read-only (a mount point can be neither renamed nor
	// removed), and so is each folder between them and the writable bind,
	// as for hidden ones. Deckhand's own binary and its helpers always are,
	// whatever the spec names (ownBinaries).
	protect := slices.Clone(spec.Protect)
	own := ownBinaries()
	protect = append(protect, own...)
	for _, pr := range protect {
		_, real, err := resolve(pr)
		if err != nil || !slices.Contains(own, pr) && boundAsNamed(pr, real) || slices.ContainsFunc(kept, func(k mountEntry) bool { return k.Path == real && k.Kind != mountRW }) {
			continue
		}
		if !slices.ContainsFunc(kept, func(k mountEntry) bool { return k.Kind == mountRW && within(real, k.Path) }) || inHidden(kept, real) {
			continue // not writable here, or out of sight: nothing to protect
		}
		st, err := os.Stat(real)
		if err != nil {
			continue
		}
		kept = append(kept, mountEntry{Path: real, Kind: mountRO, Src: real, Dir: st.IsDir()})
		kept = append(kept, pinAncestors(kept, real)...)
	}
	// Granted sockets are bound where they are; every other socket of the
	// host inside what is shown is covered with an empty file.
	granted := map[string]bool{}
	for _, s := range spec.Sockets {
		met, real, err := resolve(s)
		if err != nil {
			return nil, fmt.Errorf("the socket %s cannot be granted: %w", s, err)
		}
		if st, err := os.Stat(real); err != nil || st.Mode()&os.ModeSocket == 0 {
			return nil, fmt.Errorf("the socket %s cannot be granted: %s is not a socket", s, real)
		}
		granted[real] = true
		kept = append(kept, mountEntry{Path: real, Kind: mountSock, Src: real})
		for _, l := range met {
			if !shows(l[0]) {
				kept = append(kept, mountEntry{Path: l[0], Kind: mountLink, Target: l[1]})
			}
		}
	}
	for _, s := range unixSockets {
		real, err := filepath.EvalSymlinks(s)
		if err != nil || granted[real] || !shows(real) || inHidden(kept, real) {
			continue
		}
		if st, err := os.Stat(real); err != nil || st.Mode()&os.ModeSocket == 0 {
			continue
		}
		kept = append(kept, mountEntry{Path: real, Kind: mountCover})
	}
	// What every program gets: a private /tmp (unless a write folder is
	// /tmp itself), a proc of its own, the usual devices.
	if !slices.ContainsFunc(kept, func(k mountEntry) bool { return k.Path == "/tmp" }) {
		kept = append(kept, mountEntry{Path: "/tmp", Kind: mountTmpfs})
	}
	// The kernel's keys are listed in /proc to whoever may view them (the
	// person's, by description): covered, as Docker does.
	for _, f := range []string{"/proc/keys", "/proc/key-users"} {
		if _, err := os.Stat(f); err == nil {
			kept = append(kept, mountEntry{Path: f, Kind: mountCover})
		}
	}
	kept = append(kept,
		mountEntry{Path: "/proc", Kind: mountProc},
		mountEntry{Path: "/dev/shm", Kind: mountTmpfs},
		mountEntry{Path: "/dev/pts", Kind: mountPts},
		mountEntry{Path: "/dev/ptmx", Kind: mountLink, Target: "pts/ptmx"},
		mountEntry{Path: "/dev/fd", Kind: mountLink, Target: "/proc/self/fd"},
		mountEntry{Path: "/dev/stdin", Kind: mountLink, Target: "/proc/self/fd/0"},
		mountEntry{Path: "/dev/stdout", Kind: mountLink, Target: "/proc/self/fd/1"},
		mountEntry{Path: "/dev/stderr", Kind: mountLink, Target: "/proc/self/fd/2"},
	)
	for _, d := range devices {
		if _, err := os.Stat(d); err == nil {
			kept = append(kept, mountEntry{Path: d, Kind: mountRW, Src: d})
		}
	}
	// Parents before children; at one path, a bind before what covers
	// part of it.
	slices.SortStableFunc(kept, func(a, b mountEntry) int { return strings.Compare(a.Path, b.Path) })
	p.Mounts = kept

	for _, k := range kept {
		switch k.Kind {
		case mountRO:
			p.Read = append(p.Read, k.Path)
		case mountRW, mountTmpfs:
			p.Write = append(p.Write, k.Path)
		}
	}
	p.Read = append(p.Read, "/proc")
	p.Write = append(p.Write, "/dev/pts")

	if dir == "" {
		dir = "/"
		if len(spec.Write) > 0 {
			dir = spec.Write[0]
		}
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	if dir != "/" && !shows(dir) {
		return nil, fmt.Errorf("the working directory %s is outside what the sandbox shows (its read and write folders)", dir)
	}
	p.Dir = dir
	return p, nil
}

// inHidden reports whether path lies inside a hidden place (an empty
// folder in the sandbox) with no bind between: it is out of sight already,
// and not there to cover. A folder granted inside a hidden one is bound
// into it, and what is inside that bind is in sight again; so is a file
// granted there by name (a socket named in write is bound, and must be
// covered still).
func inHidden(kept []mountEntry, path string) bool {
	var holder *mountEntry
	for i, k := range kept {
		switch k.Kind {
		case mountRO, mountRW, mountSock, mountHide:
		default:
			continue
		}
		if within(path, k.Path) && (holder == nil || len(k.Path) > len(holder.Path)) {
			holder = &kept[i]
		}
	}
	return holder != nil && holder.Kind == mountHide
}

// pinAncestors are the binds that keep a hidden place where it is: in a
// folder the program may write, it could otherwise rename a folder above
// the hidden one (not itself a mount point, so the kernel lets it move,
// the hiding mount with it) and put a folder of its own in its place,
// which Deckhand would then read as its own (a config, a log, a key
// file). Each folder between the writable bind that shows the place and
// the place is bound onto itself, and a mount point cannot be renamed
// (EBUSY). A place shown read-only needs none.
func pinAncestors(kept []mountEntry, real string) []mountEntry {
	holder := ""
	for _, k := range kept {
		if (k.Kind == mountRW || k.Kind == mountRO) && k.Path != real && within(real, k.Path) && len(k.Path) > len(holder) {
			holder = k.Path
		}
	}
	if holder == "" || !slices.ContainsFunc(kept, func(k mountEntry) bool { return k.Path == holder && k.Kind == mountRW }) {
		return nil
	}
	var out []mountEntry
	for dir := filepath.Dir(real); dir != holder && within(dir, holder); dir = filepath.Dir(dir) {
		if !slices.ContainsFunc(kept, func(k mountEntry) bool { return k.Path == dir }) {
			out = append(out, mountEntry{Path: dir, Kind: mountRW, Src: dir, Dir: true})
		}
	}
	return out
}

// resolve follows path's symlinks component by component, as the kernel
// would, and returns the links met (path, target as written) and the real
// path.
func resolve(path string) (links [][2]string, real string, err error) {
	path = filepath.Clean(path)
	for hops := 0; hops < 40; hops++ {
		if path == "/" {
			return links, "/", nil
		}
		parts := strings.Split(path[1:], "/")
		cur, again := "/", false
		for i, part := range parts {
			next := filepath.Join(cur, part)
			st, err := os.Lstat(next)
			if err != nil {
				return nil, "", err
			}
			if st.Mode()&os.ModeSymlink != 0 {
				target, err := os.Readlink(next)
				if err != nil {
					return nil, "", err
				}
				links = append(links, [2]string{next, target})
				abs := target
				if !filepath.IsAbs(abs) {
					abs = filepath.Join(cur, target)
				}
				path = filepath.Join(append([]string{abs}, parts[i+1:]...)...)
				again = true
				break
			}
			cur = next
		}
		if !again {
			// A folder the person cannot open shows nothing: leave it out.
			if st, err := os.Stat(cur); err == nil && st.IsDir() {
				f, err := os.Open(cur)
				if err != nil {
					return nil, "", err
				}
				f.Close()
			}
			return links, cur, nil
		}
	}
	return nil, "", fmt.Errorf("%s: too many symlinks", path)
}

// socketPaths lists the pathname unix sockets bound in this network
// namespace (/proc/net/unix): the ones a plan must hide.
func socketPaths() []string {
	f, err := os.Open("/proc/net/unix")
	if err != nil {
		return nil
	}
	defer f.Close()
	return parseUnixSockets(f)
}

// parseUnixSockets reads /proc/net/unix: a header, then one socket a line
// whose eighth field, when present, is its path ("@…" for abstract ones,
// which a plan does not cover: the network namespace and Landlock's scope
// do).
func parseUnixSockets(r io.Reader) []string {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	seen := map[string]bool{}
	var out []string
	first := true
	for sc.Scan() {
		if first {
			first = false
			continue
		}
		f := strings.Fields(sc.Text())
		if len(f) < 8 || !strings.HasPrefix(f[7], "/") {
			continue
		}
		// A path with spaces is cut by Fields; the rest of the line is
		// the path.
		line := sc.Text()
		path := line[strings.Index(line, f[7]):]
		if !seen[path] {
			seen[path] = true
			out = append(out, path)
		}
	}
	return out
}

// within reports whether path is root or inside it.
func within(path, root string) bool {
	if path == root || root == "/" {
		return true
	}
	return strings.HasPrefix(path, root+"/")
}

// ownBinaries are what a sandbox protects of Deckhand's own programs:
// the binary this process runs (its real path) and the deckhand-*
// programs beside it (the window's view helper, deckhand-view, run with
// the display). Replaced, the binary would run as the person at Deckhand's
// next start, or when the window restarts itself. None when the binary
// cannot be told, or is gone from its path. (Its folder is left writable
// where a grant makes it so: a developer's checkout in the workspace
// builds there.)
func ownBinaries() []string {
	self, err := os.Executable()
	if err != nil {
		return nil
	}
	real, err := filepath.EvalSymlinks(self)
	if err != nil {
		return nil
	}
	siblings, _ := filepath.Glob(filepath.Join(filepath.Dir(real), "deckhand-*"))
	return append([]string{real}, siblings...)
}
