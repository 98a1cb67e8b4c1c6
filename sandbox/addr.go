package sandbox

import (
	"net"
	"net/netip"
	"slices"
	"strings"
)

// What the egress proxy makes of an address a name resolved to. A name on
// a server's list says which host it may reach, not where that host's
// records point: whoever controls the name's DNS (anyone, for a wildcard's
// subdomains) may point it at this machine or its network. So after
// resolving, an address is judged by what it is, and one of the special
// kinds below is reached only when an entry of the list names the address
// itself or a CIDR holding it that lies inside a special or private range
// (addrOpened).
type addrKind int

const (
	addrPublic      addrKind = iota
	addrPrivate              // RFC 1918, IPv6 unique-local and site-local: refused for a wildcard's names only
	addrOwn                  // an address of this machine's interfaces, or its subnet's broadcast
	addrLoopback             // 127.0.0.0/8, ::1
	addrLinkLocal            // 169.254.0.0/16, fe80::/10
	addrMetadata             // a cloud's metadata service
	addrCGNAT                // 100.64.0.0/10: carrier-grade NAT, Tailscale
	addrBenchmark            // 198.18.0.0/15, 2001:2::/48
	addrUnspecified          // 0.0.0.0/8, ::
	addrMulticast            // 224.0.0.0/4, ff00::/8
	addrReserved             // 240.0.0.0/4 (broadcast included), 192.0.0.0/24
)

func (k addrKind) String() string {
	return [...]string{
		"a public address", "a private address", "this machine's own address", "this machine's loopback",
		"a link-local address", "a cloud metadata service", "a carrier-grade NAT (or Tailscale) address",
		"a benchmarking address", "an unspecified address", "a multicast address", "a reserved or broadcast address",
	}[k]
}

// refusedFor reports whether the kind is refused for a name allowed
// exactly (wild false) or through a wildcard.
func (k addrKind) refusedFor(wild bool) bool {
	return k != addrPublic && (k != addrPrivate || wild)
}

var (
	metadataAddrs = []netip.Addr{netip.MustParseAddr("169.254.169.254"), netip.MustParseAddr("fd00:ec2::254"), netip.MustParseAddr("100.100.100.200")}
	v4Ranges      = []struct {
		p    netip.Prefix
		kind addrKind
	}{
		{netip.MustParsePrefix("0.0.0.0/8"), addrUnspecified},
		{netip.MustParsePrefix("127.0.0.0/8"), addrLoopback},
		{netip.MustParsePrefix("169.254.0.0/16"), addrLinkLocal},
		{netip.MustParsePrefix("100.64.0.0/10"), addrCGNAT},
		{netip.MustParsePrefix("198.18.0.0/15"), addrBenchmark},
		{netip.MustParsePrefix("224.0.0.0/4"), addrMulticast},
		{netip.MustParsePrefix("240.0.0.0/4"), addrReserved},
		{netip.MustParsePrefix("192.0.0.0/24"), addrReserved},
		{netip.MustParsePrefix("10.0.0.0/8"), addrPrivate},
		{netip.MustParsePrefix("172.16.0.0/12"), addrPrivate},
		{netip.MustParsePrefix("192.168.0.0/16"), addrPrivate},
	}
	v6Ranges = []struct {
		p    netip.Prefix
		kind addrKind
	}{
		{netip.MustParsePrefix("::/128"), addrUnspecified},
		{netip.MustParsePrefix("::1/128"), addrLoopback},
		{netip.MustParsePrefix("fe80::/10"), addrLinkLocal},
		{netip.MustParsePrefix("ff00::/8"), addrMulticast},
		{netip.MustParsePrefix("2001:2::/48"), addrBenchmark},
		{netip.MustParsePrefix("fc00::/7"), addrPrivate},
		{netip.MustParsePrefix("fec0::/10"), addrPrivate},
	}
	nat64      = netip.MustParsePrefix("64:ff9b::/96")
	nat64Local = netip.MustParsePrefix("64:ff9b:1::/48")
	sixToFour  = netip.MustParsePrefix("2002::/16")
	teredo     = netip.MustParsePrefix("2001::/32")
	compat     = netip.MustParsePrefix("::/96")
)

// classify says what addr is. own are this machine's interface networks
// (address and mask); an IPv6 address that carries an IPv4 one (mapped,
// compatible, 6to4, NAT64, Teredo, ISATAP) is judged by the worst of the
// two.
func classify(addr netip.Addr, own []netip.Prefix) addrKind {
	addr = addr.Unmap()
	kind := classifyOne(addr, own)
	for _, v4 := range embedded(addr) {
		if k := classifyOne(v4, own); worse(k, kind) {
			kind = k
		}
	}
	return kind
}

// worse orders kinds by how much they are refused: anything special over
// private over public.
func worse(a, b addrKind) bool {
	rank := func(k addrKind) int {
		switch k {
		case addrPublic:
			return 0
		case addrPrivate:
			return 1
		}
		return 2
	}
	return rank(a) > rank(b)
}

