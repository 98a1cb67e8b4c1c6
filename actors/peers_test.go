package actors

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"deckhand/actors/servers"
	"deckhand/config"
	"deckhand/testutil"
	"deckhand/tools"
)

// server-everything over stdio, streamable HTTP and legacy SSE, through the
// same actors the app uses.
func TestServerEverything(t *testing.T) {
	p := testutil.RequirePeers(t)
	httpPort := testutil.StartHTTPPeer(t, p.Node, p.Everything, "streamableHttp")
	ssePort := testutil.StartHTTPPeer(t, p.Node, p.Everything, "sse")
	tests := []struct {
		name      string
		server    config.Server
		transport string
	}{
		{"stdio", config.Server{Command: p.Node, Args: []string{p.Everything, "stdio"}}, "stdio"},
		{"streamable", config.Server{URL: fmt.Sprintf("http://127.0.0.1:%d/mcp", httpPort), Transport: "streamable"}, "streamable"},
		{"sse", config.Server{URL: fmt.Sprintf("http://127.0.0.1:%d/sse", ssePort), Transport: "sse"}, "sse"},
		{"auto finds sse", config.Server{URL: fmt.Sprintf("http://127.0.0.1:%d/sse", ssePort)}, "sse"},
		{"auto finds streamable", config.Server{URL: fmt.Sprintf("http://127.0.0.1:%d/mcp", httpPort)}, "streamable"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sys := start(t, map[string]config.Server{"ev": tt.server})
			st := statuses(t, sys, true)["ev"]
			if st.State != servers.StateReady || st.Transport != tt.transport || st.Tools < 13 || st.ServerName != "mcp-servers/everything" {
				t.Fatalf("status = %+v, want ready over %s with at least 13 tools", st, tt.transport)
			}
			checks := []struct {
				tool, args, want string
			}{
				{"ev.echo", `{"message": "hi there"}`, "Echo: hi there"},
				{"ev.get-sum", `{"a": 2, "b": 40}`, "42"},
				{"ev.get-tiny-image", `{}`, "[image: image/png"},
				{"ev.get-resource-links", `{"count": 2}`, "[resource link:"},
			}
			for _, c := range checks {
				if got := text(t, call(t, sys, c.tool, c.args)); !strings.Contains(got, c.want) {
					t.Errorf("%s = %q, want it to contain %q", c.tool, got, c.want)
				}
			}
			res := call(t, sys, "ev.get-structured-content", `{"location": "New York"}`)
			if res.Err != nil || res.Result.StructuredContent == nil {
				t.Errorf("get-structured-content = %+v, want structured content", res)
			}

			progress := make(chan *servers.ToolProgress, 10)
			ctx, cancel := context.WithTimeout(t.Context(), wait)
			defer cancel()
			lr, err := sys.CallTool(ctx, "ev.trigger-long-running-operation", json.RawMessage(`{"duration": 1, "steps": 2}`), func(p *servers.ToolProgress) { progress <- p })
			if err != nil || lr.Err != nil {
				t.Fatalf("trigger-long-running-operation = %v, %v", err, lr.Err)
			}
			if p := testutil.Receive(t, progress, wait, "progress"); p.Progress.Total != 2 {
				t.Errorf("progress = %+v, want a total of 2", p.Progress)
			}
		})
	}
}

