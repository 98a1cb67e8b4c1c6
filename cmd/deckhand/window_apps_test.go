package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"deckhand/gui"
	"deckhand/sandbox"
	"deckhand/testutil"
)

// basicAppServer is the config of server-basic-vanillajs as the server
// "app" (the test skips when the npm peer is missing).
func basicAppServer(t *testing.T) string {
	t.Helper()
	p := testutil.RequirePeers(t)
	server := filepath.Join(testutil.ModuleRoot(t), "testutil", "node_modules", "@modelcontextprotocol", "server-basic-vanillajs", "dist", "index.js")
	if _, err := os.Stat(server); err != nil {
		t.Skipf("npm peer missing: %s (run make setup)", server)
	}
	return fmt.Sprintf("[mcp.servers.app]\ncommand = %q\nargs = [%q, \"--stdio\"]\n", p.Node, server)
}

// openTimeView starts the window with server-basic-vanillajs and a model
// that calls its get-time (then answers with more), allows the call, and
// opens the card's view: the window, the view's X id and its first
// settled screenshot.
func openTimeView(t *testing.T, more ...testutil.ModelResponse) (w *realWindow, view string, shot []byte) {
	t.Helper()
	app := basicAppServer(t)
	viewHelperBeside(t)
	model := testutil.NewModelServer(t, append([]testutil.ModelResponse{
		{Body: testutil.ToolCallChunks(testutil.ToolCallSpec{ID: "a", Name: "app__get-time", Arguments: `{}`})},
		{Body: testutil.TextChunks("That is the server's time.")},
	}, more...)...)
	w = startRealWindow(t, scriptedConfig(model.URL, app), nil)
	w.waitServerReady()
	w.say("what time is it?")
	w.clickText("button", "Allow once")
	w.waitScreen("the card done, with its view", func(s gui.Screen) bool {
		return shows(s, "That is the server's time.") && shows(s, "Open view")
	})
	w.keep("app-card.png")
	w.clickText("button", "Open view")
	view = w.windowID("app.get-time")
	waitViewConnected(t, w, view)
	return w, view, stableWindowShot(t, w, view)
}

// waitViewConnected waits until the view of window wid has connected to
// Deckhand, which the view's window shows by its height: it opens at
// 640x600, and once connected the view reports its height (429 for
// server-basic-vanillajs's), to which Deckhand fits the window. Before
// that the window may be mapped and not drawn (its picture is then
// Deckhand's window beneath it, which a settled screenshot took for the
// view) or drawn before the page's script has run, and a click in it is
// lost: under load, TestWindowAppViewAfterRestart's click on Send Message
// in a view still 600 high never reached Deckhand, 1 run in 8.
func waitViewConnected(t *testing.T, w *realWindow, wid string) {
	t.Helper()
	var geometry string
	testutil.Eventually(t, 30*time.Second, func() bool {
		geometry = w.xdo("getwindowgeometry", "--shell", wid)
		for _, l := range strings.Split(geometry, "\n") {
			if h, ok := strings.CutPrefix(l, "HEIGHT="); ok {
				return h != "600"
			}
		}
		return false
	}, "the view never reported its height, so never connected; its window:\n%s", stringer(func() string { return geometry }))
}

// viewHelperBeside builds deckhand-view into the folder of the deckhand
// binary the tests run, where Deckhand looks for it (as make build puts
// it beside bin/deckhand).
func viewHelperBeside(t *testing.T) {
	t.Helper()
	testutil.BuildBeside(t, "./cmd/deckhand", "./cmd/deckhand-view")
}

