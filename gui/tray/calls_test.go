package tray

import (
	"strings"
	"testing"
)

func TestArgSummary(t *testing.T) {
	t.Parallel()
	home := homeDir()
	if home == "" {
		t.Skip("no home folder")
	}
	for _, c := range []struct{ args, want string }{
		{``, ``},
		{`{}`, ``},
		{"{\n  \"path\": \"/tmp/notes.txt\",\n  \"text\": \"two\\nlines\"\n}", `path: "/tmp/notes.txt", text: "two lines"`},
		{`{"z": 1, "a": true, "m": null}`, `z: 1, a: true, m: null`}, // the model's order
		{`{"opts": {"deep": [1, 2, 3]}, "list": ["x", "y"]}`, `opts: {"deep":[1,2,3]}, list: ["x","y"]`},
		{`{"k": "` + strings.Repeat("a", 60) + `"}`, `k: "` + strings.Repeat("a", 39) + `…"`},
		{`{"a": "` + strings.Repeat("b", 35) + `", "c": "` + strings.Repeat("d", 35) + `", "e": "more"}`,
			`a: "` + strings.Repeat("b", 35) + `", c: "` + strings.Repeat("d", 35) + `", e: "m…`},
		{`{"esc": "\u001b[31mred\u001b[0m"}`, `esc: "red"`},
		{`{"path": "/srv/a/rather/long/folder/name/that/goes/on/and/on/notes.txt"}`, `path: "…lder/name/that/goes/on/and/on/notes.txt"`},
		{`{"path": "` + home + `/Deckhand/train.txt"}`, `path: "~/Deckhand/train.txt"`},
		{`[1, 2]`, `[1, 2]`}, // not an object: as it is
		{`not json at all`, `not json at all`},
	} {
		if got := argSummary(c.args, 90); got != c.want {
			t.Errorf("argSummary(%q) = %q; want %q", c.args, got, c.want)
		}
	}
}
