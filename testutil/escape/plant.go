package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The plant tools leave something in a folder the server may write for
// Deckhand to meet later, outside the sandbox:
//   - plant_link makes link a symbolic link to target (what was there is
//     moved aside to link.old): a folder every server reads (~/.cargo/bin)
//     made a link to a hidden or ungranted one (~/.ssh, ~), which the
//     next sandbox would show;
//   - replace_binary removes the file at path (Deckhand's own binary,
//     which the running one only keeps from being written in place) and
//     puts there a script that appends "ran unconfined" to marker, a file
//     the server itself cannot reach;
//   - late_sockets waits, then connects to every socket it finds in dir:
//     sockets made after the sandbox was built (an agent started later)
//     are not covered.
type plantArgs struct {
	Link   string `json:"link,omitempty"`
	Target string `json:"target,omitempty"`
	Path   string `json:"path,omitempty"`
	Marker string `json:"marker,omitempty"`
	Dir    string `json:"dir,omitempty"`
	WaitMS int    `json:"wait_ms,omitempty"`
}

func addPlantTools(s *sdk.Server) {
	reply := func(f finding) (*sdk.CallToolResult, any, error) {
		out, _ := json.Marshal(map[string]finding{"plant": f})
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: string(out)}}}, nil, nil
	}
	sdk.AddTool(s, &sdk.Tool{Name: "plant_link", Description: "Makes a symbolic link."},
		func(ctx context.Context, req *sdk.CallToolRequest, a plantArgs) (*sdk.CallToolResult, any, error) {
			if _, err := os.Lstat(a.Link); err == nil {
				if err := os.Rename(a.Link, a.Link+".old"); err != nil {
					return reply(finding{Detail: "moving aside: " + err.Error()})
				}
			}
			if err := os.Symlink(a.Target, a.Link); err != nil {
				return reply(finding{Detail: "symlink: " + err.Error()})
			}
			return reply(finding{Detail: fmt.Sprintf("%s now links to %s (an escape if the next sandbox shows it)", a.Link, a.Target)})
		})
	sdk.AddTool(s, &sdk.Tool{Name: "replace_binary", Description: "Puts a program of its own where a binary was."},
		func(ctx context.Context, req *sdk.CallToolRequest, a plantArgs) (*sdk.CallToolResult, any, error) {
			if err := os.Remove(a.Path); err != nil {
				return reply(finding{Detail: "remove: " + err.Error()})
			}
			script := fmt.Sprintf("#!/bin/sh\necho \"ran unconfined as $(id -un)\" >> %q\n", a.Marker)
			if err := os.WriteFile(a.Path, []byte(script), 0o755); err != nil {
				return reply(finding{Detail: "write: " + err.Error()})
			}
			return reply(finding{Detail: "replaced " + a.Path + " (an escape if the marker appears)"})
		})
	sdk.AddTool(s, &sdk.Tool{Name: "late_sockets", Description: "Waits, then connects to the sockets in a folder."},
		func(ctx context.Context, req *sdk.CallToolRequest, a plantArgs) (*sdk.CallToolResult, any, error) {
			select {
			case <-time.After(time.Duration(a.WaitMS) * time.Millisecond):
			case <-ctx.Done():
			}
			var reached, tried []string
			filepath.WalkDir(a.Dir, func(p string, d os.DirEntry, err error) error {
				if err != nil {
					return nil
				}
				if d.IsDir() && strings.Count(p, "/") > strings.Count(a.Dir, "/")+3 {
					return filepath.SkipDir
				}
				if d.Type()&os.ModeSocket == 0 {
					return nil
				}
				c, err := net.DialTimeout("unix", p, 2*time.Second)
				if err != nil {
					tried = append(tried, p+": "+err.Error())
					return nil
				}
				c.Close()
				reached = append(reached, p)
				return nil
			})
			if len(reached) == 0 {
				return reply(finding{Detail: fmt.Sprintf("no socket reached in %s (%s)", a.Dir, strings.Join(tried, "; "))})
			}
			return reply(finding{Escaped: true, Detail: "reached " + strings.Join(reached, ", ")})
		})
}
