package sandbox

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Proxy is the only way out of a sandbox whose network is limited to some
// hosts: HTTP CONNECT, plain HTTP requests in absolute form, and SOCKS5
// CONNECT, on one port (the first byte tells which). A host is checked by
// name before anything is resolved or dialled; then each address it
// resolves to is judged by what it is (addr.go): this machine's own
// addresses, loopback, link-local, metadata, carrier-grade NAT and the
// like, in any IPv4-embedding form, are reached only when an entry names
// the address (or a CIDR holding it), and private ones not through a
// wildcard; a CIDR opens them only when it lies inside such a range
// itself ("127.0.0.0/8", not "0.0.0.0/0"). The connection goes to an
// address so judged, never to the name again (no second lookup to
// rebind). No
// library here serves both protocols with a check before the dial, so this
// is written by hand, and fuzzed.
type Proxy struct {
	// Hosts are the allowed host patterns (see Spec.Hosts).
	Hosts []string
	// OnConnect hears every request: "host:port", whether it was
	// allowed, and the rule that decided (RuleListed, RuleNotListed, or
	// where the name led, for a name refused for its addresses). Called
	// from the proxy's goroutines; may be nil.
	OnConnect func(target string, allowed bool, rule string)
	// Port, when set, narrows Hosts to origins: a host they allow is
	// reached only on a port Port allows for it (a view's declared
	// origins, scheme://host:port). Nil: any port.
	Port func(host string, port int) bool
	// Resolve and Dial default to the system's resolver and dialer;
	// Interfaces, to this machine's addresses (net.InterfaceAddrs), read
	// at each connection.
	Resolve    func(ctx context.Context, host string) ([]netip.Addr, error)
	Dial       func(ctx context.Context, addr netip.AddrPort) (net.Conn, error)
	Interfaces func() ([]netip.Prefix, error)

	mu     sync.Mutex
	ln     net.Listener
	conns  map[net.Conn]bool
	closed bool
}

// handshakeTimeout bounds how long a client may take to say where it goes.
const handshakeTimeout = 10 * time.Second

// Serve accepts connections on ln until Close.
func (p *Proxy) Serve(ln net.Listener) error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		ln.Close()
		return net.ErrClosed
	}
	p.ln, p.conns = ln, map[net.Conn]bool{}
	p.mu.Unlock()
	for {
		c, err := ln.Accept()
		if err != nil {
			return err
		}
		if !p.track(c, true) {
			c.Close()
			return net.ErrClosed
		}
		go func() {
			defer p.track(c, false)
			defer c.Close()
			p.handle(c)
		}()
	}
}

func (p *Proxy) track(c net.Conn, add bool) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if add {
		if p.closed {
			return false
		}
		p.conns[c] = true
	} else {
		delete(p.conns, c)
	}
	return true
}

// Close stops the proxy and cuts every connection through it.
func (p *Proxy) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	if p.ln != nil {
		p.ln.Close()
	}
	for c := range p.conns {
		c.Close()
	}
}

func (p *Proxy) handle(c net.Conn) {
	c.SetDeadline(time.Now().Add(handshakeTimeout))
	br := bufio.NewReaderSize(c, 4096)
	first, err := br.Peek(1)
	if err != nil {
		return
	}
	if first[0] == 5 {
		p.socks(c, br)
		return
	}
	p.http(c, br)
}

// errRefused is a host the spec does not allow.
var errRefused = errors.New("not allowed")

// The rules OnConnect reports, besides a refusal's own words.
const (
	RuleListed    = "in the server's network list"
	RuleNotListed = "not in the server's network list"
)

// A refusal is a host the list names whose addresses are all of a kind
// the list does not open (see addr.go): it says where the name led.
type refusal struct {
	host string
	addr netip.Addr
	kind addrKind
}

func (r *refusal) Error() string {
	if r.host == r.addr.String() {
		return fmt.Sprintf("%s is %s", r.host, r.kind)
	}
	return fmt.Sprintf("%s resolves to %s, %s", r.host, r.addr, r.kind)
}

func (r *refusal) Is(target error) bool { return target == errRefused }

