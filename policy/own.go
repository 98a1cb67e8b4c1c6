package policy

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"deckhand/config"
)

// OwnPath is a place Deckhand itself reads or writes: its log, its config,
// its keys and tokens, its tool definitions, its window's cache. A
// sandboxed program never sees one (it is replaced by an empty one inside
// any folder it is shown), a root that names one or lies inside one is
// refused, and no tool call may name a path in one: whoever writes them
// holds the gate (an "always allow" row in the log, a tool's pinned
// definition, the config's rules).
type OwnPath struct {
	Path string `json:"path"` // absolute and clean
	What string `json:"what"` // in plain words: "Deckhand's log"
	// folder: a folder of Deckhand's that is made before a sandbox
	// starts, so that it is there to hide (a missing one, inside a folder
	// a program may write, it could make and fill: a config of its own).
	folder bool
}

// appID is the window's Fyne app id: Fyne keeps its settings and cache
// under it.
const appID = "dev.deckhand.app"

// rememberedName is the file, in Deckhand's data folder, listing the
// places it used outside its own folders (a log given with --db, a config
// with --config, a tools server's --token-file), one JSON object a line,
// so that every Deckhand process hides them all: the window and a
// `deckhand chat --db other.db` hide each other's log.
const rememberedName = "own-paths"

// DataDir is Deckhand's data folder: $XDG_DATA_HOME/deckhand, or
// ~/.local/share/deckhand. It holds the default log and the log's signing
// key where no keyring runs.
func DataDir() (string, error) {
	dir := os.Getenv("XDG_DATA_HOME")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("finding the data folder: %w", err)
		}
		dir = filepath.Join(home, ".local", "share")
	}
	return filepath.Join(dir, "deckhand"), nil
}

// Remember records that this Deckhand uses path (what says for what: "log",
// "config", "token"), so that every Deckhand process hides it from its
// sandboxes from now on. Places in Deckhand's own folders need not be
// remembered (they are hidden anyway); a path already listed is not listed
// again. A log is remembered with its -wal, -shm and -journal files.
func Remember(what, path string) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return fmt.Errorf("remembering %s: %w", path, err)
	}
	if strings.ContainsAny(abs, "\n\r") {
		return fmt.Errorf("remembering %q: a path holding a line break cannot be listed", abs)
	}
	dir, err := DataDir()
	if err != nil {
		return err
	}
	if within(abs, dir) {
		return nil
	}
	if slices.ContainsFunc(remembered(dir), func(o OwnPath) bool { return o.Path == abs }) {
		return nil
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("remembering %s: %w", abs, err)
	}
	f, err := os.OpenFile(filepath.Join(dir, rememberedName), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("remembering %s: %w", abs, err)
	}
	line, _ := json.Marshal(struct {
		What string `json:"what"`
		Path string `json:"path"`
	}{what, abs})
	// One write of one line: appends of several processes do not mix.
	_, werr := f.Write(append(line, '\n'))
	if err := errors.Join(werr, f.Close()); err != nil {
		return fmt.Errorf("remembering %s: %w", abs, err)
	}
	return nil
}

// remembered reads the places Remember listed in dir (a line it cannot
// read is skipped: the list only ever adds to what is hidden).
func remembered(dir string) []OwnPath {
	f, err := os.Open(filepath.Join(dir, rememberedName))
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []OwnPath
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var e struct{ What, Path string }
		if json.Unmarshal(sc.Bytes(), &e) != nil || !filepath.IsAbs(e.Path) {
			continue
		}
		e.Path = filepath.Clean(e.Path)
		switch e.What {
		case "log":
			out = append(out, OwnPath{Path: e.Path, What: "a log of Deckhand's (--db)"})
			for _, suffix := range []string{"-wal", "-shm", "-journal"} {
				out = append(out, OwnPath{Path: e.Path + suffix, What: "a log of Deckhand's (--db)"})
			}
		case "config":
			out = append(out, OwnPath{Path: e.Path, What: "a config of Deckhand's (--config)"})
			out = append(out, OwnPath{Path: filepath.Join(filepath.Dir(e.Path), "tools-token"), What: "the tools server's token"})
		case "token":
			out = append(out, OwnPath{Path: e.Path, What: "the tools server's token (--token-file)"})
		default:
			out = append(out, OwnPath{Path: e.Path, What: "a file of Deckhand's"})
		}
	}
	return out
}

