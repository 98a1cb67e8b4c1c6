package sandbox

import (
	"bufio"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeNet resolves names from a table and dials fake upstreams that
// answer "hello from ADDR" to whatever they are sent.
type fakeNet struct {
	mu     sync.Mutex
	names  map[string][]netip.Addr
	dialed []string
}

func (f *fakeNet) resolve(_ context.Context, host string) ([]netip.Addr, error) {
	if a, ok := f.names[host]; ok {
		return a, nil
	}
	return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
}

func (f *fakeNet) dial(_ context.Context, a netip.AddrPort) (net.Conn, error) {
	f.mu.Lock()
	f.dialed = append(f.dialed, a.String())
	f.mu.Unlock()
	c, s := net.Pipe()
	go func() {
		defer s.Close()
		if a.Port() == 80 { // a web server
			if req, err := http.ReadRequest(bufio.NewReader(s)); err == nil {
				body := "hello via " + req.URL.Path
				io.WriteString(s, fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", len(body), body))
			}
			return
		}
		io.WriteString(s, "hello from "+a.String())
	}()
	return c, nil
}

func newTestProxy(t *testing.T) (string, *fakeNet, *[]string) {
	fn := &fakeNet{names: map[string][]netip.Addr{
		"allowed.test":   {netip.MustParseAddr("93.184.216.34")},
		"a.wild.test":    {netip.MustParseAddr("93.184.216.35")},
		"lan.wild.test":  {netip.MustParseAddr("10.0.0.5")},
		"back.wild.test": {netip.MustParseAddr("127.0.0.1")},
		"intranet.test":  {netip.MustParseAddr("10.1.2.3")},
	}}
	var mu sync.Mutex
	var heard []string
	p := &Proxy{Hosts: []string{"allowed.test", "*.wild.test", "intranet.test"}, Resolve: fn.resolve, Dial: fn.dial, Interfaces: testInterfaces,
		OnConnect: func(target string, ok bool, _ string) {
			mu.Lock()
			defer mu.Unlock()
			heard = append(heard, map[bool]string{true: "+", false: "-"}[ok]+target)
		}}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go p.Serve(ln)
	t.Cleanup(p.Close)
	return ln.Addr().String(), fn, &heard
}

// socks5 asks the proxy for host:port and returns the reply code and, when
// granted, what the upstream said.
func socks5(t *testing.T, addr, host string, port int) (byte, string) {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	c.Write([]byte{5, 1, 0})
	hello := make([]byte, 2)
	io.ReadFull(c, hello)
	req := []byte{5, 1, 0, 3, byte(len(host))}
	req = append(req, host...)
	req = binary.BigEndian.AppendUint16(req, uint16(port))
	c.Write(req)
	reply := make([]byte, 10)
	if _, err := io.ReadFull(c, reply); err != nil {
		t.Fatalf("socks5 %s: %v", host, err)
	}
	if reply[1] != 0 {
		return reply[1], ""
	}
	rest, _ := io.ReadAll(c)
	return 0, string(rest)
}

func connectVia(t *testing.T, addr, target string) (int, string) {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	io.WriteString(c, "CONNECT "+target+" HTTP/1.1\r\nHost: "+target+"\r\n\r\n")
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("CONNECT %s: %v", target, err)
	}
	if resp.StatusCode != 200 {
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}
	rest, _ := io.ReadAll(br)
	return 200, string(rest)
}

// The proxy lets through exactly the hosts of its list, by name, before
// any connection; a wildcard's names may not lead into the local network
// or back to this machine, an exact name may lead to the local network.
func TestProxy(t *testing.T) {
	addr, fn, heard := newTestProxy(t)
	for _, c := range []struct {
		host string
		code byte
		from string
	}{
		{"allowed.test", 0, "93.184.216.34:443"},
		{"a.wild.test", 0, "93.184.216.35:443"},
		{"intranet.test", 0, "10.1.2.3:443"},
		{"evil.test", 2, ""},
		{"wild.test", 2, ""},
		{"lan.wild.test", 2, ""},
		{"back.wild.test", 2, ""},
		{"93.184.216.34", 2, ""}, // an address not in the list, though a listed name has it
	} {
		code, got := socks5(t, addr, c.host, 443)
		if code != c.code || c.code == 0 && got != "hello from "+c.from {
			t.Errorf("SOCKS5 %s: code %d, %q", c.host, code, got)
		}
		status, body := connectVia(t, addr, net.JoinHostPort(c.host, "443"))
		if want := map[byte]int{0: 200, 2: 403}[c.code]; status != want {
			t.Errorf("CONNECT %s: %d %q, want %d", c.host, status, body, want)
		}
		if status == 403 && !strings.Contains(body, "does not allow "+c.host) {
			t.Errorf("CONNECT %s refused without saying why: %q", c.host, body)
		}
	}
	// A plain request in absolute form is sent on.
	c, _ := net.Dial("tcp", addr)
	io.WriteString(c, "GET http://allowed.test/hello-there HTTP/1.1\r\nHost: allowed.test\r\nProxy-Authorization: x\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET through the proxy: %v %+v", err, resp)
	}
	c.Close()
	for _, d := range fn.dialed {
		if strings.HasPrefix(d, "10.0.0.5") || strings.HasPrefix(d, "127.") {
			t.Errorf("dialled %s", d)
		}
	}
	if len(*heard) == 0 || !strings.Contains(strings.Join(*heard, " "), "-evil.test:443") || !strings.Contains(strings.Join(*heard, " "), "+allowed.test:443") {
		t.Errorf("OnConnect heard %v", *heard)
	}
}

