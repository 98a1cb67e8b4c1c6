package apps_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"deckhand/apps"
	"deckhand/sandbox"
	"deckhand/testutil"
)

// laxHTML reaches for everything a page could, under a policy that allows
// it all: only Deckhand's sandbox stands in the way.
const laxHTML = `<!doctype html><html><body><p>lax</p><script>
const ALLOWED = %q, OTHER_PORT = %q, OTHER_HOST = %q, SECRET = %q;
const results = {};
const attempt = async (name, f) => { try { await f(); results[name] = 'ok'; } catch (e) { results[name] = 'blocked: ' + e; } };
(async () => {
  await attempt('allowed', () => fetch(ALLOWED + '/allowed').then(r => r.text()));
  await attempt('other-port', () => fetch(OTHER_PORT + '/fetch').then(r => r.text()));
  await attempt('other-host', () => fetch(OTHER_HOST + '/fetch').then(r => r.text()));
  await attempt('ws', () => new Promise((res, rej) => { const w = new WebSocket(OTHER_PORT.replace('http', 'ws') + '/ws'); w.onopen = res; w.onerror = () => rej('error'); }));
  await attempt('file', () => fetch('file://' + SECRET).then(r => r.text()));
  const img = new Image(); img.src = OTHER_HOST + '/img'; document.body.appendChild(img);
  await new Promise(r => setTimeout(r, 500));
  window.parent.postMessage({jsonrpc: '2.0', id: 1, method: 'tools/call', params: {name: 'report', arguments: results}}, '*');
})();
</script></body></html>`

