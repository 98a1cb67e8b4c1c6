// Package policy is Deckhand's capability policy applied: the environment a
// child process gets, the sandbox a stdio server or shell command runs in,
// the file paths a tool call may name, and the hosts a remote server may be
// reached at. It reads config.Policy (whose fields carry the defaults) and
// decides; the sandbox package enforces. Deckhand's own files (Own: its
// log, config, keys, and every log a Deckhand opened with --db, listed by
// Remember) are hidden from every sandbox and refused as roots and in
// calls: whoever writes them holds the gate.
//
// Concurrency: New builds a Policy from one config; it is not changed
// afterwards (a new config makes a new Policy), so one value is safe for
// any number of goroutines. Its decisions read the file system as they are
// made (symbolic links, what exists), never a cache.
package policy

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/zalando/go-keyring"

	"deckhand/config"
	"deckhand/keys"
	"deckhand/sandbox"
)

// Policy is the effective policy of one config.
type Policy struct {
	// Workspace, Read and Write are absolute and clean; Read holds every
	// write root too.
	Workspace   string
	Read, Write []string
	AllowExec   bool
	Domains     []string
	Secrets     []string // names allowed to be passed on
	modelKeyEnv string
	lookupEnv   func(string) (string, bool)
	home        string
	stateHome   string
	configPath  string // the config file ("" when none was read)
	toolsDir    string // the built-in tools server's definitions
	// serverWrites are the write folders of the config's sandboxed
	// servers (see plantable).
	serverWrites []string
	// typed are the secrets typed into the servers form for the server
	// typedFor, not saved yet (WithTyped).
	typedFor string
	typed    map[string]string
}

// New reads cfg's policy. lookupEnv reads Deckhand's environment (secrets
// passed on); nil means os.LookupEnv.
func New(cfg *config.Config, lookupEnv func(string) (string, bool)) *Policy {
	if lookupEnv == nil {
		lookupEnv = os.LookupEnv
	}
	p := &Policy{
		Workspace:   cfg.Policy.WorkspaceDir(),
		AllowExec:   cfg.Policy.AllowExec && !cfg.Shell.Disabled,
		Domains:     cfg.Policy.Net.AllowDomains,
		Secrets:     cfg.Policy.Secrets.Keys,
		modelKeyEnv: cfg.Model.APIKeyEnv,
		lookupEnv:   lookupEnv,
		toolsDir:    cfg.Tools.DefinitionsDir(),
	}
	if cfg.Path != "" {
		p.configPath, _ = filepath.Abs(cfg.Path)
	}
	p.Read, p.Write = cfg.Policy.Roots()
	for _, srv := range cfg.MCP.Servers {
		if srv.SandboxOn() {
			p.serverWrites = append(p.serverWrites, config.ExpandPaths(srv.Write)...)
		}
	}
	p.home, _ = os.UserHomeDir()
	p.stateHome = os.Getenv("XDG_STATE_HOME")
	if p.stateHome == "" && p.home != "" {
		p.stateHome = filepath.Join(p.home, ".local", "state")
	}
	return p
}

// EnsureWorkspace creates the workspace folder if it is missing.
func (p *Policy) EnsureWorkspace() error {
	if err := os.MkdirAll(p.Workspace, 0o755); err != nil {
		return fmt.Errorf("creating the workspace %s: %w", p.Workspace, err)
	}
	return nil
}

// StateDir is the private folder of a sandboxed server (its TMPDIR too).
func (p *Policy) StateDir(alias string) string {
	return filepath.Join(p.stateHome, "deckhand", "servers", alias)
}

// minimalEnv are the variables of Deckhand's environment every child gets:
// the MCP reference SDKs' list, and the locale. PATH is set separately.
var minimalEnv = []string{"HOME", "LOGNAME", "SHELL", "TERM", "USER", "LANG", "LANGUAGE", "TZ"}

