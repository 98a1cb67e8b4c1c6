package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/netip"
	"path/filepath"
	"slices"
	"strings"
)

// Spec is what a confined program may do. It is allow-only: what is not
// named is denied.
type Spec struct {
	// Read are folders (and files) it may read and execute.
	Read []string `json:"read,omitempty"`
	// Write are folders (and files) it may read, write, create and delete in.
	Write []string `json:"write,omitempty"`
	// Network: every socket reaches the network as Deckhand's would. When
	// false, the program has a network of its own with only its own
	// loopback: nothing outside, of any address family.
	Network bool `json:"network"`
	// Hosts, with Network false, are the hosts it may reach through
	// Deckhand's proxy (HTTP CONNECT and SOCKS5, the only way out of its
	// network): "api.github.com", "*.example.com" (subdomains),
	// ".example.com" (the domain and its subdomains), an address or a
	// CIDR prefix. A name's addresses must be public (or, for a name
	// listed exactly, private), unless an address entry names them (a
	// CIDR only from inside a special or private range: see addrOpened).
	Hosts []string `json:"hosts,omitempty"`
	// Sockets are unix sockets of the person's session it may connect to,
	// by path (granted by name in the config). Every other socket of the
	// session is out of its sight.
	Sockets []string `json:"sockets,omitempty"`
	// Hide are folders and files inside what Read and Write show that the
	// program must not see (keys, tokens, Deckhand's own data): each is
	// replaced by an empty one.
	Hide []string `json:"hide,omitempty"`
	// Protect are folders and files inside what Write shows that the
	// program may read but not change, create in, rename or remove: what
	// the person's own tools run once it is written (a repository's
	// .git/hooks and .git/config). Missing ones are skipped.
	Protect []string `json:"protect,omitempty"`
}

// noLandlockEnv, set to 1, makes this process act as if the kernel had no
// Landlock; noUsernsEnv as if user namespaces were disabled: for tests of
// what a person without them meets. They can only make sandboxed programs
// fail to start, never run them unconfined.
const (
	noLandlockEnv = "DECKHAND_TEST_NO_LANDLOCK"
	noUsernsEnv   = "DECKHAND_TEST_NO_USERNS"
)

// ErrUnavailable means the kernel cannot confine a program here.
var ErrUnavailable = errors.New("the kernel cannot sandbox programs here")

// BuildError is the helper's failure to build a program's sandbox (see
// Cmd.BuildFailure, Cmd.Start): the program never ran, so nothing it did or lacked
// is the cause. Reason says what could not be done; for a place it could
// not hide, inside which granted folder, to narrow.
type BuildError struct {
	Reason string
	err    error // the plan's refusal, when it is one
}

func (e *BuildError) Error() string { return "Deckhand could not build its sandbox: " + e.Reason }
func (e *BuildError) Unwrap() error { return e.err }

// ErrNested is wrapped by an ErrUnavailable that comes from running inside
// another sandbox (see Nested): the outer one confines what runs here, or
// nothing does, and only the person can say to rely on it.
var ErrNested = errors.New("sandboxes do not nest here")

// Check reports a spec that cannot be applied: paths must be absolute and
// hosts plain names.
func (s *Spec) Check() error {
	for _, p := range slices.Concat(s.Read, s.Write, s.Sockets, s.Hide, s.Protect) {
		if !filepath.IsAbs(p) {
			return fmt.Errorf("sandbox path %q is not absolute", p)
		}
	}
	for _, h := range s.Hosts {
		if err := CheckHost(h); err != nil {
			return err
		}
	}
	return nil
}