// An MCP App in the window: server-basic-vanillajs's get-time names a
// view; its card offers Open view, which shows the real view in a window
// of its own (titled app.get-time); the view's Get Server Time button
// calls get-time, which reaches Deckhand's approval, saying it comes from
// the view; allowed, the view shows the server's new time. Its Send
// Message is shown to the person and sent only on Send; its Open Link is
// asked, and Cancel opens nothing.
func TestWindowAppView(t *testing.T) {
	w, view, before := openTimeView(t, testutil.ModelResponse{Body: testutil.TextChunks("Your view's message came through.")})
	// Get Server Time, in the view's layout at 640 pixels wide.
	w.xdo("windowactivate", "--sync", view)
	w.xdo("mousemove", "--window", view, "220", "122")
	w.xdo("click", "1")
	s := w.waitScreen("the view's call at the approval", func(s gui.Screen) bool {
		_, asked := find(s, "", "called from the view of app.get-time")
		_, allow := find(s, "button", "Allow once")
		return asked && allow
	})
	w.keep("app-view-approval.png")
	if !strings.Contains(s.ScreenText(), "get-time") {
		t.Errorf("the approval does not name the tool:\n%s", s.ScreenText())
	}
	w.clickText("button", "Allow once")
	// Allow once brought Deckhand in front: the view is brought back
	// before each look (a window's picture is what the screen shows).
	var after []byte
	testutil.Eventually(t, 30*time.Second, func() bool {
		w.xdo("windowactivate", "--sync", view)
		after = windowShot(t, w, view)
		return !bytes.Equal(timeLineOf(t, after), timeLineOf(t, before))
	}, "the view never showed the new time")
	if dir := os.Getenv("DECKHAND_SHOTS"); dir != "" {
		os.WriteFile(filepath.Join(dir, "app-view-before.png"), before, 0o644)
		os.WriteFile(filepath.Join(dir, "app-view-after.png"), after, 0o644)
	}

	// Send Message: the text the view proposes is shown first, and goes
	// to the chat only once the person presses Send.
	w.xdo("mousemove", "--window", view, "220", "229")
	w.xdo("click", "1")
	w.waitScreen("the proposed message", func(s gui.Screen) bool {
		_, asked := find(s, "", "The view of app.get-time proposes this message")
		_, send := find(s, "button", "Send")
		return asked && send && shows(s, "This is message text.")
	})
	w.keep("app-view-message.png")
	w.xdo("windowactivate", "--sync", w.win)
	s = w.screen()
	for _, it := range s.Items {
		if it.Visible && it.Kind == "button" && it.Text == "Send" && it.Y < 600 { // the dialog's, not the composer's
			w.click(it)
			break
		}
	}
	w.waitScreen("the view's message sent, and answered", func(s gui.Screen) bool {
		return shows(s, "Your view's message came through.")
	})

	// Open Link: asked, and Cancel opens nothing.
	w.xdo("windowactivate", "--sync", view)
	w.xdo("mousemove", "--window", view, "220", "405")
	w.xdo("click", "1")
	w.waitScreen("the link asked", func(s gui.Screen) bool {
		return shows(s, "asks to open this link in your browser") && shows(s, "https://modelcontextprotocol.io/")
	})
	w.xdo("windowactivate", "--sync", w.win)
	w.clickText("button", "Cancel")
	w.waitScreen("the link's question gone", func(s gui.Screen) bool { return !shows(s, "asks to open this link") })

	// The view dies with Deckhand, WebKit's processes with it.
	helper := viewHelper(t, w)
	w.cmd.Process.Kill()
	w.cmd.Wait()
	testutil.Eventually(t, 10*time.Second, func() bool { return testutil.ProcessGone(helper) && !groupAlive(helper) },
		"the view's processes outlived Deckhand")
}