// secretRef is a reference to a variable of Deckhand's environment in a
// server's env value: "${NAME}".
var secretRef = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}`)

// Env is the environment of a child: the minimal set (with LC_*
// variables), PATH, tmp (as TMPDIR, when not ""), a sandboxed server's
// package caches in its state folder (cacheEnv), the server's env (with
// "${NAME}" references to allowed secrets filled in), and the secrets it
// names that the policy allows. The model's key is never passed. alias
// names the server in errors ("" for a shell command).
func (p *Policy) Env(alias string, srv config.Server, path, tmp string) ([]string, error) {
	set := map[string]string{}
	// The minimal set is Deckhand's own process environment; lookupEnv
	// is for the secrets.
	for _, k := range minimalEnv {
		if v, ok := os.LookupEnv(k); ok {
			set[k] = v
		}
	}
	for _, kv := range os.Environ() {
		if k, v, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "LC_") {
			set[k] = v
		}
	}
	if path != "" {
		set["PATH"] = path
	} else if v, ok := os.LookupEnv("PATH"); ok {
		set["PATH"] = v
	}
	if tmp != "" {
		set["TMPDIR"] = tmp
	} else if v, ok := os.LookupEnv("TMPDIR"); ok {
		set["TMPDIR"] = v
	}
	if srv.SandboxOn() && alias != "" {
		for k, dir := range cacheEnv {
			set[k] = filepath.Join(p.StateDir(alias), "cache", dir)
		}
	}
	if srv.SandboxOn() {
		for _, name := range srv.Sockets {
			if path, err := SocketPath(name); err == nil {
				for _, kv := range SocketEnv(name, path) {
					k, v, _ := strings.Cut(kv, "=")
					set[k] = v
				}
			}
		}
	}
	for _, name := range srv.Secrets {
		v, err := p.secret(alias, srv, name, "secrets")
		if err != nil {
			return nil, err
		}
		set[name] = v
	}
	for k, v := range srv.Env {
		var failed error
		set[k] = secretRef.ReplaceAllStringFunc(v, func(ref string) string {
			name := secretRef.FindStringSubmatch(ref)[1]
			val, err := p.secret(alias, srv, name, "env."+k)
			if err != nil && failed == nil {
				failed = err
			}
			return val
		})
		if failed != nil {
			return nil, failed
		}
	}
	env := make([]string, 0, len(set))
	for k, v := range set {
		env = append(env, k+"="+v)
	}
	slices.Sort(env)
	return env, nil
}

// secret is the value of the secret name for the server alias, if the
// policy lets it be passed on; key says where the server asked for it. A
// secret the person granted this server in the servers form
// (srv.AllowSecrets) comes from the keyring, kept there under this
// server's alias, or else from Deckhand's environment; any other from
// Deckhand's environment, if policy.secrets.keys allows it. The keyring is
// asked only for a granted secret: a server that needs none never waits on
// a locked or absent one.
func (p *Policy) secret(alias string, srv config.Server, name, key string) (string, error) {
	where := "mcp.servers." + alias + "." + key
	if alias == "" {
		where = key
	}
	granted := alias != "" && slices.Contains(srv.AllowSecrets, name)
	switch {
	case name == p.modelKeyEnv:
		return "", fmt.Errorf("%s asks for %s, the model's API key, which is never passed on", where, name)
	case granted:
		v, _, err := p.SavedSecret(alias, name)
		if err == nil {
			return v, nil
		}
		if v, ok := p.lookupEnv(name); ok {
			return v, nil
		}
		switch {
		case errors.Is(err, keys.ErrLocked):
			return "", fmt.Errorf("%s asks for %s, whose value is kept in the keyring, which is locked and was not unlocked: unlock it (in Passwords and Keys, or by logging in again), then reconnect the server", where, name)
		case !errors.Is(err, errNotSaved):
			// Said without the value: the keyring's errors never hold it.
			return "", fmt.Errorf("%s asks for %s, whose value is kept in the keyring, which could not give it: %w", where, name, err)
		}
		return "", fmt.Errorf("%s asks for %s, which is saved neither in the keyring nor in Deckhand's environment: give its value in the server's form (Servers ▸ Edit ▸ Secrets)", where, name)
	case !slices.Contains(p.Secrets, name):
		return "", fmt.Errorf("%s asks for %s, which policy.secrets.keys does not allow: add %q there to pass it on", where, name, name)
	}
	v, ok := p.lookupEnv(name)
	if !ok {
		return "", fmt.Errorf("%s asks for %s, which is not set in Deckhand's environment", where, name)
	}
	return v, nil
}

// errNotSaved: the keyring keeps no value of that secret.
var errNotSaved = errors.New("not saved")

// Where a server's secret comes from (SecretSource).
const (
	FromKeyring = "saved in the keyring"
	FromEnv     = "from the environment"
	NotSet      = "not set"
)

// SavedSecret is the value of the server alias's secret name kept in the
// keyring (errNotSaved when none is: no keyring, or none kept), and where
// it came from: the form's values typed and not yet saved (WithTyped),
// else the keyring.
func (p *Policy) SavedSecret(alias, name string) (value, from string, err error) {
	if v, ok := p.typed[name]; ok && alias == p.typedFor {
		return v, FromKeyring, nil
	}
	v, err := keys.ServerSecret(alias, name)
	switch {
	case err == nil && v != "":
		return v, FromKeyring, nil
	case err == nil, errors.Is(err, keyring.ErrNotFound), errors.Is(err, keys.ErrUnavailable):
		return "", "", errNotSaved
	}
	return "", "", err
}

// WithTyped is p with values typed into the servers form for the server
// alias and not saved yet: a try of the server gets them as if they were
// in the keyring, where they go once it connected.
func (p *Policy) WithTyped(alias string, values map[string]string) *Policy {
	q := *p
	q.typedFor, q.typed = alias, values
	return &q
}

// systemRead are the folders a confined program may read and execute:
// the system, not the home folder. /proc, /dev and /tmp are the
// sandbox's own (a proc of its PID namespace, the usual devices, a
// private /tmp); /run is left out, for it holds the session's sockets.
var systemRead = []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt",
	"/sys", "/var/lib", "/snap", "/nix/store", "/run/current-system", "/home/linuxbrew/.linuxbrew"}

// homeRead are folders in the home folder that launchers need to read:
// version managers (their shims run the real program from their own
// folder) and language installs. Each is read whole; what holds secrets
// (~/.cargo's credentials, ~/.npmrc's tokens) is not here.
var homeRead = []string{".nvm", ".volta", ".local/share/fnm", ".bun", ".pyenv", ".rbenv", ".nodenv", ".asdf",
	".local/share/mise", ".local/share/uv/python", ".local/share/uv/tools", ".local/share/pipx", ".cargo/bin",
	"go/bin", ".local/bin", ".linuxbrew", ".deno/bin", ".sdkman/candidates"}

// cacheEnv are the variables that place the package managers' caches
// (npx's, uvx's, pip's, bun's, node-gyp's) and uv's Python downloads, each
// set for a sandboxed server to a folder of its own state folder. The
// person's (~/.npm, ~/.cache/uv, ~/.local/share/uv, …) are never written
// from a sandbox: what a server left there, the person's own npx or uvx,
// or a server running unconfined, would run as the person (a package in
// ~/.npm/_npx, a Python of ~/.local/share/uv that their venvs run), and
// one server could plant code another runs with more rights.
var cacheEnv = map[string]string{
	"npm_config_cache":      "npm",
	"npm_config_devdir":     "node-gyp",
	"UV_CACHE_DIR":          "uv",
	"UV_PYTHON_INSTALL_DIR": "uv-python",
	"PIP_CACHE_DIR":         "pip",
	"BUN_INSTALL_CACHE_DIR": "bun",
}

// ServerSpec is the sandbox of a stdio server whose resolved command is
// command and whose PATH is path, or nil when its sandbox is off. It
// reads the system, the command's install folder (a version manager's
// whole folder for its shims), the folders of its PATH outside the home
// folder's sensitive ones, the read roots and its own read paths; it
// writes the write roots, its write paths and its state folder (which
// holds its package caches: see cacheEnv). Its network and the sockets it is granted come from its
// config; the hooks and config of the repositories in what it writes
// are read-only (protectedInRepos); the secret folders inside what it
// sees stay hidden unless named exactly, and Deckhand's own places (see Own) stay hidden always: a root
// naming one or inside one is refused. An error says what in the config
// cannot be honoured.
func (p *Policy) ServerSpec(alias string, srv config.Server, command, path string) (*sandbox.Spec, error) {
	if !srv.SandboxOn() {
		return nil, nil
	}
	if err := p.checkOwnRoots(alias, srv); err != nil {
		return nil, err
	}
	p.makeOwnFolders()
	s := &sandbox.Spec{Network: srv.NetworkOn(), Hosts: srv.Network.Hosts}
	s.Read = append(s.Read, systemRead...)
	s.Read = append(s.Read, p.installDirs(command)...)
	s.Read = append(s.Read, p.argDirs(srv.Args)...)
	// The folders it reads without being granted them, but any reached
	// through a link a sandboxed program may have planted (plantable).
	plantable := p.plantable()
	for _, d := range filepath.SplitList(path) {
		if d != "" && filepath.IsAbs(d) && !p.sensitive(d) && !linkIn(d, plantable) {
			s.Read = append(s.Read, filepath.Clean(d))
			for _, m := range p.managerRoot(d) {
				if !linkIn(m, plantable) {
					s.Read = append(s.Read, m)
				}
			}
		}
	}
	for _, h := range homeRead {
		if d := filepath.Join(p.home, h); !linkIn(d, plantable) {
			s.Read = append(s.Read, d)
		}
	}
	s.Read = append(s.Read, p.Read...)
	s.Read = append(s.Read, config.ExpandPaths(srv.Read)...)
	if srv.Cwd != "" {
		cwd := config.ExpandPath(srv.Cwd)
		if secret := p.secretHolding(cwd); secret != "" && !slices.Contains(config.ExpandPaths(slices.Concat(srv.Read, srv.Write)), secret) {
			return nil, fmt.Errorf("mcp.servers.%s.cwd is %s, inside %s, which a sandboxed server never sees unless read or write names it exactly", alias, srv.Cwd, secret)
		}
		s.Read = append(s.Read, cwd)
	} else if err := p.workspaceReachable(alias, srv); err != nil {
		return nil, err
	}
	s.Write = append(s.Write, p.Write...)
	s.Write = append(s.Write, config.ExpandPaths(srv.Write)...)
	s.Write = append(s.Write, p.StateDir(alias))
	s.Read, s.Write = p.withoutOwn(dedupe(s.Read)), p.withoutOwn(dedupe(s.Write))
	s.Hide = p.hidden(config.ExpandPaths(slices.Concat(srv.Read, srv.Write)))
	s.Protect = protectedInRepos(s.Write, p.StateDir(alias))
	// The folder of Deckhand's own binary, inside a folder the server may
	// write: a program put there beside it (deckhand-view, the window's
	// view helper, which runs with the display, looked for there when
	// Deckhand next starts) would run as the person. (The sandbox protects the
	// binary and the helpers that are there; a folder granted exactly
	// stays writable.)
	if dir := ownBinaryDir(); dir != "" && slices.ContainsFunc(s.Write, func(w string) bool { w = RealPath(w); return dir != w && within(dir, w) }) {
		s.Protect = append(s.Protect, dir)
	}
	for _, name := range srv.Sockets {
		sock, err := SocketPath(name)
		if err != nil {
			return nil, fmt.Errorf("mcp.servers.%s.sockets: %w", alias, err)
		}
		s.Sockets = append(s.Sockets, sock)
	}
	return s, nil
}

// ownBinaryDir is the folder of the binary this process runs (its real
// path), "" when it cannot be told.
func ownBinaryDir() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	real, err := filepath.EvalSymlinks(exe)
	if err != nil {
		return ""
	}
	return filepath.Dir(real)
}

// plantable are the folders some sandboxed program may write: the
// policy's write roots and workspace, every sandboxed server's write
// folders and the servers' state folders (their real paths too). A
// symbolic link inside one may be one a program planted on an earlier run
// (~/.cargo/bin made a link to the home folder by a server granted
// ~/.cargo), so the folders a server reads without being granted them
// (homeRead, its PATH) are not followed through one: the next sandbox
// would show what the link leads to.
func (p *Policy) plantable() []string {
	roots := slices.Concat(p.Write, []string{p.Workspace}, p.serverWrites)
	if p.stateHome != "" {
		roots = append(roots, filepath.Join(p.stateHome, "deckhand", "servers"))
	}
	for _, r := range slices.Clone(roots) {
		if r != "" {
			roots = append(roots, RealPath(filepath.Clean(r)))
		}
	}
	return dedupe(slices.DeleteFunc(roots, func(r string) bool { return r == "" || r == "/" }))
}

// workspaceReachable checks that a sandboxed server with no cwd, which
// works in the workspace, may read it: a server whose roots leave the
// workspace out would stop inside the sandbox, unable to enter its folder
// (exit 126), and the person would be told nothing useful.
func (p *Policy) workspaceReachable(alias string, srv config.Server) error {
	roots := slices.Concat(p.Read, p.Write, config.ExpandPaths(srv.Read), config.ExpandPaths(srv.Write))
	for _, r := range roots {
		if within(p.Workspace, r) {
			return nil
		}
	}
	return fmt.Errorf("mcp.servers.%s: a sandboxed server with no cwd works in the workspace (policy.workspace, %s), which its roots leave out (policy.fs.read_roots, policy.fs.write_roots and its own read and write: %s): add the workspace to policy.fs.read_roots, or set mcp.servers.%s.cwd to a folder inside them",
		alias, p.Workspace, strings.Join(dedupe(roots), ", "), alias)
}

// CommandSpec is the sandbox of a shell command: the system, and the
// workspace to read and write (its repositories' hooks and config only
// to read: see protectedInRepos); no network, no socket.
func (p *Policy) CommandSpec(shell string) *sandbox.Spec {
	s := &sandbox.Spec{Network: false}
	s.Read = append(append(s.Read, systemRead...), p.installDirs(shell)...)
	if _, own := p.ownHolding(p.Workspace); !own {
		s.Write = append(s.Write, p.Workspace)
	}
	s.Write = append(s.Write, p.StateDir("local"))
	s.Read, s.Write = p.withoutOwn(dedupe(s.Read)), p.withoutOwn(dedupe(s.Write))
	p.makeOwnFolders()
	s.Hide = p.hidden(nil)
	s.Protect = protectedInRepos(s.Write, p.StateDir("local"))
	return s
}

// managerRoot is, for a folder inside a version manager's (pyenv's shims,
// asdf's), the manager's own folder: its shims are scripts that run the
// real program from there.
func (p *Policy) managerRoot(dir string) []string {
	if p.home == "" {
		return nil
	}
	for _, h := range homeRead {
		root := filepath.Join(p.home, h)
		if within(dir, root) {
			return []string{root}
		}
	}
	return nil
}

// installDirs are the folders a command needs to read to run: its own
// folder and, through a symlink, its target's; for a folder named bin, its
// parent (the install prefix: lib/ beside bin/; a virtualenv's folder for
// its bin/), unless that is a sensitive part of the home folder; for a
// command inside node_modules (node_modules/.bin/x, a link to the package's
// script), the node_modules folders its imports are looked up in
// (nodeModules), and for a node script outside them (a workspace's member
// linked there), what node reads of its package (nodeScript).
func (p *Policy) installDirs(command string) []string {
	if command == "" || !filepath.IsAbs(command) {
		return nil
	}
	var out []string
	add := func(file string) {
		dir := filepath.Dir(file)
		if !p.sensitive(dir) {
			out = append(out, dir)
		}
		out = append(out, p.managerRoot(dir)...)
		if filepath.Base(dir) == "bin" && !p.sensitive(filepath.Dir(dir)) {
			out = append(out, filepath.Dir(dir))
		}
		out = append(out, p.unsensitive(nodeModules(dir))...)
		out = append(out, p.nodeScript(file)...)
	}
	add(command)
	if real, err := filepath.EvalSymlinks(command); err == nil && real != command {
		add(real)
	}
	return out
}

// argDirs are the folders named by a server's arguments that exist: a
// script's folder (node /opt/x/dist/index.js), and for a script inside
// node_modules the node_modules folders of its dependencies (nodeModules),
// or a folder given as it is (uv run --directory /srv/x). Sensitive ones
// are skipped.
func (p *Policy) argDirs(args []string) []string {
	var out []string
	for _, a := range args {
		if _, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(a, "-") {
			a = v // --directory=/srv/x
		}
		if !filepath.IsAbs(a) {
			continue
		}
		st, err := os.Stat(a)
		if err != nil {
			continue
		}
		dir := filepath.Clean(a)
		if !st.IsDir() {
			dir = filepath.Dir(dir)
		}
		if nms := nodeModules(dir); len(nms) > 0 {
			dir = nms[0]
			out = append(out, p.unsensitive(nms[1:])...)
		} else if !st.IsDir() {
			out = append(out, p.nodeScript(a)...)
		}
		if !p.sensitive(dir) {
			out = append(out, dir)
		}
	}
	return out
}

// nodeModules are, for a folder inside a node_modules tree, the folders
// node looks a script's imports up in: the outermost node_modules holding
// it (npm and yarn hoist a package's dependencies to it, beside the
// package; pnpm keeps them in its .pnpm, inside it), which holds every
// node_modules nearer the script, then the node_modules of each folder
// above it that has one (a workspace's root, where its members'
// dependencies are hoisted). Nothing else: node reads the package.json of
// the package it runs, which is inside, and neither the project's
// package.json nor its lockfile. Nil for a folder outside node_modules.
func nodeModules(dir string) []string {
	dir = filepath.Clean(dir)
	parts := strings.Split(dir, string(filepath.Separator))
	i := slices.Index(parts, "node_modules")
	if i < 0 {
		return nil
	}
	outer := strings.Join(parts[:i+1], string(filepath.Separator))
	out := []string{outer}
	for up := filepath.Dir(filepath.Dir(outer)); ; up = filepath.Dir(up) {
		nm := filepath.Join(up, "node_modules")
		if st, err := os.Stat(nm); err == nil && st.IsDir() {
			out = append(out, nm)
		}
		if up == filepath.Dir(up) {
			return out
		}
	}
}

// nodeScript is, for a node script outside any node_modules (a workspace's
// member, or a package put there with npm link, run through
// node_modules/.bin; a checkout run as node ~/src/x/dist/index.js), what
// node reads of its package besides the script's folder: the package.json
// of the nearest folder above holding one (its "type", its "imports"), and
// the node_modules of that folder and of each folder above that has one.
// Not the package's other folders (its sources, its tests), nor the
// project around it. Nil for a file that is not a node script (.js, .mjs,
// .cjs), one inside node_modules (see nodeModules), or one with no
// package.json above it short of a sensitive folder.
func (p *Policy) nodeScript(file string) []string {
	switch filepath.Ext(file) {
	case ".js", ".mjs", ".cjs":
	default:
		return nil
	}
	dir := filepath.Dir(filepath.Clean(file))
	if nodeModules(dir) != nil {
		return nil
	}
	for ; !p.sensitive(dir); dir = filepath.Dir(dir) {
		manifest := filepath.Join(dir, "package.json")
		if st, err := os.Stat(manifest); err != nil || !st.Mode().IsRegular() {
			continue
		}
		out := []string{manifest}
		for up := dir; ; up = filepath.Dir(up) {
			nm := filepath.Join(up, "node_modules")
			if st, err := os.Stat(nm); err == nil && st.IsDir() && !p.sensitive(nm) {
				out = append(out, nm)
			}
			if up == filepath.Dir(up) {
				return out
			}
		}
	}
	return nil
}

// unsensitive is dirs without the sensitive ones.
func (p *Policy) unsensitive(dirs []string) []string {
	var out []string
	for _, d := range dirs {
		if !p.sensitive(d) {
			out = append(out, d)
		}
	}
	return out
}

// sensitive reports whether reading all of dir would expose the person's
// files: the home folder itself or a folder holding others' settings and
// data (~/.local, ~/.local/share, ~/.config, ~/.cache), or any ancestor of
// them.
func (p *Policy) sensitive(dir string) bool {
	dir = filepath.Clean(dir)
	if dir == "/" {
		return true
	}
	if p.home == "" {
		return false
	}
	for _, s := range []string{"", ".local", ".local/share", ".local/state", ".config", ".cache", ".ssh", ".gnupg", ".aws"} {
		guarded := filepath.Join(p.home, s)
		if dir == guarded || within(guarded, dir) || (s == ".ssh" || s == ".gnupg" || s == ".aws") && within(dir, guarded) {
			return true
		}
	}
	return false
}

// within reports whether path is root or inside it.
func within(path, root string) bool {
	if path == root {
		return true
	}
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../") && !filepath.IsAbs(rel)
}

func dedupe(list []string) []string {
	seen := map[string]bool{}
	out := list[:0]
	for _, s := range list {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// ServerRoots are the folders a local server is told it may work in: the
// read roots (which hold the write roots) and its own read and write
// paths.
func (p *Policy) ServerRoots(srv config.Server) []string {
	return dedupe(slices.Concat(slices.Clone(p.Read), config.ExpandPaths(srv.Read), config.ExpandPaths(srv.Write)))
}

// HostAllowed reports whether an HTTP server whose url is at serverHost
// may be reached at host: its own host, or one of policy.net.allow_domains
// ("example.com", ".example.com" or "*.example.com" for its subdomains).
func (p *Policy) HostAllowed(serverHost, host string) bool {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	if host == strings.ToLower(serverHost) {
		return true
	}
	for _, d := range p.Domains {
		d = strings.ToLower(strings.TrimSpace(d))
		switch {
		case strings.HasPrefix(d, "*."):
			if strings.HasSuffix(host, d[1:]) {
				return true
			}
		case strings.HasPrefix(d, "."):
			if host == d[1:] || strings.HasSuffix(host, d) {
				return true
			}
		case host == d:
			return true
		}
	}
	return false
}
