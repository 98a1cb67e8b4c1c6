package approval

import (
	"strings"
	"testing"

	"deckhand/tools"
)

// TestDecideGrantsAndRules: the gate's last step, with no policy or pin to
// say anything: grants, then the tool's rule, then its server's.
func TestDecideGrantsAndRules(t *testing.T) {
	read := Request{Server: "fs", Tool: "read_text_file", Display: "fs.read_text_file"}
	write := Request{Server: "fs", Tool: "write_file", Display: "fs.write_file"}
	exec := Request{Server: "local", Tool: "exec", Display: "local.exec"}
	always := &MemoryAlways{}
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

func TestMemoryAlways(t *testing.T) {
	var m MemoryAlways
	m.Grant("b.x", "me")
	m.Grant("a.y", "me")
	if !m.Allowed("a.y") || m.Allowed("c.z") {
		t.Errorf("Allowed wrong")
	}
	if l := m.List(); len(l) != 2 || l[0].Tool != "a.y" {
		t.Errorf("List() = %+v", l)
	}
	m.Revoke("a.y")
	if m.Allowed("a.y") {
		t.Errorf("revoked grant still allowed")
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
