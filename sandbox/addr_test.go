package sandbox

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// testInterfaces are a machine's addresses as net.InterfaceAddrs gives
// them: a LAN IPv4, an IPv6 unique-local, link-local and loopback.
func testInterfaces() ([]netip.Prefix, error) {
	return []netip.Prefix{
		netip.MustParsePrefix("127.0.0.1/8"), netip.MustParsePrefix("::1/128"),
		netip.MustParsePrefix("192.0.2.2/24"), netip.MustParsePrefix("fd00::2/64"), netip.MustParsePrefix("fe80::fc:ff:fe00:1/64"),
	}, nil
}

// Every kind of address a name may lead to, judged after resolving: a
// wildcard's names reach only public addresses, an exact name also
// private ones, and nothing reaches this machine, its loopback, link-local
// or metadata services, carrier-grade NAT, benchmarking, multicast,
// broadcast or unspecified addresses, in any form that embeds one, unless
// an entry names the address itself. The connection goes to the address
// judged.
func TestProxyAddresses(t *testing.T) {
	hosts := []string{"*.wild.test", "lan.allowed", "lan.other", "meta.exact", "nat.exact", "named.exact", "127.0.0.1", "10.9.0.0/16"}
	names := map[string]string{
		"own4.wild.test":     "192.0.2.2",
		"lan.other":          "192.168.1.5",
		"public.wild.test":   "93.184.216.34",
		"own6.wild.test":     "fd00::2",
		"lan.allowed":        "192.0.2.2",
		"private.wild.test":  "192.168.1.5",
		"cgnat.wild.test":    "100.64.1.1",
		"tailnet.wild.test":  "100.101.102.103",
		"bench.wild.test":    "198.18.0.1",
		"nat64.wild.test":    "64:ff9b::7f00:1",
		"nat64l.wild.test":   "64:ff9b:1::7f00:1",
		"compat.wild.test":   "::7f00:1",
		"mapped.wild.test":   "::ffff:169.254.169.254",
		"6to4.wild.test":     "2002:a9fe:a9fe::1",
		"teredo.wild.test":   "2001:0:4136:e378:8000:63bf:80ff:fffe", // client 127.0.0.1
		"isatap.wild.test":   "2001:db8::5efe:a9fe:a9fe",
		"meta.exact":         "169.254.169.254",
		"link.wild.test":     "fe80::1",
		"multi.wild.test":    "224.0.0.251",
		"bcast.wild.test":    "255.255.255.255",
		"subnet.wild.test":   "192.0.2.255",
		"zero.wild.test":     "0.0.0.0",
		"ulaother.wild.test": "fd00::77",
		"nat.exact":          "64:ff9b::5db8:d822", // NAT64 of a public address
		"named.exact":        "127.0.0.1",          // named by the list
		"cidr.wild.test":     "10.9.1.1",           // inside a listed CIDR
	}
	for _, c := range []struct {
		host string
		port int
		dial string // "" : refused
		why  string
	}{
		{"public.wild.test", 443, "93.184.216.34:443", ""},
		{"own6.wild.test", 443, "", "fd00::2, this machine's own address"},
		{"own4.wild.test", 443, "", "192.0.2.2, this machine's own address"},
		{"lan.allowed", 443, "", "lan.allowed resolves to 192.0.2.2, this machine's own address"},
		{"lan.other", 443, "192.168.1.5:443", ""}, // an exact name may lead into the LAN
		{"private.wild.test", 443, "", "192.168.1.5, a private address"},
		{"cgnat.wild.test", 443, "", "carrier-grade NAT"},
		{"tailnet.wild.test", 443, "", "carrier-grade NAT"},
		{"bench.wild.test", 443, "", "benchmarking"},
		{"nat64.wild.test", 443, "", "64:ff9b::7f00:1, this machine's loopback"},
		{"nat64l.wild.test", 443, "", "this machine's loopback"},
		{"compat.wild.test", 443, "", "::7f00:1, this machine's loopback"},
		{"mapped.wild.test", 443, "", "169.254.169.254, a cloud metadata service"},
		{"6to4.wild.test", 443, "", "cloud metadata"},
		{"teredo.wild.test", 443, "", "this machine's loopback"},
		{"isatap.wild.test", 443, "", "cloud metadata"},
		{"meta.exact", 80, "", "169.254.169.254, a cloud metadata service"},
		{"link.wild.test", 443, "", "link-local"},
		{"multi.wild.test", 443, "", "multicast"},
		{"bcast.wild.test", 443, "", "broadcast"},
		{"subnet.wild.test", 443, "", "192.0.2.255, this machine's own address"},
		{"zero.wild.test", 443, "", "unspecified"},
		{"ulaother.wild.test", 443, "", "private"},
		{"nat.exact", 443, "[64:ff9b::5db8:d822]:443", ""},
		{"named.exact", 8080, "127.0.0.1:8080", ""},
		{"cidr.wild.test", 443, "10.9.1.1:443", ""},
		{"127.0.0.1", 22, "127.0.0.1:22", ""},
		{"127.0.0.2", 22, "", "not in the server's network list"},
		{"169.254.169.254", 80, "", "not in the server's network list"},
	} {
		t.Run(c.host, func(t *testing.T) {
			fn := &fakeNet{names: map[string][]netip.Addr{}}
			for n, a := range names {
				if a != "" {
					fn.names[n] = []netip.Addr{netip.MustParseAddr(a)}
				}
			}
			var rule string
			p := &Proxy{Hosts: hosts, Resolve: fn.resolve, Dial: fn.dial, Interfaces: testInterfaces,
				OnConnect: func(_ string, _ bool, r string) { rule = r }}
			conn, err := p.open(t.Context(), c.host, c.port)
			if conn != nil {
				conn.Close()
			}
			if c.dial != "" {
				if err != nil || !slices.Equal(fn.dialed, []string{c.dial}) {
					t.Fatalf("open(%s) = %v, dialled %v, want %s", c.host, err, fn.dialed, c.dial)
				}
				if rule != RuleListed {
					t.Errorf("rule = %q", rule)
				}
				return
			}
			if !errors.Is(err, errRefused) || len(fn.dialed) > 0 {
				t.Fatalf("open(%s) = %v, dialled %v, want refused", c.host, err, fn.dialed)
			}
			if !strings.Contains(rule, c.why) {
				t.Errorf("rule = %q, want it to say %q", rule, c.why)
			}
		})
	}
	// A name with a refused address and a public one reaches the public
	// one only.
	fn := &fakeNet{names: map[string][]netip.Addr{"mixed.wild.test": {netip.MustParseAddr("192.0.2.2"), netip.MustParseAddr("93.184.216.35")}}}
	p := &Proxy{Hosts: []string{"*.wild.test"}, Resolve: fn.resolve, Dial: fn.dial, Interfaces: testInterfaces}
	if conn, err := p.open(t.Context(), "mixed.wild.test", 443); err != nil || !slices.Equal(fn.dialed, []string{"93.184.216.35:443"}) {
		t.Errorf("mixed: %v, dialled %v", err, fn.dialed)
	} else {
		conn.Close()
	}
	// Interfaces read at connection time: an address this machine gains
	// is its own from then on.
	gained := false
	p = &Proxy{Hosts: []string{"lan.exact"}, Resolve: (&fakeNet{names: map[string][]netip.Addr{"lan.exact": {netip.MustParseAddr("192.168.7.7")}}}).resolve,
		Dial: fn.dial, Interfaces: func() ([]netip.Prefix, error) {
			if gained {
				return []netip.Prefix{netip.MustParsePrefix("192.168.7.7/24")}, nil
			}
			return nil, nil
		}}
	if conn, err := p.open(t.Context(), "lan.exact", 443); err != nil {
		t.Fatalf("before: %v", err)
	} else {
		conn.Close()
	}
	gained = true
	if _, err := p.open(t.Context(), "lan.exact", 443); !errors.Is(err, errRefused) {
		t.Errorf("after the address became this machine's: %v", err)
	}
	// Where this machine's addresses cannot be read, nothing is reached,
	// and the rule says why.
	var rule string
	p.Interfaces = func() ([]netip.Prefix, error) { return nil, errors.New("netlink says no") }
	p.OnConnect = func(_ string, _ bool, r string) { rule = r }
	if _, err := p.open(t.Context(), "lan.exact", 443); !errors.Is(err, errRefused) || !strings.Contains(rule, "could not be read (netlink says no)") {
		t.Errorf("without the interfaces: %v, rule %q", err, rule)
	}
}