func classifyOne(addr netip.Addr, own []netip.Prefix) addrKind {
	if addr.IsLoopback() {
		return addrLoopback // an interface's too, but this says more
	}
	for _, p := range own {
		if p.Addr() == addr {
			return addrOwn
		}
		if p.Addr().Is4() && addr.Is4() && p.Bits() < 31 && addr == broadcast(p) {
			return addrOwn
		}
	}
	for _, m := range metadataAddrs {
		if addr == m {
			return addrMetadata
		}
	}
	ranges := v6Ranges
	if addr.Is4() {
		ranges = v4Ranges
	}
	for _, r := range ranges {
		if r.p.Contains(addr) {
			return r.kind
		}
	}
	return addrPublic
}

// embedded are the IPv4 addresses an IPv6 one carries.
func embedded(a netip.Addr) []netip.Addr {
	if !a.Is6() {
		return nil
	}
	b := a.As16()
	v4 := func(s []byte) netip.Addr { return netip.AddrFrom4([4]byte(s)) }
	var out []netip.Addr
	switch {
	case nat64.Contains(a):
		out = append(out, v4(b[12:16]))
	case nat64Local.Contains(a):
		// RFC 6052's forms within it (bits 64–71 skipped, the suffix
		// zero): /96 always, /48, /56 and /64 where they fit.
		out = append(out, v4(b[12:16]))
		zero := func(s []byte) bool { return !slices.ContainsFunc(s, func(x byte) bool { return x != 0 }) }
		if zero(b[11:16]) {
			out = append(out, v4([]byte{b[6], b[7], b[9], b[10]}))
		}
		if zero(b[12:16]) {
			out = append(out, v4([]byte{b[7], b[9], b[10], b[11]}))
		}
		if zero(b[13:16]) {
			out = append(out, v4(b[9:13]))
		}
	case sixToFour.Contains(a):
		out = append(out, v4(b[2:6]))
	case teredo.Contains(a):
		// The server, and the client (its bits inverted).
		out = append(out, v4(b[4:8]), v4([]byte{^b[12], ^b[13], ^b[14], ^b[15]}))
	case compat.Contains(a) && a != netip.IPv6Unspecified() && a != netip.IPv6Loopback():
		out = append(out, v4(b[12:16]))
	}
	// ISATAP: an interface identifier of 0000:5efe or 0200:5efe.
	if (b[8]|0x02) == 0x02 && b[9] == 0 && b[10] == 0x5e && b[11] == 0xfe {
		out = append(out, v4(b[12:16]))
	}
	return out
}

// addrOpened reports whether an entry of patterns opens a, an address of
// kind k that the kind alone refuses: an entry naming the address, or a
// CIDR prefix holding it that lies inside one of the special or private
// ranges itself ("127.0.0.0/8", "10.1.0.0/16", "fe80::/10"). A wider
// prefix ("0.0.0.0/0" or "::/0" for any host, NAT64's "64:ff9b::/96")
// names the public addresses it holds, not this machine or what lies
// beside it; the metadata service and this machine's own addresses are
// opened only by naming them (or a prefix of that one address).
func addrOpened(patterns []string, a netip.Addr, k addrKind) bool {
	a = a.Unmap()
	for _, p := range patterns {
		p = strings.TrimSpace(p)
		if ip, err := netip.ParseAddr(p); err == nil && ip.Unmap() == a {
			return true
		}
		pre, err := netip.ParsePrefix(p)
		if err != nil || !pre.Contains(a) {
			continue
		}
		if pre.IsSingleIP() || k != addrMetadata && k != addrOwn && insideRange(pre.Masked()) {
			return true
		}
	}
	return false
}

// insideRange reports whether every address of pre lies in one of the
// special or private ranges (v4Ranges, v6Ranges, and ::1).
func insideRange(pre netip.Prefix) bool {
	ranges := v6Ranges
	if pre.Addr().Is4() {
		ranges = v4Ranges
	}
	for _, r := range ranges {
		if r.p.Bits() <= pre.Bits() && r.p.Contains(pre.Addr()) {
			return true
		}
	}
	return false
}

func broadcast(p netip.Prefix) netip.Addr {
	b := p.Masked().Addr().As4()
	host := uint32(1)<<(32-p.Bits()) - 1
	for i := range 4 {
		b[3-i] |= byte(host >> (8 * i))
	}
	return netip.AddrFrom4(b)
}

// interfacePrefixes are this machine's addresses now, with their masks.
func interfacePrefixes() ([]netip.Prefix, error) {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return nil, err
	}
	var out []netip.Prefix
	for _, a := range addrs {
		n, ok := a.(*net.IPNet)
		if !ok {
			continue
		}
		ip, ok := netip.AddrFromSlice(n.IP)
		if !ok {
			continue
		}
		ones, _ := n.Mask.Size()
		ip = ip.Unmap()
		if ip.Is4() && ones > 32 {
			ones -= 96
		}
		out = append(out, netip.PrefixFrom(ip, ones))
	}
	return out, nil
}