// CheckHost reports a host pattern that is not a host name, an IP address,
// a CIDR prefix ("10.1.0.0/16"), "*.domain" or ".domain".
func CheckHost(h string) error {
	if strings.Contains(h, "/") {
		if _, err := netip.ParsePrefix(h); err != nil {
			return fmt.Errorf("network host %q is not a host name, an address or a CIDR prefix (%v)", h, err)
		}
		return nil
	}
	name := strings.TrimPrefix(strings.TrimPrefix(h, "*"), ".")
	if name == "" || len(name) > 253 {
		return fmt.Errorf("network host %q is not a host name", h)
	}
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '.', r == ':':
		default:
			return fmt.Errorf("network host %q is not a host name (%q is not allowed; ports are not part of it)", h, r)
		}
	}
	if strings.Contains(name, "*") || strings.HasPrefix(h, "*") && !strings.HasPrefix(h, "*.") {
		return fmt.Errorf("network host %q: only a leading \"*.\" is allowed", h)
	}
	if strings.Contains(name, ":") {
		if _, err := netip.ParseAddr(name); err != nil || name != h {
			return fmt.Errorf("network host %q is not a host name (ports are not part of it)", h)
		}
	}
	return nil
}

// HostAllowed reports whether host matches one of patterns (see
// Spec.Hosts). Names compare without case and a trailing dot; an address
// matches an entry naming it or a CIDR prefix holding it.
func HostAllowed(patterns []string, host string) bool {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	if host == "" {
		return false
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		return addrNamed(patterns, ip)
	}
	for _, p := range patterns {
		p = strings.ToLower(strings.TrimSpace(p))
		switch {
		case strings.HasPrefix(p, "*."):
			if strings.HasSuffix(host, p[1:]) {
				return true
			}
		case strings.HasPrefix(p, "."):
			if host == p[1:] || strings.HasSuffix(host, p) {
				return true
			}
		case host == p:
			return true
		}
	}
	return false
}

// addrNamed reports whether an entry of patterns is the address a, or a
// CIDR prefix holding it.
func addrNamed(patterns []string, a netip.Addr) bool {
	a = a.Unmap()
	for _, p := range patterns {
		p = strings.TrimSpace(p)
		if ip, err := netip.ParseAddr(p); err == nil && ip.Unmap() == a {
			return true
		}
		if pre, err := netip.ParsePrefix(p); err == nil && pre.Contains(a) {
			return true
		}
	}
	return false
}

// NetworkMode says in a word how a spec reaches the network: "all",
// "none" or "hosts".
func (s *Spec) NetworkMode() string {
	switch {
	case s.Network:
		return "all"
	case len(s.Hosts) > 0:
		return "hosts"
	}
	return "none"
}

// Describe says in a line what the spec allows, for logs and `deckhand
// policy`.
func (s *Spec) Describe() string {
	net := "network: all"
	switch s.NetworkMode() {
	case "none":
		net = "no network"
	case "hosts":
		net = "network only to " + strings.Join(s.Hosts, ", ")
	}
	d := fmt.Sprintf("reads %s; writes %s; %s", strings.Join(s.Read, ", "), strings.Join(s.Write, ", "), net)
	if len(s.Sockets) > 0 {
		d += "; sockets " + strings.Join(s.Sockets, ", ")
	}
	return d
}

func encodeJSON(v any) string {
	data, _ := json.Marshal(v)
	return string(data)
}

// Summary is what a spec amounts to on this machine, for `deckhand
// policy`: the namespaces the program gets, the Landlock ABI behind them,
// the session's sockets it can reach, and its network.
type Summary struct {
	Namespaces []string `json:"namespaces"`
	Landlock   int      `json:"landlock_abi"`
	Sockets    []string `json:"sockets_visible"`
	Network    string   `json:"network"` // all, none, hosts
	Hosts      []string `json:"hosts,omitempty"`
	Hidden     []string `json:"hidden,omitempty"` // secret places inside what it sees, replaced by empty ones
	// Seccomp is the system call filter it runs under; Keyring, the
	// kernel keyring it has ("" where nothing confines it).
	Seccomp *SeccompSummary `json:"seccomp,omitempty"`
	Keyring string          `json:"keyring,omitempty"`
}

// SeccompSummary is the system call filter a confined program runs under:
// which list it started from and how many calls it denies here.
type SeccompSummary struct {
	List   string   `json:"list"`
	Denied int      `json:"denied"`
	Calls  []string `json:"calls"`
}
