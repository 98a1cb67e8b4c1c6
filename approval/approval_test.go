package approval

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"deckhand/tools"
)

// TestDecideGrantsAndRules: the gate's last step, with no policy or pin to
// say anything: grants, then the tool's rule, then its server's.
func TestDecideGrantsAndRules(t *testing.T) {
	read := Request{Server: "fs", Tool: "read_text_file", Display: "fs.read_text_file"}
	write := Request{Server: "fs", Tool: "write_file", Display: "fs.write_file"}
	exec := Request{Server: "local", Tool: "exec", Display: "local.exec"}
	always := &Always{}
	always.Grant("git.push", "test")
	tests := []struct {
		name    string
		rules   Rules
		session Grants
		req     Request
		want    Verdict
		reason  string
	}{
		{"nothing allows it", nil, nil, write, Ask, ""},
		{"tool rule", Rules{"fs.read_text_file": true}, nil, read, Allow, "auto_approve fs.read_text_file"},
		{"tool rule for another tool", Rules{"fs.read_text_file": true}, nil, write, Ask, ""},
		{"server rule", Rules{"fs.*": true}, nil, write, Allow, "auto_approve fs.*"},
		{"tool false beats server true", Rules{"fs.*": true, "fs.write_file": false}, nil, write, Ask, "auto_approve fs.write_file = false"},
		{"session grant", nil, Grants{"fs.write_file": true}, write, Allow, "allowed for this session"},
		{"session grant beats a false rule", Rules{"fs.write_file": false}, Grants{"fs.write_file": true}, write, Allow, "allowed for this session"},
		{"always grant", nil, nil, Request{Server: "git", Tool: "push", Display: "git.push"}, Allow, "always allowed"},
		{"shell asks by default", Rules{"fs.*": true}, nil, exec, Ask, ""},
		{"shell rule", Rules{"local.exec": true}, nil, exec, Allow, "auto_approve local.exec"},
		{"a server rule is not a wildcard for other servers", Rules{"f.*": true}, nil, write, Ask, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Decide(tt.req, tools.Tool{}, Pin{}, nil, Granted{Session: tt.session, Always: always}, tt.rules)
			if got.Verdict != tt.want || got.By != tt.reason {
				t.Errorf("Decide() = %v by %q, want verdict %v by %q", got.Verdict, got.By, tt.want, tt.reason)
			}
			if got.Verdict == Allow && got.Scope() != map[bool]string{true: "rule", false: "grant"}[strings.HasPrefix(tt.reason, "auto_approve")] {
				t.Errorf("Scope() = %q for %q", got.Scope(), tt.reason)
			}
		})
	}
}

func TestParseAnswer(t *testing.T) {
	tests := map[string]Answer{"y": AllowOnce, "YES": AllowOnce, " s ": AllowSession, "always": AllowAlways, "a": AllowAlways, "": Deny, "n": Deny, "sure": Deny}
	for in, want := range tests {
		if got := ParseAnswer(in); got != want {
			t.Errorf("ParseAnswer(%q) = %v, want %v", in, got, want)
		}
	}
}

// The "always" grants without a log: a grant counts at once and is
// listed; a revocation counts at once.
func TestAlwaysWithoutLog(t *testing.T) {
	var g Always
	g.Grant("b.x", "me")
	g.Grant("a.y", "me")
	if !g.Allowed("a.y") || g.Allowed("c.z") {
		t.Errorf("Allowed(a.y, c.z) = %v, %v; want true, false", g.Allowed("a.y"), g.Allowed("c.z"))
	}
	if l := g.List(); len(l) != 2 || l[0].Tool != "a.y" || l[0].By != "me" {
		t.Errorf("List() = %+v, want a.y then b.x, by me", l)
	}
	g.Revoke("a.y")
	if g.Allowed("a.y") {
		t.Errorf("a revoked grant is still allowed")
	}
	g.Grant("a.y", "me")
	if !g.Allowed("a.y") {
		t.Errorf("a grant given again after its revocation does not count")
	}
	var none *Always
	if none.Allowed("a.y") {
		t.Errorf("a nil Always allows")
	}
}

// With a log: a grant counts at once and goes to the log; a revocation
// counts at once; a reload of the log before the revocation's row is
// deleted does not bring the grant back, nor does a grant made before it
// that reaches the disk after it; a reload does not drop a grant not yet
// on disk.
func TestAlwaysWithLog(t *testing.T) {
	var saved []string
	g := NewAlways(func(gr Grant) { saved = append(saved, gr.Tool) })
	onDisk := []Grant{{Tool: "a.x", By: "user"}}
	g.Reload(onDisk)
	if !g.Allowed("a.x") {
		t.Fatal("a grant read from the log does not count")
	}
	g.Grant("a.z", "user")
	if !g.Allowed("a.z") || !slices.Equal(saved, []string{"a.z"}) {
		t.Errorf("a new grant: allowed %v, saved %v; want true, [a.z]", g.Allowed("a.z"), saved)
	}
	g.Reload(onDisk) // a.z is not on disk yet
	if !g.Allowed("a.z") {
		t.Error("a reload drops a grant not yet on disk")
	}
	g.Revoke("a.x")
	if g.Allowed("a.x") {
		t.Error("a revocation does not count at once")
	}
	g.Reload(onDisk)
	if g.Allowed("a.x") {
		t.Error("a reload before the row is deleted brings the grant back")
	}
	g.Grant("a.y", "user")
	g.Revoke("a.y")
	g.Saved("a.y") // the grant reaches the disk after the revocation was made
	if g.Allowed("a.y") {
		t.Error("a grant made before a revocation counts once written")
	}
	g.Deleted("a.y")
	g.Grant("a.y", "user") // given again: counts
	if !g.Allowed("a.y") {
		t.Error("a grant given again after a revocation does not count")
	}
	g.Deleted("a.x")
	g.Reload(nil) // the log's row is gone
	if g.Allowed("a.x") || !g.Allowed("a.y") || !g.Allowed("a.z") {
		t.Errorf("after the rows' deletion: a.x %v, a.y %v, a.z %v; want false, true, true", g.Allowed("a.x"), g.Allowed("a.y"), g.Allowed("a.z"))
	}
}

// Grants and revocations from many goroutines at once: each change lands
// on the newest book (run with -race).
func TestAlwaysConcurrent(t *testing.T) {
	var g Always
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tool := fmt.Sprintf("s.t%d", i)
			g.Grant(tool, "me")
			g.Allowed(tool)
			if i%2 == 0 {
				g.Revoke(tool)
			}
		}()
	}
	wg.Wait()
	if n := len(g.List()); n != 8 {
		t.Errorf("len(List()) = %d after 16 grants and 8 revocations, want 8", n)
	}
}

// FuzzParseAnswer: whatever a person types, the answer is one of the four,
// and only the words that say yes allow.
func FuzzParseAnswer(f *testing.F) {
	for _, s := range []string{"y", "yes", "s", "a", "always", "", "no", " ONCE\n", "yés"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a := ParseAnswer(s)
		if a < Deny || a > AllowAlways {
			t.Fatalf("ParseAnswer(%q) = %d", s, int(a))
		}
		if a.Allowed() && ParseAnswer(a.Scope()) != a {
			t.Fatalf("ParseAnswer(%q) = %v, but its scope %q reads back as %v", s, a, a.Scope(), ParseAnswer(a.Scope()))
		}
		if _ = a.String(); a == Deny && a.Scope() != "" {
			t.Fatalf("a deny has a scope")
		}
	})
}
