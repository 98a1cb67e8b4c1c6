package toolserver

import (
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// argvTool is TestArgv's definition, with a path and a stdin argument.
const argvTool = `{"name": "x", "command": "/usr/bin/prog", "args": ["--fixed"], "description": "d",
	"options": [{"name": "tag", "type": "array", "flag": "-t"}, {"name": "n", "type": "integer", "flag": "-n", "joined": true},
		{"name": "v", "type": "boolean", "flag": "-v"}, {"name": "ratio", "type": "number"},
		{"name": "file", "type": "string", "format": "path", "flag": "-f"}],
	"positional_args": [{"name": "rev", "type": "string"}, {"name": "files", "type": "array", "end_of_options": true}]}`

// splitShell reads a command line as displayCommand writes it: words
// between spaces, single-quoted parts taken as they are, a backslash
// escaping the next character (how shellQuote writes a quote).
func splitShell(s string) ([]string, bool) {
	var words []string
	var w strings.Builder
	in, started := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case in && c == '\'':
			in = false
		case in:
			w.WriteByte(c)
		case c == '\'':
			in, started = true, true
		case c == '\\' && i+1 < len(s):
			i++
			w.WriteByte(s[i])
			started = true
		case c == ' ':
			if started {
				words = append(words, w.String())
			}
			w.Reset()
			started = false
		default:
			w.WriteByte(c)
			started = true
		}
	}
	if in {
		return nil, false
	}
	if started {
		words = append(words, w.String())
	}
	return words, true
}

// FuzzArgv: a client's arguments are untrusted. Building the command line
// never panics; what it builds has no NUL, shows as the very argv it runs
// (the display, read back as a shell would, is the program and argv), never
// lets a positional value pass for an option before "--", and gives a
// whole number as the number it is.
func FuzzArgv(f *testing.F) {
	f.Add([]byte(`{"tag": ["a b", "c;rm -rf /"], "n": 3, "v": true, "ratio": 0.5, "rev": "HEAD", "files": ["-x", "$(id)"], "working_directory": ".", "timeout_seconds": 5}`))
	f.Add([]byte(`{"rev": "-rf", "files": []}`))
	f.Add([]byte(`{"n": 1e19, "ratio": -1e-300}`))
	f.Add([]byte(`{"file": "../etc/passwd"}`))
	f.Add([]byte(`{"tag": ["it's", "\"q\"", "a\\b", "\n"], "file": "sub/x", "rev": "a'b"}`))
	f.Add([]byte(`{"n": -9007199254740993, "timeout_seconds": 1e30, "working_directory": "/"}`))
	_, tools, err := Parse("t.json", []byte(argvTool))
	if err != nil {
		f.Fatal(err)
	}
	tool := tools[0]
	scope := f.TempDir()
	f.Fuzz(func(t *testing.T, raw []byte) {
		args, err := tool.callArgs(raw)
		if err != nil {
			return
		}
		call, err := tool.prepare(args, scope, 1024)
		if rev, _ := args["rev"].(string); strings.HasPrefix(rev, "-") && err == nil {
			t.Fatalf("rev %q, before \"--\", was passed: %q", rev, call.Job.Args)
		}
		if err != nil {
			return
		}
		for _, a := range call.Job.Args {
			if strings.ContainsRune(a, 0) {
				t.Fatalf("NUL in argv %q", call.Job.Args)
			}
		}
		words, ok := splitShell(call.Display)
		want := append([]string{filepath.Base(tool.Command)}, call.Job.Args...)
		if !ok || strings.Join(words, "\x00") != strings.Join(want, "\x00") {
			t.Fatalf("displayed as %s, which reads as %q; runs %q", call.Display, words, want)
		}
		if n, ok := args["n"].(float64); ok {
			i := strings.Index(strings.Join(call.Job.Args, "\x00"), "\x00-n=")
			got := strings.SplitN(strings.Join(call.Job.Args, "\x00")[i+4:], "\x00", 2)[0]
			if x, err := strconv.ParseFloat(got, 64); err != nil || x != n || math.IsInf(x, 0) {
				t.Fatalf("n = %v passed as -n=%s", n, got)
			}
		}
	})
}
