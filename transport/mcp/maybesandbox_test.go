package mcp

import "testing"

// A sandboxed server's stderr that says it could not find or open a file or
// module may be the sandbox's doing; other errors, and the same words from
// an unconfined server, are not.
func TestMayBeSandbox(t *testing.T) {
	tests := []struct {
		name      string
		stderr    string
		sandboxed bool
		want      bool
	}{
		{"node's package", "Error running script: Error [ERR_MODULE_NOT_FOUND]: Cannot find package '@modelcontextprotocol/sdk' imported from /x/node_modules/s/dist/stdio.js", true, true},
		{"node's require", "Error: Cannot find module '/srv/app/index.js'", true, true},
		{"node's errno", "Error: EACCES: permission denied, open '/srv/data.json'", true, true},
		{"the C library", "cat: /home/me/notes.txt: No such file or directory", true, true},
		{"python", "ModuleNotFoundError: No module named 'mcp'", true, true},
		{"the loader", "error while loading shared libraries: libfoo.so.1: cannot open shared object file", true, true},
		{"unconfined", "cat: /home/me/notes.txt: No such file or directory", false, false},
		{"a refused system call", "bwrap: Creating new namespace failed: Operation not permitted", true, false},
		{"another error", "Error: unknown flag --bogus", true, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := &ExitError{Command: "/usr/bin/x", Status: "exit status 1", Stderr: tc.stderr, Sandboxed: tc.sandboxed}
			if got := e.MayBeSandbox(); got != tc.want {
				t.Errorf("(%q, sandboxed %v).MayBeSandbox() = %v, want %v", tc.stderr, tc.sandboxed, got, tc.want)
			}
		})
	}
}