// TestWindowAppViewClosesWithCtrlW: Ctrl+W in a view's window closes it
// as its ✕ does: the window and its helper gone, and the card still
// offers Open view. (Issue 29: only the ✕ closed it.)
func TestWindowAppViewClosesWithCtrlW(t *testing.T) {
	w, view, _ := openTimeView(t)
	helper := viewHelper(t, w)
	w.xdo("windowactivate", "--sync", view)
	w.key("ctrl+w")
	testutil.Eventually(t, 20*time.Second, func() bool {
		return firstField(w.xdo("search", "--name", "^app\\.get-time$")) == ""
	}, "the view's window is still open after Ctrl+W")
	testutil.Eventually(t, 20*time.Second, func() bool { return testutil.ProcessGone(helper) && !groupAlive(helper) },
		"the view's helper outlived its window")
	w.xdo("windowactivate", "--sync", w.win)
	w.waitScreen("the card, which offers its view again", func(s gui.Screen) bool { return shows(s, "Open view") })
	w.clickText("button", "Open view")
	waitViewConnected(t, w, w.windowID("app.get-time"))
}

// viewHelper is the process id of Deckhand's view helper (its window
// names the id it has in its own PID namespace, where Deckhand's sandbox
// confines it: not this one).
func viewHelper(t *testing.T, w *realWindow) int {
	t.Helper()
	var pid int
	testutil.Eventually(t, 10*time.Second, func() bool {
		for _, p := range testutil.Processes() {
			if p.Name == "deckhand-view" && p.PPID == w.cmd.Process.Pid {
				pid = p.PID
				return true
			}
		}
		return false
	}, "no view helper among Deckhand's processes")
	return pid
}

// groupAlive reports whether a process of group pgid is still running.
func groupAlive(pgid int) bool {
	return slices.ContainsFunc(testutil.Processes(), func(p testutil.Proc) bool { return p.PGID == pgid && p.State != "Z" })
}

func windowShot(t *testing.T, w *realWindow, wid string) []byte {
	t.Helper()
	out, err := tryWindowShot(w, wid)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// lastError prints the error it points to when a wait fails, not when
// the wait starts.
type lastError struct{ err *error }

func (l lastError) String() string { return fmt.Sprint(*l.err) }

// tryWindowShot takes a screenshot of window wid; it fails while the
// window is not yet mapped (import cannot read it), with import's words.
func tryWindowShot(w *realWindow, wid string) ([]byte, error) {
	cmd := exec.Command("import", "-window", wid, "png:-")
	cmd.Env = append(os.Environ(), "DISPLAY="+w.display)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("import -window %s: %v: %s", wid, err, bytes.TrimSpace(stderr.Bytes()))
	}
	return out, nil
}

func stableWindowShot(t *testing.T, w *realWindow, wid string) []byte {
	t.Helper()
	var last []byte
	var lastErr error
	testutil.Eventually(t, 30*time.Second, func() bool {
		cur, err := tryWindowShot(w, wid)
		if err != nil { // not mapped yet: the view's window is found before it is shown
			lastErr = err
			return false
		}
		same := bytes.Equal(cur, last)
		last = cur
		return same && !uniform(t, timeLineOf(t, cur))
	}, "the view was never drawn, or kept changing (last screenshot error: %v)", lastError{&lastErr})
	return last
}

// uniform reports whether a PNG is all one colour (not drawn yet).
func uniform(t *testing.T, data []byte) bool {
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("decoding a screenshot: %v", err)
	}
	b := img.Bounds()
	first := img.At(b.Min.X, b.Min.Y)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if img.At(x, y) != first {
				return false
			}
		}
	}
	return true
}

// timeLineOf is the line of the view showing the server's time (its
// layout at 640 pixels wide).
func timeLineOf(t *testing.T, png []byte) []byte {
	t.Helper()
	cmd := exec.Command("convert", "png:-", "-crop", "460x24+120+72", "+repage", "png:-")
	cmd.Stdin = bytes.NewReader(png)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("convert: %v", err)
	}
	return out
}

