package servers

import (
	"testing"

	"github.com/yosida95/uritemplate/v3"
)

// FuzzTemplateMatches: templates and URIs come from servers and people,
// untrusted. TemplateMatches never panics; a URI a template expands to
// matches it, and a template without variables matches its own text.
func FuzzTemplateMatches(f *testing.F) {
	// TestTemplateMatches's cases, and server-everything's templates.
	for _, c := range [][2]string{
		{"demo://a/{id}", "demo://a/7"}, {"demo://a/{id}", "demo://a/7/8"}, {"file:///{path}.txt", "file:///x.txt"},
		{"file:///{+path}.txt", "file:///x/y.txt"}, {"x://{a}/b/{c}", "x://1/b/2/b/3"}, {"plain://uri", "plain://uri"},
		{"x://{a}{b}", "x://12"}, {"demo://search{?q,lang}", "demo://search?q=go&lang=en"}, {"demo://a{/id}", "demo://a/7"},
		{"demo://doc{#s}", "demo://doc#intro"}, {"x://}{a}", "x://}1"}, {"x://{a", "x://{a"},
		{"demo://resource/dynamic/text/{resourceId}", "demo://resource/dynamic/text/1"},
		{"x://{a:3}{;b*}{.c}{&d}", "x://abc;b=1.c&d=2"},
	} {
		f.Add(c[0], c[1], "v")
	}
	f.Fuzz(func(t *testing.T, tmpl, uri, value string) {
		TemplateMatches(tmpl, uri)
		parsed, err := uritemplate.New(tmpl)
		if err != nil {
			if TemplateMatches(tmpl, uri) {
				t.Fatalf("TemplateMatches(%q, %q) = true for a template that does not parse (%v)", tmpl, uri, err)
			}
			return
		}
		values := uritemplate.Values{}
		for _, name := range parsed.Varnames() {
			values.Set(name, uritemplate.String(value))
		}
		expanded, err := parsed.Expand(values)
		if err != nil {
			return
		}
		if !TemplateMatches(tmpl, expanded) {
			t.Fatalf("TemplateMatches(%q, %q) = false, but the template expands to it with %q", tmpl, expanded, value)
		}
	})
}