// open checks host and dials it, saying what was asked.
func (p *Proxy) open(ctx context.Context, host string, port int) (net.Conn, error) {
	target := net.JoinHostPort(host, strconv.Itoa(port))
	conn, err := p.dial(ctx, host, port)
	if p.OnConnect != nil {
		rule := RuleListed
		var r *refusal
		switch {
		case errors.As(err, &r):
			rule = r.Error()
		case err == errRefused:
			rule = RuleNotListed
		case errors.Is(err, errRefused):
			rule = err.Error()
		}
		p.OnConnect(target, !errors.Is(err, errRefused), rule)
	}
	return conn, err
}

// dial checks host against the list, resolves it once, judges each
// address (this machine's interfaces as they are now), and connects to
// an address it judged: the name is never looked up again.
func (p *Proxy) dial(ctx context.Context, host string, port int) (net.Conn, error) {
	host = strings.TrimSuffix(strings.Trim(host, "[]"), ".")
	if port <= 0 || port > 65535 || !HostAllowed(p.Hosts, host) || p.Port != nil && !p.Port(host, port) {
		return nil, errRefused
	}
	var addrs []netip.Addr
	if ip, err := netip.ParseAddr(host); err == nil {
		addrs = []netip.Addr{ip.Unmap()}
	} else {
		resolve := p.Resolve
		if resolve == nil {
			resolve = func(ctx context.Context, host string) ([]netip.Addr, error) {
				return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
			}
		}
		var err error
		if addrs, err = resolve(ctx, host); err != nil {
			return nil, err
		}
	}
	ifaces := p.Interfaces
	if ifaces == nil {
		ifaces = interfacePrefixes
	}
	own, err := ifaces()
	if err != nil {
		return nil, fmt.Errorf("%w: this machine's addresses could not be read (%v)", errRefused, err)
	}
	// A name allowed only through a wildcard (whose subdomains someone
	// else may point anywhere) must not lead into the local network
	// either.
	wild := !slices.ContainsFunc(p.Hosts, func(h string) bool { return strings.EqualFold(strings.TrimSpace(h), host) })
	var first *refusal
	addrs = slices.DeleteFunc(slices.Clone(addrs), func(a netip.Addr) bool {
		a = a.Unmap()
		if !a.IsValid() {
			return true
		}
		kind := classify(a, own)
		if !kind.refusedFor(wild) || addrOpened(p.Hosts, a, kind) {
			return false
		}
		if first == nil {
			first = &refusal{host: host, addr: a, kind: kind}
		}
		return true
	})
	if len(addrs) == 0 {
		if first == nil {
			return nil, fmt.Errorf("%s: no address", host)
		}
		return nil, first
	}
	dial := p.Dial
	if dial == nil {
		dial = func(ctx context.Context, a netip.AddrPort) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "tcp", a.String())
		}
	}
	var last error
	for _, a := range addrs {
		conn, err := dial(ctx, netip.AddrPortFrom(a.Unmap(), uint16(port)))
		if err == nil {
			return conn, nil
		}
		last = err
	}
	return nil, last
}

// refusedText is what a refused program is told.
func refusedText(host string, err error) string {
	var r *refusal
	if errors.As(err, &r) {
		return fmt.Sprintf("Deckhand's sandbox does not allow %s: %s; only an entry naming the address itself (%s) in this server's network list opens it", host, r, r.addr)
	}
	if err != errRefused {
		return fmt.Sprintf("Deckhand's sandbox does not allow %s: %v", host, err)
	}
	return fmt.Sprintf("Deckhand's sandbox does not allow %s: add it to this server's network list to allow it", host)
}

