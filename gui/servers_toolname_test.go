package gui

import (
	"context"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/gui/guitest"
)

// The Tools page's heading, the tool's name in large type, wraps after
// its separators in a narrow window, never inside a word.
func TestServersToolNameBreaksAtSeparators(t *testing.T) {
	srv := sdk.NewServer(&sdk.Implementation{Name: "basic", Version: "1"}, nil)
	sdk.AddTool(srv, &sdk.Tool{Name: "trigger-long-running-operation-with-progress-notifications", Description: "d"},
		func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{}, nil, nil
		})
	h := newHarness(t, harnessOptions{inProcess: map[string]*sdk.Server{"basic-vanillajs": srv}})
	h.ui.win.Resize(fyne.NewSize(640, 480))
	h.until("the tool", func() bool {
		return h.ui.catalog != nil && hasTool(h, "basic-vanillajs.trigger-long-running-operation-with-progress-notifications")
	})
	h.ui.showServers()
	sw := h.ui.serversW
	sw.ShowTools("basic-vanillajs")
	tw := sw.Tools
	h.until("the listing", func() bool { return tw.Loaded && len(tw.List) > 0 })
	tw.ToolList.Select(0)
	name := "basic-vanillajs.trigger-long-running-operation-with-progress-notifications"
	var lines []string
	guitest.Walk(tw.Detail, func(o fyne.CanvasObject) {
		if tx, ok := o.(*canvas.Text); ok {
			if l := strings.TrimSpace(strings.ReplaceAll(tx.Text, "\u200a", "")); l != "" && strings.Contains(name, l) && len(strings.Join(lines, "")) < len(name) {
				lines = append(lines, l)
			}
		}
	})
	if strings.Join(lines, "") != name {
		t.Fatalf("the heading reads %q", lines)
	}
	if len(lines) < 2 {
		t.Fatalf("the heading did not wrap at 640: %q", lines)
	}
	for _, l := range lines[:len(lines)-1] {
		if !strings.ContainsAny(l[len(l)-1:], ".-_") {
			t.Errorf("the heading breaks inside a word: %q", lines)
			break
		}
	}
}
