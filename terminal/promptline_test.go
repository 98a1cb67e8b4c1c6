package terminal

import (
	"maps"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/google/go-cmp/cmp"
)

// promptLine writes a /alias.prompt line that parsePromptLine reads back:
// a value with blanks in it, starting with a quote, or empty is quoted.
func promptLine(alias, name string, args map[string]string) string {
	var b strings.Builder
	b.WriteString("/" + alias + "." + name)
	for _, k := range slices.Sorted(maps.Keys(args)) {
		v := args[k]
		if v == "" || strings.HasPrefix(v, `"`) || strings.IndexFunc(v, unicode.IsSpace) >= 0 {
			v = `"` + v + `"`
		}
		b.WriteString(" " + k + "=" + v)
	}
	return b.String()
}

// FuzzParsePromptLine: what a person types after / in deckhand chat.
// parsePromptLine never panics; what it reads names a server and a prompt,
// its names are free of blanks (a tab separates as a space does),
// its arguments are NAME=VALUE, and the line
// written back from what it read reads the same.
func FuzzParsePromptLine(f *testing.F) {
	for _, s := range []string{
		"/ev.simple-prompt", "/ev.args-prompt", `/ev.args-prompt city=Oslo state="Not a state"`,
		"/ev.resource-prompt resourceType=Text resourceId=5", `/a.b k="unclosed`, "/a.b =x", "/.b", "/a.", "/a.b k= j=2",
		"/a.b\tk=v", `/a.b k="x` + "\t" + `"`, `/a.b k="a"b=c`, "/a.b k=v\u00a0", "/a.b.c x=\"\"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		alias, name, args, err := parsePromptLine(line)
		if err != nil {
			return
		}
		blank := func(s string) bool { return strings.IndexFunc(s, unicode.IsSpace) >= 0 }
		if alias == "" || name == "" || strings.Contains(alias, ".") || blank(alias) || blank(name) {
			t.Fatalf("parsePromptLine(%q) = alias %q, prompt %q", line, alias, name)
		}
		for k := range args {
			if k == "" || blank(k) || strings.Contains(k, "=") {
				t.Fatalf("parsePromptLine(%q): argument name %q", line, k)
			}
		}
		again := promptLine(alias, name, args)
		alias2, name2, args2, err := parsePromptLine(again)
		if err != nil || alias2 != alias || name2 != name || !cmp.Equal(args, args2) {
			t.Fatalf("parsePromptLine(%q) = %q %q %q; written back as %q it reads %q %q %q, %v",
				line, alias, name, args, again, alias2, name2, args2, err)
		}
	})
}
