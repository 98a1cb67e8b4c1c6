package apps

import (
	"net"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"deckhand/sandbox"
)

// Deckhand's own sandbox around a view's helper (package sandbox, as for
// local servers): new user, mount, PID, IPC and network namespaces,
// Landlock, the seccomp filter and a keyring of its own. It sees the
// system's libraries, fonts and certificates read-only, the helper
// itself, the display's socket (X11 or Wayland) and a private home
// folder of its own, removed when the view ends; nothing else of the
// person's files. Its network is its own loopback and Deckhand's egress
// proxy, which lets through exactly the origins the resource's CSP
// declares (connectDomains, resourceDomains and frameDomains: their
// hosts, on their ports), whatever the page's own policy would allow.

// viewRead are the system's folders and files WebKit needs to start and
// draw: libraries and its own processes (/usr, /lib…), fonts and their
// configuration, certificates for https, the dynamic loader's cache,
// the time zone and the names of users (GLib asks).
var viewRead = []string{"/usr", "/lib", "/lib64", "/lib32", "/bin", "/sbin",
	"/etc/fonts", "/etc/ld.so.cache", "/etc/ssl", "/etc/ca-certificates", "/etc/pki", "/etc/localtime",
	"/etc/passwd", "/etc/group", "/etc/nsswitch.conf", "/etc/gtk-3.0", "/var/cache/fontconfig"}

// ViewSpec is the sandbox of a view's helper at helper, showing a view
// whose resource declares csp, with home as its private home folder: what
// it may read and write, the display's sockets in env (DISPLAY,
// WAYLAND_DISPLAY, XDG_RUNTIME_DIR, XAUTHORITY as Deckhand has them), and
// the hosts of the origins it may reach.
func ViewSpec(helper string, csp CSP, home string, env func(string) string) *sandbox.Spec {
	spec := &sandbox.Spec{Read: append(slices.Clone(viewRead), helper), Write: []string{home}}
	if x := env("XAUTHORITY"); filepath.IsAbs(x) {
		spec.Read = append(spec.Read, x)
	}
	spec.Sockets = displaySockets(env)
	for _, o := range csp.origins() {
		if u, err := url.Parse(o); err == nil && !slices.Contains(spec.Hosts, u.Hostname()) {
			spec.Hosts = append(spec.Hosts, u.Hostname())
		}
	}
	return spec
}

// displaySockets are the sockets of the display the helper draws on that
// exist: X11's for DISPLAY (":N", ":N.S" or "unix:N"; a display over TCP
// cannot be reached from the helper's network) and Wayland's.
func displaySockets(env func(string) string) []string {
	var out []string
	if d := env("DISPLAY"); d != "" {
		host, num, _ := strings.Cut(d, ":")
		num, _, _ = strings.Cut(num, ".")
		if _, err := strconv.Atoi(num); err == nil && (host == "" || host == "unix") {
			out = append(out, "/tmp/.X11-unix/X"+num)
		}
	}
	if w := waylandSocket(env); w != "" {
		out = append(out, w)
	}
	return slices.DeleteFunc(out, func(p string) bool {
		st, err := os.Stat(p)
		return err != nil || st.Mode()&os.ModeSocket == 0
	})
}

// waylandSocket is the Wayland display's socket as a path, or "".
func waylandSocket(env func(string) string) string {
	w := env("WAYLAND_DISPLAY")
	switch {
	case w == "":
		return ""
	case filepath.IsAbs(w):
		return w
	case env("XDG_RUNTIME_DIR") != "":
		return filepath.Join(env("XDG_RUNTIME_DIR"), w)
	}
	return ""
}

// viewEnv is the helper's whole environment in its sandbox: the display,
// the person's language and time zone, and its private home for every
// folder a library would write in; no session bus, accessibility bus or
// portal (none is reachable).
func viewEnv(home string, env func(string) string) []string {
	out := []string{"PATH=/usr/bin:/bin", "HOME=" + home, "TMPDIR=" + home,
		"XDG_CACHE_HOME=" + filepath.Join(home, ".cache"), "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_DATA_HOME=" + filepath.Join(home, ".local/share"), "XDG_RUNTIME_DIR=" + home,
		"NO_AT_BRIDGE=1", "GTK_A11Y=none", "GTK_USE_PORTAL=0", "GSETTINGS_BACKEND=memory", "GIO_USE_VFS=local",
		"DBUS_SESSION_BUS_ADDRESS=disabled:"}
	for _, k := range []string{"DISPLAY", "XAUTHORITY", "LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "TZ", "GDK_SCALE", "GDK_DPI_SCALE"} {
		if v := env(k); v != "" {
			out = append(out, k+"="+v)
		}
	}
	if w := waylandSocket(env); w != "" {
		out = append(out, "WAYLAND_DISPLAY="+w) // absolute: its runtime folder is not there
	}
	return out
}

// origins are the origins the resource declares it loads from.
func (c CSP) origins() []string {
	return slices.Concat(c.ConnectDomains, c.ResourceDomains, c.FrameDomains)
}

// allowPort reports whether an origin csp declares is host on port (a
// "*." origin covers the host's subdomains; an origin without a port has
// its scheme's).
func (c CSP) allowPort(host string, port int) bool {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	for _, o := range c.origins() {
		u, err := url.Parse(o)
		if err != nil {
			continue
		}
		p := u.Port()
		if p == "" {
			p = map[string]string{"https": "443", "wss": "443", "http": "80", "ws": "80"}[u.Scheme]
		}
		if p != strconv.Itoa(port) {
			continue
		}
		h := strings.ToLower(u.Hostname())
		if wild, ok := strings.CutPrefix(h, "*."); ok {
			if strings.HasSuffix(host, "."+wild) {
				return true
			}
		} else if h == host || net.ParseIP(h) != nil && net.ParseIP(h).Equal(net.ParseIP(host)) {
			return true
		}
	}
	return false
}