// Deckhand's own sandbox around the view helper: a page served with a
// policy that allows every origin still reaches only the origin its
// resource declared (the egress proxy lets through that host on that
// port, and nothing else: not another port of the same host, not another
// host, by fetch, WebSocket or image); the helper and WebKit's processes
// run in namespaces of their own, and a file in the person's home is not
// in the helper's file system at all.
func TestConfinedViewReachesOnlyDeclaredOrigins(t *testing.T) {
	if err := sandbox.Available(); err != nil {
		t.Skip(err)
	}
	display := testutil.Xvfb(t, "800x600")
	helper := testutil.BuildProgram(t, "./cmd/deckhand-view")
	var mu sync.Mutex
	hits := map[string][]string{}
	serve := func(name, addr string) *httptest.Server {
		s := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			hits[name] = append(hits[name], r.URL.Path)
			mu.Unlock()
			w.Header().Set("Access-Control-Allow-Origin", "*")
			fmt.Fprint(w, "hello")
		}))
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			t.Skipf("listening on %s: %v", addr, err)
		}
		s.Listener = ln
		s.Start()
		t.Cleanup(s.Close)
		return s
	}
	allowed := serve("allowed", "127.0.0.1:0")
	otherPort := serve("other-port", "127.0.0.1:0")
	otherHost := serve("other-host", "127.0.0.2:0")

	home, err := os.UserHomeDir()
	if err != nil {
		t.Skip(err)
	}
	dir, err := os.MkdirTemp(home, ".deckhand-view-test-")
	if err != nil {
		t.Skip(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	secret := filepath.Join(dir, "secret.txt")
	if err := os.WriteFile(secret, []byte("hunter2"), 0o600); err != nil {
		t.Fatal(err)
	}

	t.Setenv("DISPLAY", display)
	open := apps.OpenView{Title: "lax.show", Width: 640, Height: 480,
		HTML: fmt.Sprintf(laxHTML, allowed.URL, otherPort.URL, otherHost.URL, secret),
		CSP:  "default-src * data: blob: 'unsafe-inline' 'unsafe-eval'; connect-src * ws: wss: file:; img-src * file:"}
	var heard []string
	p, err := apps.StartConfined(helper, open, apps.CSP{ConnectDomains: []string{allowed.URL}}, func(target string, ok bool, _ string) {
		mu.Lock()
		heard = append(heard, map[bool]string{true: "+", false: "-"}[ok]+target)
		mu.Unlock()
	})
	if err != nil {
		t.Fatal(err)
	}
	host := &recordingHost{got: make(chan struct{}, 1)}
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	s := apps.NewSession(apps.Config{Server: "lax", Tool: "show"}, host, p)
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	defer func() { p.Close(); <-done }()
	testutil.Receive(t, host.got, 30*time.Second, "the view's report")

	// Namespaces of its own, for the helper and WebKit's web process.
	for _, pid := range []int{p.Pid(), webProcess(t, p.Pid())} {
		for _, ns := range []string{"user", "net", "mnt", "pid"} {
			mine, _ := os.Readlink("/proc/self/ns/" + ns)
			its, _ := os.Readlink("/proc/" + strconv.Itoa(pid) + "/ns/" + ns)
			if its == "" || its == mine {
				t.Errorf("process %d's %s namespace is %q, ours %q: not confined", pid, ns, its, mine)
			}
		}
	}
	// Its file system holds the system's libraries, not the person's home.
	root := "/proc/" + strconv.Itoa(p.Pid()) + "/root"
	if _, err := os.Stat(filepath.Join(root, "usr/lib")); err != nil {
		t.Fatalf("cannot look into the helper's file system: %v", err)
	}
	for _, f := range []string{secret, dir, home} {
		if _, err := os.Stat(filepath.Join(root, f)); err == nil && f != home {
			t.Errorf("the helper sees %s", f)
		}
	}
	if b, err := os.ReadFile(filepath.Join(root, secret)); err == nil {
		t.Errorf("the helper can read the secret: %q", b)
	}

	host.mu.Lock()
	var report map[string]string
	json.Unmarshal(host.reports[0], &report)
	host.mu.Unlock()
	for name, want := range map[string]string{"allowed": "ok", "other-port": "blocked", "other-host": "blocked", "ws": "blocked", "file": "blocked"} {
		if !strings.HasPrefix(report[name], want) {
			t.Errorf("%s: %q, want %s", name, report[name], want)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(hits["other-port"]) > 0 || len(hits["other-host"]) > 0 {
		t.Errorf("an undeclared origin was reached: other port %v, other host %v", hits["other-port"], hits["other-host"])
	}
	if len(hits["allowed"]) != 1 {
		t.Errorf("the declared origin got %v, want the one fetch", hits["allowed"])
	}
	// The proxy is what said no (not a page that never tried).
	for _, want := range []string{"+" + allowed.Listener.Addr().String(), "-" + otherPort.Listener.Addr().String(), "-" + otherHost.Listener.Addr().String()} {
		if !slices.Contains(heard, want) {
			t.Errorf("the proxy heard %v, want %s among them", heard, want)
		}
	}
}

// The sandbox a view's helper gets: the system's folders and the helper
// read-only, its private home to write, the display's socket, and the
// hosts of the origins its resource declares; nothing of the person's
// home.
func TestViewSpec(t *testing.T) {
	env := map[string]string{"DISPLAY": ":0", "XAUTHORITY": "/home/me/.Xauthority"}
	spec := apps.ViewSpec("/opt/deckhand/deckhand-view", apps.CSP{ConnectDomains: []string{"https://api.example.com", "http://127.0.0.1:8080"},
		ResourceDomains: []string{"https://*.cdn.example"}, BaseURIDomains: []string{"https://base.example"}}, "/tmp/deckhand-view-1",
		func(k string) string { return env[k] })
	if got, want := strings.Join(spec.Hosts, " "), "api.example.com 127.0.0.1 *.cdn.example"; got != want {
		t.Errorf("Hosts = %q, want %q", got, want)
	}
	if got := strings.Join(spec.Write, " "); got != "/tmp/deckhand-view-1" {
		t.Errorf("Write = %q, want only its home", got)
	}
	for _, r := range spec.Read {
		if strings.HasPrefix(r, "/home/") && r != "/home/me/.Xauthority" {
			t.Errorf("Read holds %s", r)
		}
	}
	if spec.Network {
		t.Errorf("Network = true, want its own")
	}
	if err := spec.Check(); err != nil {
		t.Errorf("Check() = %v", err)
	}
}