// socks serves one SOCKS5 client: no authentication, CONNECT only.
func (p *Proxy) socks(c net.Conn, br *bufio.Reader) {
	var hdr [2]byte
	if _, err := io.ReadFull(br, hdr[:]); err != nil {
		return
	}
	methods := make([]byte, hdr[1])
	if _, err := io.ReadFull(br, methods); err != nil {
		return
	}
	if !slices.Contains(methods, 0) {
		c.Write([]byte{5, 0xff})
		return
	}
	c.Write([]byte{5, 0})
	var req [4]byte
	if _, err := io.ReadFull(br, req[:]); err != nil || req[0] != 5 {
		return
	}
	var host string
	switch req[3] {
	case 1, 4: // IPv4, IPv6
		b := make([]byte, map[byte]int{1: 4, 4: 16}[req[3]])
		if _, err := io.ReadFull(br, b); err != nil {
			return
		}
		ip, _ := netip.AddrFromSlice(b)
		host = ip.String()
	case 3: // a name
		n, err := br.ReadByte()
		if err != nil {
			return
		}
		b := make([]byte, n)
		if _, err := io.ReadFull(br, b); err != nil {
			return
		}
		host = string(b)
	default:
		socksReply(c, 8) // address type not supported
		return
	}
	var pb [2]byte
	if _, err := io.ReadFull(br, pb[:]); err != nil {
		return
	}
	if req[1] != 1 {
		socksReply(c, 7) // command not supported
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), handshakeTimeout)
	defer cancel()
	up, err := p.open(ctx, host, int(binary.BigEndian.Uint16(pb[:])))
	if err != nil {
		code := byte(5) // connection refused
		if errors.Is(err, errRefused) {
			code = 2 // not allowed by the rule set
		}
		socksReply(c, code)
		return
	}
	defer up.Close()
	socksReply(c, 0)
	pipe(c, br, up)
}

func socksReply(c net.Conn, code byte) {
	c.Write([]byte{5, code, 0, 1, 0, 0, 0, 0, 0, 0})
}

// http serves one HTTP proxy request: CONNECT, or a request in absolute
// form, sent on with Connection: close.
func (p *Proxy) http(c net.Conn, br *bufio.Reader) {
	req, err := http.ReadRequest(bufio.NewReader(io.LimitReader(br, 64<<10)))
	if err != nil {
		io.WriteString(c, "HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n")
		return
	}
	host, portText := req.URL.Hostname(), req.URL.Port()
	if req.Method == http.MethodConnect {
		host, portText, err = net.SplitHostPort(req.RequestURI)
		if err != nil {
			io.WriteString(c, "HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n")
			return
		}
	} else if req.URL.Scheme != "http" || host == "" {
		refuse(c, 400, "only http:// requests and CONNECT go through this proxy")
		return
	}
	port := 80
	if portText != "" {
		if port, err = strconv.Atoi(portText); err != nil {
			refuse(c, 400, "bad port")
			return
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), handshakeTimeout)
	defer cancel()
	up, err := p.open(ctx, host, port)
	if err != nil {
		if errors.Is(err, errRefused) {
			refuse(c, 403, refusedText(host, err))
		} else {
			refuse(c, 502, "could not reach "+host)
		}
		return
	}
	defer up.Close()
	if req.Method == http.MethodConnect {
		io.WriteString(c, "HTTP/1.1 200 Connection established\r\n\r\n")
		pipe(c, br, up)
		return
	}
	req.RequestURI = ""
	req.Close = true
	req.Header.Del("Proxy-Connection")
	req.Header.Del("Proxy-Authorization")
	c.SetDeadline(time.Time{})
	if err := req.Write(up); err != nil {
		return
	}
	io.Copy(c, up)
}

func refuse(c net.Conn, status int, why string) {
	fmt.Fprintf(c, "HTTP/1.1 %d %s\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: %d\r\n\r\n%s",
		status, http.StatusText(status), len(why), why)
}

// pipe copies both ways until either side ends.
func pipe(c net.Conn, br *bufio.Reader, up net.Conn) {
	c.SetDeadline(time.Time{})
	done := make(chan struct{}, 2)
	go func() { io.Copy(up, br); closeWrite(up); done <- struct{}{} }()
	go func() { io.Copy(c, up); closeWrite(c); done <- struct{}{} }()
	<-done
	<-done
}

func closeWrite(c net.Conn) {
	if cw, ok := c.(interface{ CloseWrite() error }); ok {
		cw.CloseWrite()
	} else {
		c.Close()
	}
}