func TestHostPatterns(t *testing.T) {
	for _, c := range []struct {
		host string
		ok   bool
	}{
		{"api.github.com", true}, {"*.example.com", true}, {".example.com", true}, {"10.0.0.1", true}, {"::1", true},
		{"10.1.0.0/16", true}, {"fd00::/8", true}, {"10.1.0.0/33", false}, {"a.b/16", false},
		{"", false}, {"*", false}, {"a*.b", false}, {"api.github.com:443", false}, {"http://x", false}, {"x y", false}, {"*.", false},
	} {
		if err := CheckHost(c.host); (err == nil) != c.ok {
			t.Errorf("CheckHost(%q) = %v", c.host, err)
		}
	}
	pats := []string{"api.github.com", "*.example.com", ".example.org"}
	for host, want := range map[string]bool{
		"api.github.com": true, "API.GitHub.com.": true, "x.api.github.com": false, "a.example.com": true, "example.com": false,
		"example.org": true, "a.example.org": true, "notexample.org": false, "": false,
	} {
		if got := HostAllowed(pats, host); got != want {
			t.Errorf("HostAllowed(%q) = %v", host, got)
		}
	}
	pats = []string{"10.1.0.0/16", "192.0.2.7", "::1"}
	for host, want := range map[string]bool{
		"10.1.2.3": true, "10.2.0.1": false, "192.0.2.7": true, "192.0.2.8": false, "0:0::1": true, "::ffff:10.1.0.1": true,
	} {
		if got := HostAllowed(pats, host); got != want {
			t.Errorf("HostAllowed(%q) = %v", host, got)
		}
	}
}

// FuzzProxy: whatever a confined program sends the proxy, it neither
// panics nor dials a host that is not on its list.
func FuzzProxy(f *testing.F) {
	f.Add([]byte("CONNECT evil.test:443 HTTP/1.1\r\n\r\n"))
	f.Add([]byte("GET http://allowed.test/ HTTP/1.1\r\nHost: x\r\n\r\n"))
	f.Add([]byte{5, 1, 0, 5, 1, 0, 3, 8, 'e', 'v', 'i', 'l', '.', 't', 'e', 's', 0, 80})
	f.Add([]byte{5, 1, 0, 5, 1, 0, 1, 127, 0, 0, 1, 0, 80})
	f.Add([]byte{5, 1, 0, 5, 1, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 80})
	f.Fuzz(func(t *testing.T, data []byte) {
		fn := &fakeNet{names: map[string][]netip.Addr{"allowed.test": {netip.MustParseAddr("93.184.216.34")}}}
		p := &Proxy{Hosts: []string{"allowed.test"}, Resolve: fn.resolve, Dial: fn.dial, Interfaces: testInterfaces}
		c, s := net.Pipe()
		done := make(chan struct{})
		go func() { p.handle(s); s.Close(); close(done) }()
		c.SetDeadline(time.Now().Add(200 * time.Millisecond))
		go io.Copy(io.Discard, c)
		c.Write(data)
		c.Close()
		<-done
		for _, d := range fn.dialed {
			if d != "93.184.216.34:"+strings.Split(d, ":")[1] {
				t.Fatalf("dialled %s", d)
			}
		}
	})
}

// A proxy narrowed to origins (Port) reaches a listed host only on the
// ports allowed for it, by either protocol.
func TestProxyPorts(t *testing.T) {
	fn := &fakeNet{names: map[string][]netip.Addr{"allowed.test": {netip.MustParseAddr("93.184.216.34")}}}
	p := &Proxy{Hosts: []string{"allowed.test"}, Resolve: fn.resolve, Dial: fn.dial, Interfaces: testInterfaces,
		Port: func(host string, port int) bool { return host == "allowed.test" && port == 443 }}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go p.Serve(ln)
	t.Cleanup(p.Close)
	addr := ln.Addr().String()
	for _, c := range []struct {
		port int
		code byte
	}{{443, 0}, {8443, 2}, {80, 2}} {
		if code, _ := socks5(t, addr, "allowed.test", c.port); code != c.code {
			t.Errorf("SOCKS5 allowed.test:%d: code %d, want %d", c.port, code, c.code)
		}
		status, _ := connectVia(t, addr, net.JoinHostPort("allowed.test", strconv.Itoa(c.port)))
		if want := map[byte]int{0: 200, 2: 403}[c.code]; status != want {
			t.Errorf("CONNECT allowed.test:%d: %d, want %d", c.port, status, want)
		}
	}
}
