package sandbox

import (
	"strings"
	"testing"
)

func TestProfile(t *testing.T) {
	p := Profile(&Spec{Read: []string{"/usr", `/opt/we"ird\dir`}, Write: []string{"/Users/x/Deckhand"}, Network: false})
	for _, want := range []string{
		"(deny default)",
		"(allow file-read* process-exec\n  (subpath \"/usr\")\n  (subpath \"/opt/we\\\"ird\\\\dir\"))",
		"(allow file-read* file-write*\n  (subpath \"/Users/x/Deckhand\"))",
		"(allow signal (target same-sandbox))",
	} {
		if !strings.Contains(p, want) {
			t.Errorf("profile lacks %q:\n%s", want, p)
		}
	}
	if strings.Contains(p, "(allow network*)") {
		t.Errorf("network allowed with Network false:\n%s", p)
	}
	if on := Profile(&Spec{Network: true}); !strings.Contains(on, "(allow network*)") {
		t.Errorf("network not allowed with Network true:\n%s", on)
	}
	if got := sbplString("a\nb\x00"); got != `"a\x0ab\x00"` {
		t.Errorf("sbplString = %s", got)
	}
	if strings.Count(p, "(") != strings.Count(p, ")") {
		t.Errorf("unbalanced parentheses:\n%s", p)
	}
}

func FuzzProfile(f *testing.F) {
	f.Add("/a\"b", "/c\\d")
	f.Fuzz(func(t *testing.T, r, w string) {
		p := Profile(&Spec{Read: []string{r}, Write: []string{w}})
		// Every quote in the profile opens or closes a string: the path
		// cannot end its string early and inject a rule.
		inString, escaped, opened := false, false, 0
		for _, c := range p {
			switch {
			case escaped:
				escaped = false
			case c == '\\' && inString:
				escaped = true
			case c == '"':
				inString = !inString
				if inString {
					opened++
				}
			case c == '\n' && inString:
				t.Fatalf("a newline inside a string:\n%s", p)
			}
		}
		if inString || opened != 4 {
			t.Fatalf("%d strings, open at the end %v:\n%s", opened, inString, p)
		}
	})
}