// ownAddresses are this machine's non-loopback addresses.
func ownAddresses(t *testing.T) []netip.Addr {
	prefixes, err := interfacePrefixes()
	if err != nil {
		t.Fatal(err)
	}
	var out []netip.Addr
	for _, p := range prefixes {
		if a := p.Addr(); !a.IsLoopback() && !a.IsLinkLocalUnicast() {
			out = append(out, a)
		}
	}
	if len(out) == 0 {
		t.Skip("this machine has no address but loopback")
	}
	return out
}

// A name on the list that resolves to this machine's own non-loopback
// address (its LAN IPv4, its IPv6 unique-local) does not reach a service
// listening on every address, through CONNECT, SOCKS5 or a plain GET; the
// refusal says where the name led. The positive controls: the service is
// reached directly at that address, and through the proxy when the list
// names the address itself. Only this machine's own addresses are
// dialled.
func TestProxyRefusesThisMachine(t *testing.T) {
	for _, own := range ownAddresses(t) {
		t.Run(own.String(), func(t *testing.T) {
			network := "tcp4"
			if own.Is6() {
				network = "tcp6"
			}
			ln, err := net.Listen(network, ":0") // 0.0.0.0 or [::]
			if err != nil {
				t.Skip(err)
			}
			defer ln.Close()
			accepted := make(chan struct{}, 16)
			go func() {
				for {
					c, err := ln.Accept()
					if err != nil {
						return
					}
					accepted <- struct{}{}
					io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 7\r\nConnection: close\r\n\r\nreached")
					c.Close()
				}
			}()
			port := ln.Addr().(*net.TCPAddr).Port
			target := netip.AddrPortFrom(own, uint16(port))
			// The control: the service is there, at this address.
			c, err := net.DialTimeout("tcp", target.String(), 5*time.Second)
			if err != nil {
				t.Fatalf("control: %s is not reachable directly: %v", target, err)
			}
			c.Close()
			<-accepted

			resolve := func(_ context.Context, host string) ([]netip.Addr, error) {
				if host == "x.wild.test" || host == "lan.allowed" {
					return []netip.Addr{own}, nil
				}
				return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
			}
			var rules []string
			p := &Proxy{Hosts: []string{"*.wild.test", "lan.allowed"}, Resolve: resolve,
				OnConnect: func(_ string, _ bool, r string) { rules = append(rules, r) }}
			pl, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			go p.Serve(pl)
			defer p.Close()
			addr := pl.Addr().String()
			for _, host := range []string{"x.wild.test", "lan.allowed"} {
				hp := net.JoinHostPort(host, strconv.Itoa(port))
				if status, body := connectVia(t, addr, hp); status != 403 || !strings.Contains(body, "resolves to "+own.String()+", this machine's own address") {
					t.Errorf("CONNECT %s = %d %q, want 403 saying where it led", hp, status, body)
				}
				if code, got := socks5(t, addr, host, port); code != 2 {
					t.Errorf("SOCKS5 %s = %d %q, want 2 (not allowed)", hp, code, got)
				}
				if status, body := getVia(t, addr, "http://"+hp+"/"); status != 403 {
					t.Errorf("GET %s = %d %q, want 403", hp, status, body)
				}
			}
			select {
			case <-accepted:
				t.Fatalf("the service was reached through the proxy")
			default:
			}
			for _, r := range rules {
				if !strings.Contains(r, "this machine's own address") {
					t.Errorf("rule %q does not say where the name led", r)
				}
			}
			// The control through the proxy: the address named by the
			// list is reached.
			p2 := &Proxy{Hosts: []string{own.String()}}
			pl2, _ := net.Listen("tcp", "127.0.0.1:0")
			go p2.Serve(pl2)
			defer p2.Close()
			if status, body := getVia(t, pl2.Addr().String(), "http://"+target.String()+"/"); status != 200 || body != "reached" {
				t.Errorf("control: GET %s through the proxy with the address listed = %d %q", target, status, body)
			}
		})
	}
}