func TestServerFilesystem(t *testing.T) {
	p := testutil.RequirePeers(t)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "hello.txt"), []byte("hello from the disk\n"), 0o644)
	// The folder is the server's to write: it runs sandboxed, and is told
	// its roots (server-filesystem serves those, not its arguments).
	sys := start(t, map[string]config.Server{"fs": {Command: p.Node, Args: []string{p.Filesystem, dir}, Write: []string{dir}}})
	st := statuses(t, sys, true)["fs"]
	if st.State != servers.StateReady || st.Tools < 10 {
		t.Fatalf("status = %+v", st)
	}
	args := func(v map[string]any) string { b, _ := json.Marshal(v); return string(b) }
	hello := filepath.Join(dir, "hello.txt")
	if got := text(t, call(t, sys, "fs.read_text_file", args(map[string]any{"path": hello}))); got != "hello from the disk\n" {
		t.Errorf("read_text_file = %q", got)
	}
	if got := text(t, call(t, sys, "fs.list_directory", args(map[string]any{"path": dir}))); !strings.Contains(got, "[FILE] hello.txt") {
		t.Errorf("list_directory = %q", got)
	}
	written := filepath.Join(dir, "new.txt")
	call(t, sys, "fs.write_file", args(map[string]any{"path": written, "content": "written by deckhand"}))
	if data, _ := os.ReadFile(written); string(data) != "written by deckhand" {
		t.Errorf("write_file left %q on disk", data)
	}
	outside := call(t, sys, "fs.read_text_file", args(map[string]any{"path": "/etc/hostname"}))
	if outside.Err != nil || !outside.Result.IsError || !strings.Contains(tools.RenderResult(outside.Result), "Access denied") {
		t.Errorf("reading outside the root = %+v, want an isError result saying access denied", outside)
	}
	ctx, cancel := context.WithTimeout(t.Context(), wait)
	defer cancel()
	cat, err := sys.Catalog(ctx)
	if err != nil {
		t.Fatal(err)
	}
	read, _ := cat.Lookup("fs.read_text_file")
	write, _ := cat.Lookup("fs.write_file")
	if a := read.Def.Annotations; a == nil || !a.ReadOnlyHint {
		t.Errorf("read_text_file annotations = %+v, want readOnlyHint", a)
	}
	if a := write.Def.Annotations; a == nil || a.ReadOnlyHint || a.DestructiveHint == nil || !*a.DestructiveHint {
		t.Errorf("write_file annotations = %+v, want destructive", a)
	}
}

// The reference servers launched the way people launch them, with npx,
// run sandboxed and work: memory keeps a graph, everything echoes, and
// filesystem serves the workspace (its roots) and nothing else. npx finds
// the packages installed under testutil/ (the server's cwd), so no
// download is needed.
func TestNpxServersSandboxed(t *testing.T) {
	testutil.RequirePeers(t)
	npx, err := exec.LookPath("npx")
	if err != nil {
		t.Skip("no npx")
	}
	dir := filepath.Join(testutil.ModuleRoot(t), "testutil")
	home, _ := os.UserHomeDir()
	ws := filepath.Join(home, "Deckhand")
	sys := start(t, map[string]config.Server{
		"mem":   {Command: npx, Args: []string{"--no-install", "mcp-server-memory"}, Cwd: dir, Env: map[string]string{"MEMORY_FILE_PATH": filepath.Join(ws, "memory.jsonl")}},
		"every": {Command: npx, Args: []string{"--no-install", "mcp-server-everything"}, Cwd: dir},
		"fs":    {Command: npx, Args: []string{"--no-install", "mcp-server-filesystem", ws}, Cwd: dir},
	})
	for alias, st := range statuses(t, sys, true) {
		if st.State != servers.StateReady {
			t.Fatalf("%s: %+v", alias, st)
		}
	}
	args := func(v any) string { b, _ := json.Marshal(v); return string(b) }
	call(t, sys, "mem.create_entities", args(map[string]any{"entities": []any{map[string]any{"name": "deckhand", "entityType": "app", "observations": []string{"sandboxed"}}}}))
	if got := text(t, call(t, sys, "mem.read_graph", "{}")); !strings.Contains(got, "sandboxed") {
		t.Errorf("memory read_graph = %q", got)
	}
	if got := text(t, call(t, sys, "every.echo", args(map[string]any{"message": "hi"}))); got != "Echo: hi" {
		t.Errorf("everything echo = %q", got)
	}
	note := filepath.Join(ws, "note.txt")
	call(t, sys, "fs.write_file", args(map[string]any{"path": note, "content": "from npx"}))
	if data, _ := os.ReadFile(note); string(data) != "from npx" {
		t.Errorf("filesystem write_file left %q", data)
	}
	outside := call(t, sys, "fs.read_text_file", args(map[string]any{"path": filepath.Join(home, ".bashrc")}))
	if outside.Err == nil && !outside.Result.IsError {
		t.Errorf("filesystem read outside the workspace: %s", text(t, outside))
	}
}
