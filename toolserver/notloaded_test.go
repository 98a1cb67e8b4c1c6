package toolserver

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The definitions the server leaves out are listed with file, key and
// reason: a file that is not JSON, one that breaks the format, and a tool
// whose program is not installed.
func TestNotLoaded(t *testing.T) {
	dir := t.TempDir()
	for name, doc := range map[string]string{
		"today.json": `{"name": "today", "description": "d", "command": "date",}`,
		"shell.json": `{"name": "sh", "description": "d", "command": "bash", "args": ["-c"], "positional_args": [{"name": "s", "type": "string", "required": true}]}`,
		"frob.json":  `{"name": "frob", "description": "d", "command": "frobnicator-not-installed"}`,
		"good.json":  `{"name": "good", "description": "d", "command": "true"}`,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s, err := New(Options{Dir: dir, Scope: t.TempDir(), NoBuiltin: true, NoSandbox: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var got []string
	for _, n := range s.NotLoaded() {
		got = append(got, n.Tool+" | "+n.String())
	}
	want := []string{
		"shell | " + filepath.Join(dir, "shell.json") + `: key "command": bash is a shell: say "shell": true to offer a tool that runs the model's scripts`,
		"today | " + filepath.Join(dir, "today.json") + `: not JSON: line 1, column 58: invalid character '}' looking for beginning of object key string`,
		"frob | " + filepath.Join(dir, "frob.json") + ": frobnicator-not-installed is not installed (not found in PATH)",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("NotLoaded() (-want +got):\n%s", diff)
	}
}