func getVia(t *testing.T, addr, url string) (int, string) {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	io.WriteString(c, "GET "+url+" HTTP/1.1\r\nHost: x\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// FuzzClassify: any address is judged without panicking, and an IPv6
// form that embeds an IPv4 address (mapped, compatible, 6to4, NAT64,
// Teredo's server) is refused wherever the IPv4 one is.
func FuzzClassify(f *testing.F) {
	for _, s := range []string{"127.0.0.1", "169.254.169.254", "192.0.2.2", "100.64.0.1", "93.184.216.34", "10.0.0.1", "0.0.0.0", "255.255.255.255"} {
		b := netip.MustParseAddr(s).As4()
		f.Add(b[:], uint8(0))
	}
	f.Fuzz(func(t *testing.T, data []byte, form uint8) {
		own, _ := testInterfaces()
		if len(data) == 16 {
			a := netip.AddrFrom16([16]byte(data))
			classify(a, own)
			return
		}
		if len(data) != 4 {
			return
		}
		v4 := netip.AddrFrom4([4]byte(data))
		k := classify(v4, own)
		var b [16]byte
		switch form % 5 {
		case 0: // mapped
			b = netip.AddrFrom4([4]byte(data)).As16()
			b[10], b[11] = 0xff, 0xff
		case 1: // compatible
			copy(b[12:], data)
		case 2: // 6to4
			b[0], b[1] = 0x20, 0x02
			copy(b[2:6], data)
		case 3: // NAT64
			b[1], b[2], b[3] = 0x64, 0xff, 0x9b
			copy(b[12:], data)
		case 4: // Teredo, as its server
			b[0], b[1] = 0x20, 0x01
			copy(b[4:8], data)
		}
		v6 := netip.AddrFrom16(b)
		if v6 == netip.IPv6Unspecified() || v6 == netip.IPv6Loopback() {
			return
		}
		k6 := classify(v6, own)
		for _, wild := range []bool{false, true} {
			if k.refusedFor(wild) && !k6.refusedFor(wild) {
				t.Fatalf("%s is %s but %s (form %d) is %s", v4, k, v6, form%5, k6)
			}
		}
	})
}

// A wide CIDR on the list ("0.0.0.0/0" or "::/0" for any host, NAT64's
// "64:ff9b::/96" on an IPv6-only network) opens the public addresses it
// holds, not this machine, its loopback, the metadata service or the
// special addresses inside it: a prefix opens a special address only when
// it lies inside a range of special or private addresses itself
// ("127.0.0.0/8", "10.0.0.0/8"), and the metadata service and this
// machine's own addresses only when named. Before, a list of
// ["0.0.0.0/0", "::/0"] reached 127.0.0.1, ::1, 0.0.0.0, ::, the metadata
// service and this machine's address, and "64:ff9b::/96" the loopback
// through 64:ff9b::7f00:1.
func TestProxyWidePrefixes(t *testing.T) {
	for _, c := range []struct {
		hosts   []string
		open    []string
		refused []string
	}{
		{[]string{"0.0.0.0/0", "::/0"}, []string{"93.184.216.34", "2606:2800:220:1::1"},
			[]string{"127.0.0.1", "::1", "0.0.0.0", "::", "169.254.169.254", "192.0.2.2", "fd00::2", "::ffff:127.0.0.1", "100.64.1.1"}},
		{[]string{"64:ff9b::/96"}, []string{"64:ff9b::5db8:d822"}, []string{"64:ff9b::7f00:1", "64:ff9b::a9fe:a9fe"}},
		{[]string{"127.0.0.0/8", "10.0.0.0/8", "fe80::/10", "169.254.0.0/16"}, []string{"127.0.0.5", "::ffff:127.0.0.5", "10.1.2.3", "fe80::5", "169.254.1.1"},
			[]string{"169.254.169.254", "192.0.2.2", "8.8.8.8"}},
		{[]string{"169.254.169.254", "192.0.2.2", "::1"}, []string{"169.254.169.254", "192.0.2.2", "::1"}, []string{"127.0.0.1"}},
	} {
		for _, want := range []struct {
			addrs []string
			open  bool
		}{{c.open, true}, {c.refused, false}} {
			for _, a := range want.addrs {
				fn := &fakeNet{}
				p := &Proxy{Hosts: c.hosts, Dial: fn.dial, Interfaces: testInterfaces}
				conn, err := p.open(t.Context(), a, 443)
				if conn != nil {
					conn.Close()
				}
				if got := err == nil && len(fn.dialed) == 1; got != want.open {
					t.Errorf("list %q, %s: reached %v (err %v), want %v", c.hosts, a, got, err, want.open)
				}
			}
		}
	}
}
