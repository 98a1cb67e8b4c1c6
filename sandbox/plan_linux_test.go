package sandbox

import (
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
