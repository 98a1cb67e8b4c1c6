package sandbox

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseUnixSockets(t *testing.T) {
	in := `Num       RefCount Protocol Flags    Type St Inode Path
0000000000000000: 00000002 00000000 00010000 0001 01 137076 /run/user/1000/keyring/control
0000000000000000: 00000003 00000000 00000000 0001 03 138493 @/tmp/.X11-unix/X0
0000000000000000: 00000003 00000000 00000000 0001 03 138494
0000000000000000: 00000002 00000000 00010000 0001 01 138496 /tmp/with space/agent.1
0000000000000000: 00000002 00000000 00010000 0001 01 137076 /run/user/1000/keyring/control
`
	got := parseUnixSockets(strings.NewReader(in))
	want := []string{"/run/user/1000/keyring/control", "/tmp/with space/agent.1"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("parseUnixSockets = %q, want %q", got, want)
	}
}

// FuzzParseUnixSockets: any /proc/net/unix gives absolute paths only.
func FuzzParseUnixSockets(f *testing.F) {
	f.Add("Num RefCount\n0: 2 0 10000 1 1 1 /a/b\n0: 2 0 10000 1 1 1 @x\n")
	f.Fuzz(func(t *testing.T, in string) {
		for _, p := range parseUnixSockets(strings.NewReader(in)) {
			if !strings.HasPrefix(p, "/") {
				t.Fatalf("not absolute: %q", p)
			}
		}
	})
}

// A hidden place inside another, in a folder the program may write (a
// token file of Deckhand's kept in the session's runtime folder): the
// outer one is hidden whole, and nothing inside it is bound from the
// host, neither the inner one's cover nor the folders that would pin it
// (binding them would show the outer one's content again); a socket inside
// is not covered, as there is nothing there to cover.
func TestPlanHiddenInsideHidden(t *testing.T) {
	root := t.TempDir()
	rt := filepath.Join(root, "run")
	token := filepath.Join(rt, "deck", "token")
	sock := filepath.Join(rt, "keyring", "control")
	for _, d := range []string{filepath.Dir(token), filepath.Dir(sock)} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(token, []byte("secret"), 0o600)
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	p, err := buildPlan(&Spec{Write: []string{root}, Hide: []string{token, rt}, Protect: []string{filepath.Join(rt, "deck")}}, root, []string{sock})
	if err != nil {
		t.Fatal(err)
	}
	var inside []string
	hidden := false
	for _, m := range p.Mounts {
		switch {
		case m.Path == rt && m.Kind == mountHide:
			hidden = true
		case within(m.Path, rt):
			inside = append(inside, m.Kind+" "+m.Path)
		}
	}
	if !hidden {
		t.Errorf("buildPlan: %s is not hidden: %+v", rt, p.Mounts)
	}
	if len(inside) > 0 {
		t.Errorf("buildPlan mounts inside the hidden %s: %q", rt, inside)
	}
}
