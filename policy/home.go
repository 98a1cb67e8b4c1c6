package policy

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"deckhand/config"
)

// secretHome are the places in the home folder that hold keys, tokens,
// passwords and browser sessions. A sandboxed program never sees them,
// and no tool call may name a path in them, unless a read or write entry
// names one exactly: a root that opens the home folder does not.
var secretHome = []string{
	".ssh", ".gnupg", ".aws", ".azure", ".config/gcloud", ".config/gh", ".config/hub", ".kube", ".docker",
	".password-store", ".netrc", ".git-credentials", ".pgpass", ".npmrc", ".pypirc", ".cargo/credentials.toml",
	".cargo/credentials", ".local/share/keyrings", ".local/share/kwalletd", ".config/kwalletrc",
	".mozilla", ".thunderbird", ".config/google-chrome", ".config/chromium", ".config/BraveSoftware",
	".config/microsoft-edge", ".config/vivaldi", ".var/app", ".config/op", ".config/Bitwarden",
	".vault-token", ".terraform.d/credentials.tfrc.json",
}

// secretPaths are the secret places, absolute: secretHome, Deckhand's
// state folder (the servers' own state folders), and the session's runtime
// folder. Deckhand's own places (Own) are not among them: those are
// hidden even from a root that names them.
func (p *Policy) secretPaths() []string {
	var out []string
	if p.home != "" {
		for _, s := range secretHome {
			out = append(out, filepath.Join(p.home, s))
		}
	}
	if p.stateHome != "" {
		out = append(out, filepath.Join(p.stateHome, "deckhand"))
	}
	if rt := os.Getenv("XDG_RUNTIME_DIR"); rt != "" {
		out = append(out, rt)
	}
	return out
}

// hidden are the places a sandbox hides: Deckhand's own, and the secret
// places but those named exactly in named (a server's read and write
// entries).
func (p *Policy) hidden(named []string) []string {
	var out []string
	for _, o := range p.Own() {
		out = append(out, o.Path)
	}
	for _, s := range p.secretPaths() {
		if !slices.Contains(named, s) && !slices.Contains(p.Read, s) && !slices.Contains(p.Write, s) {
			out = append(out, s)
		}
	}
	return out
}

// secretHolding is the secret place path is in ("" if none). Deckhand's
// state folder holds the servers' own state folders, which are not
// secret.
func (p *Policy) secretHolding(path string) string {
	for _, s := range p.secretPaths() {
		if within(path, s) || within(RealPath(path), s) {
			if p.stateHome != "" && within(path, filepath.Join(p.stateHome, "deckhand", "servers")) {
				continue
			}
			return s
		}
	}
	return ""
}

// opensHome says what a root opens that it should not: the whole home
// folder (or more), or a secret place ("" when neither).
func (p *Policy) opensHome(root string) string {
	root = filepath.Clean(root)
	if p.broad(root) {
		return "your whole home folder"
	}
	for _, s := range []string{".config", ".local", ".local/share", ".local/state", ".cache"} {
		if p.home != "" && root == filepath.Join(p.home, s) {
			return "other programs' settings and data"
		}
	}
	if s := p.secretHolding(root); s != "" {
		return "a secret folder (" + p.short(s) + ")"
	}
	return ""
}

// short writes path with ~ for the home folder.
func (p *Policy) short(path string) string {
	if p.home != "" && within(path, p.home) {
		return "~" + strings.TrimPrefix(path, p.home)
	}
	return path
}

// SocketPath is where the session socket named name (one of
// config.SocketNames, or a path) is, from Deckhand's environment.
func SocketPath(name string) (string, error) {
	rt := os.Getenv("XDG_RUNTIME_DIR")
	inRuntime := func(rel string) (string, error) {
		if rt == "" {
			return "", fmt.Errorf("%s: XDG_RUNTIME_DIR is not set, so its socket cannot be found", name)
		}
		return filepath.Join(rt, rel), nil
	}
	switch name {
	case "ssh-agent":
		if v := os.Getenv("SSH_AUTH_SOCK"); v != "" {
			return v, nil
		}
		return "", fmt.Errorf("ssh-agent: SSH_AUTH_SOCK is not set")
	case "gpg-agent":
		if rt != "" {
			if p := filepath.Join(rt, "gnupg", "S.gpg-agent"); exists(p) {
				return p, nil
			}
		}
		home, _ := os.UserHomeDir()
		return filepath.Join(home, ".gnupg", "S.gpg-agent"), nil
	case "dbus":
		addr := os.Getenv("DBUS_SESSION_BUS_ADDRESS")
		for _, part := range strings.Split(addr, ";") {
			for _, kv := range strings.Split(strings.TrimPrefix(part, "unix:"), ",") {
				if v, ok := strings.CutPrefix(kv, "path="); ok {
					return v, nil
				}
			}
		}
		if addr != "" && strings.Contains(addr, "abstract=") {
			return "", fmt.Errorf("dbus: the session bus listens on an abstract socket (%s), which a sandboxed server cannot be granted", addr)
		}
		return inRuntime("bus")
	case "wayland":
		d := os.Getenv("WAYLAND_DISPLAY")
		if d == "" {
			d = "wayland-0"
		}
		if filepath.IsAbs(d) {
			return d, nil
		}
		return inRuntime(d)
	case "x11":
		d := strings.TrimPrefix(os.Getenv("DISPLAY"), ":")
		if i := strings.IndexByte(d, '.'); i >= 0 {
			d = d[:i]
		}
		if d == "" {
			return "", fmt.Errorf("x11: DISPLAY is not set")
		}
		return "/tmp/.X11-unix/X" + d, nil
	case "pulse":
		return inRuntime("pulse/native")
	case "pipewire":
		return inRuntime("pipewire-0")
	case "docker":
		return "/var/run/docker.sock", nil
	}
	if p := config.ExpandPath(name); filepath.IsAbs(p) {
		return p, nil
	}
	return "", fmt.Errorf("%q is not a socket's name (%s) nor an absolute path", name, strings.Join(config.SocketNames, ", "))
}

// SocketEnv are the variables a program needs to find a granted socket.
func SocketEnv(name, path string) []string {
	switch name {
	case "ssh-agent":
		return []string{"SSH_AUTH_SOCK=" + path}
	case "dbus":
		return []string{"DBUS_SESSION_BUS_ADDRESS=unix:path=" + path}
	case "wayland":
		return []string{"WAYLAND_DISPLAY=" + path}
	case "x11":
		return []string{"DISPLAY=" + os.Getenv("DISPLAY")}
	case "pulse":
		return []string{"PULSE_SERVER=unix:" + path}
	case "docker":
		return []string{"DOCKER_HOST=unix://" + path}
	}
	return nil
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