// Own are the places Deckhand itself reads or writes, computed from the
// running configuration and environment as the call is made: its data
// folder (the log, the log's key file), its config folder (config, API key
// file, tool definitions, the tools server's token), the config file and
// tool definitions where the config puts them elsewhere, the window's
// settings and cache, and every place a Deckhand process remembered
// (logs given with --db, configs with --config). OAuth tokens and the
// keys kept in the keyring are not files; the session's runtime folder
// (its sockets) is hidden as a secret place.
func (p *Policy) Own() []OwnPath {
	var out []OwnPath
	add := func(path, what string, folder bool) {
		if path == "" || !filepath.IsAbs(path) {
			return
		}
		path = filepath.Clean(path)
		if !slices.ContainsFunc(out, func(o OwnPath) bool { return o.Path == path }) {
			out = append(out, OwnPath{path, what, folder})
		}
	}
	data, _ := DataDir()
	add(data, "Deckhand's data (its log, the log's key file)", true)
	configDir := ""
	if def, err := config.DefaultPath(); err == nil {
		configDir = filepath.Dir(def)
		add(configDir, "Deckhand's config folder (config, API key file, tool definitions)", true)
	}
	if p.configPath != "" && (configDir == "" || !within(p.configPath, configDir)) {
		add(p.configPath, "Deckhand's config", false)
		add(filepath.Join(filepath.Dir(p.configPath), "tools-token"), "the tools server's token", false)
	}
	if p.toolsDir != "" && (configDir == "" || !within(p.toolsDir, configDir)) {
		add(p.toolsDir, "Deckhand's tool definitions (tools.dir)", true)
	}
	// The window's (Fyne's) settings and cache: hidden where they are.
	if dir, err := os.UserConfigDir(); err == nil {
		add(filepath.Join(dir, "fyne", appID), "the window's settings", false)
	}
	if dir, err := os.UserCacheDir(); err == nil {
		add(filepath.Join(dir, "fyne", appID), "the window's cache", false)
	}
	if data != "" {
		for _, o := range remembered(data) {
			add(o.Path, o.What, false)
		}
	}
	return out
}

// makeOwnFolders makes Deckhand's own folders that are missing (data,
// config, tool definitions), private, before a sandbox is built: a folder
// that is not there cannot be hidden, and a program that may write where
// it would be could make it, and fill it with a config or a log of its
// own for Deckhand to read.
func (p *Policy) makeOwnFolders() {
	for _, o := range p.Own() {
		if o.folder {
			os.MkdirAll(o.Path, 0o700)
		}
	}
}

// ownHolding is the own place path is in (or names), and whether there is
// one. Both path and its real path (symbolic links resolved) count.
func (p *Policy) ownHolding(path string) (OwnPath, bool) {
	real := RealPath(path)
	for _, o := range p.Own() {
		if within(path, o.Path) || within(real, o.Path) || within(real, RealPath(o.Path)) {
			return o, true
		}
	}
	return OwnPath{}, false
}

// OwnIn are the own places inside what roots show (or all of them when
// roots is nil): what a sandbox seeing roots hides of Deckhand's.
func (p *Policy) OwnIn(roots []string) []OwnPath {
	var out []OwnPath
	for _, o := range p.Own() {
		if roots == nil || slices.ContainsFunc(roots, func(r string) bool { return within(o.Path, r) }) {
			out = append(out, o)
		}
	}
	return out
}

// checkOwnRoots refuses a root of the policy's or of server alias's
// (read, write, cwd; alias "" for the policy's alone) that names one of
// Deckhand's own places or lies inside one, saying which key, which file
// and why. A root that merely holds one (the home folder) is fine: the own
// places stay hidden inside it.
func (p *Policy) checkOwnRoots(alias string, srv config.Server) error {
	in := ""
	if p.configPath != "" {
		in = " (in " + p.configPath + ")"
	}
	check := func(key, root string) error {
		if root == "" {
			return nil
		}
		if o, ok := p.ownHolding(config.ExpandPath(root)); ok {
			return fmt.Errorf("%s%s is %s, inside %s: %s, which no server may see or change (whoever writes them decides what runs without asking); name a folder outside it", key, in, root, p.short(o.Path), o.What)
		}
		return nil
	}
	for _, r := range p.Write {
		if err := check("policy.fs.write_roots", r); err != nil {
			return err
		}
	}
	for _, r := range p.Read {
		if err := check("policy.fs.read_roots", r); err != nil {
			return err
		}
	}
	if alias == "" {
		return nil
	}
	for _, key := range []struct {
		name  string
		paths []string
	}{{"read", srv.Read}, {"write", srv.Write}, {"cwd", []string{srv.Cwd}}} {
		for _, r := range key.paths {
			if err := check("mcp.servers."+alias+"."+key.name, r); err != nil {
				return err
			}
		}
	}
	return nil
}

// withoutOwn drops from paths every folder that is one of Deckhand's own
// places or inside one: what a sandbox shows implicitly (a folder an
// argument names, the command's install folder, a PATH entry) never
// shows them, for a bind that names a hidden place exactly would show it.
// (A root that does is refused before: checkOwnRoots.)
func (p *Policy) withoutOwn(paths []string) []string {
	own := p.Own()
	return slices.DeleteFunc(paths, func(path string) bool {
		real := RealPath(path)
		return slices.ContainsFunc(own, func(o OwnPath) bool { return within(path, o.Path) || within(real, o.Path) })
	})
}
