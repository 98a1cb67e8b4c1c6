package apps_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/apps"
	"deckhand/testutil"
)

// realHost is a scripted person: every tool call the view makes is shown
// to it (calls) and allowed when allow says so, then run on the real
// server; proposals and links are recorded and declined.
type realHost struct {
	session  *sdk.ClientSession
	calls    chan string
	allow    chan bool
	proposed chan string
	links    chan string
}

func (h *realHost) CallTool(ctx context.Context, name string, args json.RawMessage) (*sdk.CallToolResult, error) {
	h.calls <- name
	select {
	case ok := <-h.allow:
		if !ok {
			return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: "Denied by the person"}}}, nil
		}
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return h.session.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
}

func (h *realHost) Propose(ctx context.Context, text string) (bool, error) {
	h.proposed <- text
	return false, nil
}

func (h *realHost) OpenLink(ctx context.Context, url string) (bool, error) {
	h.links <- url
	return false, nil
}

// TestRealViewBasicVanilla: the view of @modelcontextprotocol/server-basic-
// vanillajs renders in the helper's window under Xvfb, is told the tool's
// result, and its "Get Server Time" button calls get-time, which reaches
// the approval; once allowed, the view shows the new time. Its other
// buttons propose a message and ask to open a link. Screenshots are kept
// in $DECKHAND_SHOTS when set.
func TestRealViewBasicVanilla(t *testing.T) {
	peers := testutil.RequirePeers(t)
	server := filepath.Join(testutil.ModuleRoot(t), "testutil", "node_modules", "@modelcontextprotocol", "server-basic-vanillajs", "dist", "index.js")
	if _, err := os.Stat(server); err != nil {
		t.Skipf("npm peer missing: %s (run make setup)", server)
	}
	for _, tool := range []string{"xdotool", "import"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed", tool)
		}
	}
	display := testutil.Xvfb(t, "1024x768")
	helper := testutil.BuildProgram(t, "./cmd/deckhand-view")
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()

	client := sdk.NewClient(&sdk.Implementation{Name: "deckhand-test"}, nil)
	cs, err := client.Connect(ctx, &sdk.CommandTransport{Command: exec.Command(peers.Node22, server, "--stdio")}, nil)
	if err != nil {
		t.Fatalf("connecting to server-basic-vanillajs: %v", err)
	}
	defer cs.Close()
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var def *sdk.Tool
	for _, tl := range list.Tools {
		if tl.Name == "get-time" {
			def = tl
		}
	}
	uri := apps.ResourceURI(def)
	if uri == "" {
		t.Fatalf("ResourceURI(get-time) = \"\", want its ui:// view (definition %+v)", def)
	}
	read, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: uri})
	if err != nil {
		t.Fatal(err)
	}
	view, err := apps.ReadView(uri, read.Contents)
	if err != nil {
		t.Fatal(err)
	}
	first, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "get-time", Arguments: map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}

	host := &realHost{session: cs, calls: make(chan string, 4), allow: make(chan bool, 1), proposed: make(chan string, 4), links: make(chan string, 4)}
	t.Setenv("DISPLAY", display)
	win, err := apps.Open(ctx, helper, apps.Config{Server: "basic", Tool: "get-time", Definition: def, View: view,
		Input: json.RawMessage(`{}`), Context: apps.HostContext{Width: 600, Height: 560}}, host, 0, false)
	if err != nil {
		t.Fatal(err)
	}
	win.SetResult(first)
	defer func() {
		win.Close()
		<-win.Done()
	}()

	wid := waitWindow(t, display, "basic.get-time")
	testutil.Receive(t, win.Initialized(), 60*time.Second, "the view's initialization")
	firstTime := first.StructuredContent.(map[string]any)["time"].(string)
	before := stableShot(t, display, wid, "app-view-result.png")

	// The button: the first thing Tab reaches.
	xdo(t, display, "windowfocus", "--sync", wid)
	xdo(t, display, "key", "--window", wid, "Tab", "space")
	if got := testutil.Receive(t, host.calls, 30*time.Second, "the view's tool call"); got != "get-time" {
		t.Fatalf("the view called %q, want get-time", got)
	}
	host.allow <- true
	testutil.Eventually(t, 30*time.Second, func() bool {
		return shotDiffers(t, display, wid, before)
	}, "the view never showed the new result (it showed %s)", firstTime)
	shot(t, display, wid, "app-view-called.png")

	// Send Message: Tab to the text, Tab to its button.
	xdo(t, display, "key", "--window", wid, "Tab", "Tab", "space")
	if got := testutil.Receive(t, host.proposed, 30*time.Second, "the view's proposed message"); got != "This is message text." {
		t.Errorf("proposed %q, want the view's text", got)
	}
	select {
	case <-win.Done():
		t.Fatalf("the view ended: %v", win.Err())
	default:
	}
}

func waitWindow(t *testing.T, display, title string) string {
	t.Helper()
	var wid string
	testutil.Eventually(t, 60*time.Second, func() bool {
		cmd := exec.Command("xdotool", "search", "--name", "^"+title+"$")
		cmd.Env = append(os.Environ(), "DISPLAY="+display)
		out, _ := cmd.Output()
		wid = strings.TrimSpace(strings.Split(string(out), "\n")[0])
		return wid != ""
	}, "no window titled %s", title)
	return wid
}

func xdo(t *testing.T, display string, args ...string) {
	t.Helper()
	cmd := exec.Command("xdotool", args...)
	cmd.Env = append(os.Environ(), "DISPLAY="+display)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("xdotool %v: %v: %s", args, err, out)
	}
}

// shot captures the window as PNG bytes, kept under $DECKHAND_SHOTS/name
// when that is set.
func shot(t *testing.T, display, wid, name string) []byte {
	t.Helper()
	cmd := exec.Command("import", "-window", wid, "png:-")
	cmd.Env = append(os.Environ(), "DISPLAY="+display)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("import: %v", err)
	}
	if dir := os.Getenv("DECKHAND_SHOTS"); dir != "" && name != "" {
		os.WriteFile(filepath.Join(dir, name), out, 0o644)
	}
	return out
}

// stableShot waits until the window's picture stops changing (the
// result drawn) and returns it.
func stableShot(t *testing.T, display, wid, name string) []byte {
	t.Helper()
	var last []byte
	testutil.Eventually(t, 30*time.Second, func() bool {
		cur := shot(t, display, wid, name)
		same := string(cur) == string(last)
		last = cur
		return same
	}, "the view kept changing")
	return last
}

// shotDiffers reports whether the line of the server's time (the view's
// layout at 600 pixels wide) differs from what before showed there: the
// button's focus ring, also new, is outside it.
func shotDiffers(t *testing.T, display, wid string, before []byte) bool {
	return string(timeLine(t, shot(t, display, wid, ""))) != string(timeLine(t, before))
}

func timeLine(t *testing.T, png []byte) []byte {
	t.Helper()
	cmd := exec.Command("convert", "png:-", "-crop", "440x24+120+72", "+repage", "png:-")
	cmd.Stdin = strings.NewReader(string(png))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("convert: %v", err)
	}
	return out
}