// The terminal cannot show a view: under the result of a tool that has
// one, deckhand chat says so and how to see it in the window; a tool
// without one gets no such line.
func TestChatSaysToolHasView(t *testing.T) {
	app := basicAppServer(t)
	model := testutil.NewModelServer(t,
		testutil.ModelResponse{Body: testutil.ToolCallChunks(testutil.ToolCallSpec{ID: "a", Name: "app__get-time", Arguments: `{}`})},
		testutil.ModelResponse{Body: testutil.TextChunks("That is the time.")},
	)
	cfg := writeConfig(t, scriptedConfig(model.URL, app))
	// The scripted model calls the app's tool in the first request: the
	// chat waits for the server to be ready (its default grace of 2 s is
	// too short for node on a loaded machine), as the other chat tests do.
	r := deckhand(t, nil, "", "--config", cfg, "chat", "-p", "what time is it?", "--approve=auto", "--wait", "60s")
	if r.code != exitOK {
		t.Fatalf("exit %d\nstderr:\n%s", r.code, r.stderr)
	}
	for _, want := range []string{"✓ app.get-time", "app.get-time has a view (an MCP App) that only the window shows", "Open view"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
}

// deckhand policy says how a tool's view is confined: in Deckhand's own
// sandbox, its network only the declared origins through the egress
// proxy, where the kernel allows one; else in WebKit's, where installed.
func TestPolicySaysHowViewsAreConfined(t *testing.T) {
	r := deckhand(t, nil, "", "--config", writeConfig(t, ""), "policy")
	if r.code != exitOK {
		t.Fatalf("exit %d: %s%s", r.code, r.stdout, r.stderr)
	}
	want := []string{"Tool views:", "Content-Security-Policy from the origins its resource declares", "no navigation"}
	_, bwrap := exec.LookPath("bwrap")
	switch {
	case sandbox.Available() == nil:
		want = append(want, "in Deckhand's sandbox", "egress proxy, which lets through exactly the origins (host and port) its resource declares", "no other file")
	case bwrap == nil:
		want = append(want, "WebKit's bubblewrap sandbox")
	default:
		want = append(want, "WebKit runs unconfined")
	}
	for _, w := range want {
		if !strings.Contains(r.stdout, w) {
			t.Errorf("policy output lacks %q:\n%s", w, r.stdout)
		}
	}
}

// A view that floods Deckhand with messages is stopped, a notice says
// why, and the chat goes on: the next message is answered.
func TestWindowHostileAppViewStopped(t *testing.T) {
	viewHelperBeside(t)
	model := testutil.NewModelServer(t,
		testutil.ModelResponse{Body: testutil.ToolCallChunks(testutil.ToolCallSpec{ID: "a", Name: "p__show", Arguments: `{}`})},
		testutil.ModelResponse{Body: testutil.TextChunks("Shown.")},
		testutil.ModelResponse{Body: testutil.TextChunks("Still here.")},
	)
	cfg := scriptedConfig(model.URL, fmt.Sprintf(`[mcp.servers.p]
command = %q
args = ["-app-view", "flood"]

[mcp.auto_approve]
"p.*" = true
`, stdioServerBin(t)))
	w := startRealWindow(t, cfg, nil)
	w.waitServerReady()
	w.say("show it")
	w.waitScreen("the card, with its view", func(s gui.Screen) bool { return shows(s, "Shown.") && shows(s, "Open view") })
	w.clickText("button", "Open view")
	// Which cap it meets first depends on how fast the helper passes
	// its messages on: either way, its flood.
	w.waitScreen("the notice", func(s gui.Screen) bool {
		return shows(s, "Deckhand closed the view of p.show: it sent more than 100 messages in a second") ||
			shows(s, "Deckhand closed the view of p.show: it sent messages faster than Deckhand reads them")
	})
	w.keep("app-view-stopped.png")
	w.xdo("windowactivate", "--sync", w.win)
	w.clickText("button", "OK")
	w.say("are you there?")
	w.waitScreen("the next answer", func(s gui.Screen) bool { return shows(s, "Still here.") })
}

// A view follows its card, with a server of our own whose view reports
// what it is told through note, a tool for the views only: note is not
// offered to the model, yet the view's calls of it run; the view is told
// the call's input, then that it was cancelled when the person presses
// Stop, then the theme the person switches to in the settings; and when
// the card's message is deleted (its run taken out of the chat), the
// view is closed, its processes ended.
func TestWindowAppViewFollowsItsCard(t *testing.T) {
	viewHelperBeside(t)
	notes := filepath.Join(t.TempDir(), "notes")
	model := testutil.NewModelServer(t,
		testutil.ModelResponse{Body: testutil.ToolCallChunks(testutil.ToolCallSpec{ID: "a", Name: "p__show", Arguments: `{"block":true}`})},
	)
	cfg := scriptedConfig(model.URL, fmt.Sprintf(`[mcp.servers.p]
command = %q
args = ["-app-view", "report", "-app-notes", %q]
write = [%q]

[mcp.auto_approve]
"p.*" = true
`, stdioServerBin(t), notes, filepath.Dir(notes)))
	noted := func(what string) bool {
		b, _ := os.ReadFile(notes)
		return strings.Contains(string(b), what)
	}
	w := startRealWindow(t, cfg, nil, withArgs("--log-level", "info"))
	w.waitServerReady()
	w.say("show it")
	w.waitScreen("the call running, with its view", func(s gui.Screen) bool {
		_, stop := find(s, "button", "Stop")
		return stop && shows(s, "Open view")
	})
	w.clickText("button", "Open view")
	w.windowID("p.show") // the view's window is up
	testutil.Eventually(t, 60*time.Second, func() bool {
		return noted(`{"method":"initialize","params":{"theme":`) && noted(`"method":"ui/notifications/tool-input","params":{"arguments":{"block":true}}`)
	}, "the view did not report its initialization and the call's input through note")
	// The theme it was told is the window's; the other is chosen below.
	// The options System, Light and Dark side by side, over the group's
	// least width (the rest of its row is empty).
	from, to, at := "light", "dark", themeDark
	if noted(`{"method":"initialize","params":{"theme":"dark"}}`) {
		from, to, at = "dark", "light", themeLight
	}
	var body struct {
		Tools []struct {
			Function struct{ Name string } `json:"function"`
		} `json:"tools"`
	}
	json.Unmarshal(model.Requests()[0], &body)
	for _, tl := range body.Tools {
		if tl.Function.Name == "p__note" {
			t.Errorf("the model was offered p__note, a tool for the views only")
		}
	}

	w.xdo("windowactivate", "--sync", w.win)
	w.clickText("button", "Stop")
	testutil.Eventually(t, 30*time.Second, func() bool { return noted(`"method":"ui/notifications/tool-cancelled"`) },
		"the view was not told its call was cancelled")

	w.xdo("windowactivate", "--sync", w.win)
	w.clickTheme(t, at)
	testutil.Eventually(t, 30*time.Second, func() bool {
		return noted(`{"method":"ui/notifications/host-context-changed","params":{"theme":"` + to + `"}}`)
	}, "the view, told %s at first, was not told the theme switched to %s", from, to)
	w.clickText("button", "Close")

	helper := viewHelper(t, w)
	// The message's Delete, the icon right of its Edit, above the cards
	// of the view's own calls (its notes).
	s := w.waitScreen("the view's notes in the chat", func(s gui.Screen) bool { return shows(s, "Called from the view of p.show") })
	card, _ := find(s, "", "Called from the view of p.show")
	s = w.wheelUpUntil("the message's Edit", card, func(s gui.Screen) bool { _, ok := find(s, "button", "Edit"); return ok })
	edit, _ := find(s, "button", "Edit")
	var del gui.ScreenItem
	for _, it := range s.Items {
		if it.Visible && it.Kind == "button" && it.Text == "" && it.X > edit.X && math.Abs(float64(it.CY-edit.CY)) < 4 && (del.X == 0 || it.X < del.X) {
			del = it
		}
	}
	if del.X == 0 {
		t.Fatalf("no Delete beside Edit:\n%s", s.ScreenText())
	}
	w.click(del)
	w.waitScreen("the question", func(s gui.Screen) bool { return shows(s, "Delete this message?") })
	w.clickText("button", "Delete")
	w.waitScreen("the message gone", func(s gui.Screen) bool { return !shows(s, "Open view") })
	testutil.Eventually(t, 20*time.Second, func() bool { return testutil.ProcessGone(helper) && !groupAlive(helper) },
		"the view of a card whose message was deleted is still open")
}

// A tool's view, what it asks and what it does, live and after a restart
// (found by the seventh new-user pass). The view's Send Message asks in
// the main window, which comes in front of the view's (the question
// waited unseen behind it: at 640x480 the view covers the screen). The
// view's own tool call shows in the chat, as a card that says the view
// made it, live and reopened from the log (it was only in the log).
func TestWindowAppViewAfterRestart(t *testing.T) {
	w, view, _ := openTimeView(t)

	// Send Message, pressed in the view, which is in front: the
	// question comes in front of it.
	w.xdo("windowactivate", "--sync", view)
	w.xdo("mousemove", "--window", view, "220", "229")
	w.xdo("click", "1")
	w.waitScreen("the proposed message", func(s gui.Screen) bool {
		return shows(s, "The view of app.get-time proposes this message")
	})
	testutil.Eventually(t, 10*time.Second, func() bool { return firstField(w.xdo("getactivewindow")) == w.win },
		"the view's question waits behind the view: Deckhand's window never came in front")
	w.keep("app-view-question-in-front.png")
	w.key("Escape")
	w.waitScreen("the question answered Cancel", func(s gui.Screen) bool { return !shows(s, "proposes this message") })
	// Answered, the person goes on in the view: it comes back in front.
	viewInFront := func(after string) {
		t.Helper()
		testutil.Eventually(t, 10*time.Second, func() bool { return firstField(w.xdo("getactivewindow")) == view },
			"the view stayed behind Deckhand's window after "+after)
	}
	viewInFront("its question was answered")

	// Get Server Time, allowed: the view's call is a card of the chat.
	w.xdo("windowactivate", "--sync", view)
	w.xdo("mousemove", "--window", view, "220", "122")
	w.xdo("click", "1")
	w.waitScreen("the view's call at the approval", func(s gui.Screen) bool {
		_, asked := find(s, "", "called from the view of app.get-time")
		return asked
	})
	// Its approval comes in front of the view too (it was only notified).
	testutil.Eventually(t, 10*time.Second, func() bool { return firstField(w.xdo("getactivewindow")) == w.win },
		"the view's approval waits behind the view: Deckhand's window never came in front")
	w.clickText("button", "Allow once")
	viewInFront("its call was allowed")
	viewsCard := func(s gui.Screen) bool {
		return shows(s, "Called from the view of app.get-time, not by the model")
	}
	w.waitScreen("the view's call in the chat", viewsCard)
	w.keep("app-view-call-card.png")

	w.restart()
	s := w.waitScreen("the chat in the sidebar", func(s gui.Screen) bool { _, ok := find(s, "row", "what time is it?"); return ok })
	row, _ := find(s, "row", "what time is it?")
	w.click(row)
	w.waitScreen("the view's call in the chat reopened", func(s gui.Screen) bool {
		return viewsCard(s) && shows(s, "Open view") && shows(s, "That is the server's time.")
	})
}

// A view opened on a card after a restart is told the result it was told
// before: the text, the structured content and the _meta (the chat
// reopened from the log left the structured content out, and
// server-basic-vanillajs's view showed "Server Time: [ERROR]"; found by
// the seventh new-user pass). The view reports what it is told (through
// note, a tool of its own server's).
func TestWindowAppViewResultAfterRestart(t *testing.T) {
	viewHelperBeside(t)
	notes := filepath.Join(t.TempDir(), "notes")
	model := testutil.NewModelServer(t,
		testutil.ModelResponse{Body: testutil.ToolCallChunks(testutil.ToolCallSpec{ID: "a", Name: "p__show", Arguments: `{}`})},
		testutil.ModelResponse{Body: testutil.TextChunks("Shown.")},
	)
	cfg := scriptedConfig(model.URL, fmt.Sprintf(`[mcp.servers.p]
command = %q
args = ["-app-view", "report", "-app-notes", %q]
write = [%q]

[mcp.auto_approve]
"p.*" = true
`, stdioServerBin(t), notes, filepath.Dir(notes)))
	results := func() []string {
		b, _ := os.ReadFile(notes)
		var out []string
		for _, l := range strings.Split(string(b), "\n") {
			if strings.Contains(l, `"method":"ui/notifications/tool-result"`) {
				out = append(out, l)
			}
		}
		return out
	}
	w := startRealWindow(t, cfg, nil)
	w.waitServerReady()
	w.say("show it")
	w.waitScreen("the card done, with its view", func(s gui.Screen) bool { return shows(s, "Shown.") && shows(s, "Open view") })
	w.clickText("button", "Open view")
	testutil.Eventually(t, 60*time.Second, func() bool { return len(results()) == 1 }, "the view did not report its result")
	live := results()[0]
	for _, want := range []string{`"structuredContent":{"shown":"report"}`, `"_meta":{"example.com/kind":"report"`, `"text":"shown: report"`} {
		if !strings.Contains(live, want) {
			t.Errorf("the view's result lacks %s: %s", want, live)
		}
	}

	w.restart()
	s := w.waitScreen("the chat in the sidebar", func(s gui.Screen) bool { _, ok := find(s, "row", "show it"); return ok })
	row, _ := find(s, "row", "show it")
	w.click(row)
	// Its view's notes are cards of the chat now, below the answer.
	s = w.waitScreen("the chat reopened", func(s gui.Screen) bool { return shows(s, "Called from the view of p.show") })
	card, _ := find(s, "", "Called from the view of p.show")
	s = w.wheelUpUntil("the card's Open view", card, func(s gui.Screen) bool {
		open, ok := find(s, "button", "Open view")
		return ok && open.Y > 120 // whole, below the chat's title
	})
	open, _ := find(s, "button", "Open view")
	w.click(open)
	w.keep("app-view-reopened.png")
	w.windowID("p.show") // the view's window is up
	testutil.Eventually(t, 60*time.Second, func() bool { return len(results()) == 2 }, "the view opened after a restart did not report its result; its notes:\n%s", fileText(notes))
	if again := results()[1]; again != live {
		t.Errorf("after a restart the view was told\n%s\nwhere before it was told\n%s", again, live)
	}
}

// wheelUpUntil turns the wheel up with the pointer resting on at, a notch
// at a time, until ok holds of the screen (at most 40 notches).
func (w *realWindow) wheelUpUntil(what string, at gui.ScreenItem, ok func(gui.Screen) bool) gui.Screen {
	w.t.Helper()
	w.xdo("mousemove", "--window", w.windowID(at.Window), fmt.Sprint(int(at.X+at.W/2)), fmt.Sprint(int(at.Y+at.H/2)))
	time.Sleep(300 * time.Millisecond) // the pointer rests, as a hand's does
	for range 40 {
		if s := w.screen(); ok(s) {
			return s
		}
		w.xdo("click", "4")
		time.Sleep(100 * time.Millisecond) // kept: a pause between wheel notches, as a hand makes
	}
	w.keep(strings.ReplaceAll(what, " ", "-") + ".png")
	w.t.Fatalf("%s: not there after 40 notches of the wheel up over %s %q", what, at.Kind, at.Text)
	return gui.Screen{}
}
