package servers

import (
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestExpandTemplate(t *testing.T) {
	for _, tc := range []struct {
		tmpl string
		vals map[string]string
		want string
	}{
		{"demo://a/{id}", map[string]string{"id": "a b"}, "demo://a/a%20b"},
		{"file:///{+path}", map[string]string{"path": "x/y z"}, "file:///x/y%20z"},
		{"x://s{?q,n}", map[string]string{"q": "a&b", "n": "2"}, "x://s?q=a%26b&n=2"},
		{"x://s{/a,b}", map[string]string{"a": "1", "b": "2"}, "x://s/1/2"},
		// What the hand-written expander got wrong: a prefix, path
		// parameters, a fragment's spaces, a form continuation's name.
		{"x://s/{id:3}", map[string]string{"id": "abcdef"}, "x://s/abc"},
		{"x://s{;a,b}", map[string]string{"a": "1", "b": "2"}, "x://s;a=1;b=2"},
		{"x://s{#f}", map[string]string{"f": "a b/c"}, "x://s#a%20b/c"},
		{"x://s?x=1{&q}", map[string]string{"q": "a b"}, "x://s?x=1&q=a%20b"},
		// Beyond ASCII, as UTF-8 (uritemplate alone would say %E9).
		{"x://s/{a}{/b}", map[string]string{"a": "é", "b": "a/b"}, "x://s/%C3%A9/a%2Fb"},
		{"x://s{?q}{#f}", map[string]string{"q": "café 😀", "f": "Zq"}, "x://s?q=caf%C3%A9%20%F0%9F%98%80#Zq"},
	} {
		got, err := expandTemplate(tc.tmpl, tc.vals)
		if err != nil || got != tc.want {
			t.Errorf("expandTemplate(%q) = %q, %v; want %q", tc.tmpl, got, err, tc.want)
		}
	}
	if _, err := expandTemplate("x://{a}", nil); err == nil {
		t.Error("a missing value expanded")
	}
	if _, err := expandTemplate("x://{a:2}", map[string]string{"a": "éé"}); err == nil {
		t.Error("a prefix of a value beyond ASCII expanded")
	}
	if _, err := expandTemplate("x://{a", map[string]string{"a": "1"}); err == nil {
		t.Error("an unclosed expression expanded")
	}
	if got := templateVars("x://{a}/{+b}{?c,d}"); strings.Join(got, ",") != "a,b,c,d" {
		t.Errorf("templateVars = %v", got)
	}
}

// A server's template and the person's values never panic the expander,
// and what it makes of text beyond ASCII is that text, in UTF-8.
func FuzzExpandTemplate(f *testing.F) {
	f.Add("demo://a/{id}", "a b")
	f.Add("x://s{?q,n}{#f}", "café")
	f.Add("x://{+p}{/q*}{;r:3}", "Zq1Zq")
	f.Fuzz(func(t *testing.T, tmpl, v string) {
		got, err := expandTemplate(tmpl, map[string]string{"id": v, "q": v, "n": v, "f": v, "p": v, "r": v})
		if err != nil || !utf8.ValidString(v) || !utf8.ValidString(tmpl) || strings.Contains(tmpl, "%") {
			return // the template's own escapes are the server's
		}
		if u, err := url.PathUnescape(got); err == nil && !utf8.ValidString(u) {
			t.Errorf("expandTemplate(%q, %q) = %q: not UTF-8 once decoded", tmpl, v, got)
		}
	})
}
