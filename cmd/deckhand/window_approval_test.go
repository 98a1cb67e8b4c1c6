package main

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"deckhand/gui"
	"deckhand/testutil"
)

// askToWriteNote starts the window with a model that asks the probe
// server to write a note of n lines to path (the text first, the path
// second), then answers answer, and sends "write it" from the message box,
// or from the quick prompt where quick. It returns the window and the
// title of the one the approval shows in.
func askToWriteNote(t *testing.T, quick bool, n int, path, answer string, opts ...windowOption) (w *realWindow, title string) {
	t.Helper()
	var lines []string
	for i := range n {
		lines = append(lines, fmt.Sprintf("line %d of the note", i+1))
	}
	text, _ := json.Marshal(strings.Join(lines, "\n"))
	model := testutil.NewModelServer(t,
		testutil.ModelResponse{Body: testutil.ToolCallChunks(testutil.ToolCallSpec{ID: "a", Name: "p__write_file",
			Arguments: fmt.Sprintf(`{"text":%s,"path":%q}`, text, path)})},
		testutil.ModelResponse{Body: testutil.TextChunks(answer)},
	)
	cfg := scriptedConfig(model.URL, probeServer(t))
	w = startRealWindow(t, cfg, nil, opts...)
	w.waitServerReady()
	title = "Deckhand"
	if quick {
		title = "Deckhand: quick prompt"
		w.openQuickPrompt()
		w.typeText("write it")
		w.key("Return")
	} else {
		w.say("write it")
	}
	return w, title
}

// A call whose first argument runs to 200 lines does not hide its second:
// the approval shows every argument's key and the start of its value
// without scrolling, the long one folded ("199 more lines"), in the main
// window at 640×480 and in the quick prompt. The button that opens the
// long value shows it whole.
func TestWindowApprovalLongFirstArgument(t *testing.T) {
	for _, c := range []struct {
		name  string
		quick bool
	}{{"main", false}, {"quick", true}} {
		t.Run(c.name, func(t *testing.T) {
			// The model's order: the long text first, where the file goes
			// second.
			w, title := askToWriteNote(t, c.quick, 200, "run-at-login.sh", "ok", withDisplay("640x480"))
			s := w.waitScreen("the approval", func(s gui.Screen) bool {
				b, ok := find(s, "button", "Allow once")
				return ok && b.Window == title
			})
			w.keep("approval-long-first-" + c.name + ".png")
			in := func(kind string, ok func(string) bool) (gui.ScreenItem, bool) {
				for _, it := range s.Items {
					if it.Window == title && it.Visible && it.Kind == kind && ok(it.Text) {
						return it, true
					}
				}
				return gui.ScreenItem{}, false
			}
			is := func(want string) func(string) bool { return func(s string) bool { return s == want } }
			starts := func(want string) func(string) bool { return func(s string) bool { return strings.HasPrefix(s, want) } }
			for _, want := range []struct {
				what, kind string
				ok         func(string) bool
			}{
				{"the first key", "label", is("text")},
				{"the first value's start", "text", starts("line 1 of the note")},
				{"how much more the first value holds", "button", is("199 more lines")},
				{"the second key", "label", is("path")},
				{"the second value", "text", is("run-at-login.sh")},
			} {
				if _, ok := in(want.kind, want.ok); !ok {
					t.Errorf("%s is not in sight without scrolling:\n%s", want.what, s.ScreenText())
				}
			}
			more, ok := in("button", is("199 more lines"))
			if !ok {
				return
			}
			w.click(more)
			w.waitScreen("the whole first value", func(s gui.Screen) bool {
				for _, it := range s.Items {
					if it.Window == title && it.Kind == "text" && strings.Contains(it.Text, "line 200 of the note") {
						return true
					}
				}
				return false
			})
		})
	}
}

// The quick prompt, opened as a person opens it (Ctrl+K), shows a call of
// six arguments of mixed kinds (numbers, a nested object, a long string)
// with every key and the start of its value in sight above the buttons:
// the call was once cut after its second argument, `"b": 22`, in the
// 170 px the dialog left it.
func TestWindowApprovalQuickMixedArguments(t *testing.T) {
	long := strings.Repeat("a long line of prose the tool would write, ", 12)
	args := fmt.Sprintf(`{"a":1,"b":22,"nested":{"x":[1,2,3],"y":{"z":true}},"text":%q,"ratio":0.5,"path":"run-at-login.sh"}`, long)
	model := testutil.NewModelServer(t,
		testutil.ModelResponse{Body: testutil.ToolCallChunks(testutil.ToolCallSpec{ID: "a", Name: "p__mutable", Arguments: args})},
		testutil.ModelResponse{Body: testutil.TextChunks("ok")},
	)
	cfg := scriptedConfig(model.URL, fmt.Sprintf("[mcp.servers.p]\ncommand = %q\nargs = [\"-describe\", \"Write a note\"]\n", stdioServerBin(t)))
	w := startRealWindow(t, cfg, nil)
	w.waitServerReady()
	const title = "Deckhand: quick prompt"
	w.openQuickPrompt()
	w.typeText("write it")
	w.key("Return")
	s := w.waitScreen("the approval", func(s gui.Screen) bool {
		b, ok := find(s, "button", "Allow once")
		return ok && b.Window == title
	})
	w.keep("approval-quick-mixed.png")
	top := float32(1e9) // the buttons' top
	for _, it := range s.Items {
		if it.Window == title && it.Kind == "button" && (it.Text == "Deny" || strings.HasPrefix(it.Text, "Allow")) {
			top = min(top, it.Y)
		}
	}
	// inSight: the whole item shows (the middle of its part in sight is
	// its own middle), above the buttons.
	inSight := func(kind string, ok func(string) bool) bool {
		for _, it := range s.Items {
			if it.Window == title && it.Visible && it.Kind == kind && ok(it.Text) &&
				abs32(it.CY-(it.Y+it.H/2)) < 1 && it.Y+it.H <= top {
				return true
			}
		}
		return false
	}
	is := func(want string) func(string) bool { return func(s string) bool { return s == want } }
	starts := func(want string) func(string) bool { return func(s string) bool { return strings.HasPrefix(s, want) } }
	// Each key with the start of its value: as its row, or in the line
	// below the rows that names them all when they do not all fit.
	var line string
	for _, it := range s.Items {
		if it.Window == title && it.Kind == "label" && strings.Contains(it.Text, "arguments (scroll") &&
			it.Visible && abs32(it.CY-(it.Y+it.H/2)) < 1 && it.Y+it.H <= top {
			line = it.Text
		}
	}
	for _, want := range []struct{ key, start, inLine string }{
		{"a", "1", "a: 1"}, {"b", "22", "b: 22"}, {"nested", `{`, `nested: {"x":[1,2,3]`},
		{"text", "a long line of prose", "text: \u201ca long line of prose"}, {"ratio", "0.5", "ratio: 0.5"},
		{"path", "run-at-login.sh", "path: \u201crun-at-login.sh\u201d"},
	} {
		if strings.Contains(line, want.inLine) {
			continue
		}
		if !inSight("label", is(want.key)) || !inSight("text", starts(want.start)) {
			t.Errorf("the key %q and the start of its value (%q) are not whole in sight above the buttons (at %.0f):\n%s", want.key, want.start, top, s.ScreenText())
		}
	}
	// Tab onto the long text's button, below the fold, brings it into
	// sight.
	var more gui.ScreenItem
	for tabs := 0; !strings.HasSuffix(more.Text, "more characters"); tabs++ {
		if tabs == 4 {
			t.Fatalf("Tab never reached the long text's button; the focus is on %q", more.Text)
		}
		w.key("Tab")
		s = w.waitScreen("the focus on a folded value's button", func(s gui.Screen) bool {
			i := slices.IndexFunc(s.Items, func(it gui.ScreenItem) bool { return it.Window == title && it.Focused })
			if i >= 0 && s.Items[i].Text != more.Text {
				more = s.Items[i]
				return true
			}
			return false
		})
	}
	if !more.Visible || abs32(more.CY-(more.Y+more.H/2)) >= 1 || more.Y+more.H > top {
		w.keep("approval-quick-tab-below-fold.png")
		t.Errorf("the focused %q is not whole in sight above the buttons: %+v", more.Text, more)
	}
}

func abs32(f float32) float32 { return max(f, -f) }

// Tab moves the focus through the approval's buttons in their order on
// screen (the folded value's "N more lines" first, where it shows, then
// Deny, Allow once, Allow for this session, Always allow), Shift+Tab back,
// and the button with the focus, and only it, is ringed in a screenshot:
// Deny, the default, is filled, never ringed until it has the focus. Space
// presses the ringed button: Allow once runs the call. Tab then Space once
// denied a person who meant Allow once: the first Tab landed on Deny, which
// already looked chosen.
func TestWindowApprovalTabOrder(t *testing.T) {
	for _, c := range []struct {
		name  string
		quick bool
	}{{"main", false}, {"quick", true}} {
		t.Run(c.name, func(t *testing.T) {
			w, title := askToWriteNote(t, c.quick, 30, "tab-order.txt", "allowed, fine")
			s := w.waitScreen("the approval", func(s gui.Screen) bool {
				b, ok := find(s, "button", "Always allow")
				return ok && b.Window == title
			})
			// What the keyboard reaches in the dialog, in the order a
			// person reads it: top to bottom, left to right.
			dialogButtons := func(s gui.Screen) []gui.ScreenItem {
				var out []gui.ScreenItem
				for _, it := range s.Items {
					if it.Window == title && it.Visible && it.Kind == "button" &&
						(strings.HasSuffix(it.Text, " more lines") || it.Text == "Deny" || strings.HasPrefix(it.Text, "Allow") || it.Text == "Always allow") {
						out = append(out, it)
					}
				}
				slices.SortStableFunc(out, func(a, b gui.ScreenItem) int {
					if d := a.Y + a.H/2 - (b.Y + b.H/2); d < -2 || d > 2 {
						return cmp.Compare(a.Y, b.Y)
					}
					return cmp.Compare(a.X, b.X)
				})
				return out
			}
			var order []string
			for _, b := range dialogButtons(s) {
				order = append(order, b.Text)
			}
			if len(order) != 5 || !strings.HasSuffix(order[0], " more lines") {
				t.Fatalf("the dialog's buttons on screen are %q, want the folded value's and the four answers", order)
			}
			ringsAre := func(shot string, s gui.Screen, want string) {
				t.Helper()
				img := w.windowShot(title, shot)
				for _, b := range dialogButtons(s) {
					if got := ringed(img, b); got != (b.Text == want) {
						t.Errorf("%s: %q ringed = %v, want %v (the focus is on %q)", shot, b.Text, got, !got, want)
					}
				}
			}
			ringsAre("approval-tab-0-"+c.name+".png", s, "")
			step := func(key, want string, i int) {
				t.Helper()
				w.key(key)
				// Each window keeps its own focus: the dialog's window's.
				s := w.waitScreen(fmt.Sprintf("the focus on %q after %s", want, key), func(s gui.Screen) bool {
					return slices.ContainsFunc(s.Items, func(it gui.ScreenItem) bool {
						return it.Window == title && it.Focused && it.Text == want
					})
				})
				ringsAre(fmt.Sprintf("approval-tab-%d-%s.png", i, c.name), s, want)
			}
			for i, want := range order {
				step("Tab", want, i+1)
			}
			step("shift+Tab", "Allow for this session", 6)
			step("shift+Tab", "Allow once", 7)
			w.key("space")
			s = w.waitScreen("the call run and the answer", func(s gui.Screen) bool {
				return shows(s, "allowed, fine") && shows(s, "done in")
			})
			if shows(s, "denied") {
				t.Errorf("Space on the ringed Allow once denied the call:\n%s", s.ScreenText())
			}
		})
	}
}

// windowShot is a screenshot of the window titled title, in its own
// pixels (those of the screen's items), kept as name.
func (w *realWindow) windowShot(title, name string) image.Image {
	w.t.Helper()
	path := filepath.Join(w.t.TempDir(), name)
	cmd := exec.Command("import", "-window", w.windowID(title), path)
	cmd.Env = append(os.Environ(), "DISPLAY="+w.display)
	if out, err := cmd.CombinedOutput(); err != nil {
		w.t.Fatalf("screenshot of %q: %v\n%s", title, err, out)
	}
	w.t.Logf("screenshot: %s", path)
	if out := os.Getenv("DECKHAND_SHOTS"); out != "" {
		data, _ := os.ReadFile(path)
		os.WriteFile(filepath.Join(out, name), data, 0o644)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		w.t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		w.t.Fatalf("decoding %s: %v", path, err)
	}
	return img
}

// ringed reports whether a button is outlined in the screenshot: along
// the middle of its top and left edges its border differs clearly from
// its inside, just within (a tint or a fill colours both alike).
func ringed(img image.Image, b gui.ScreenItem) bool {
	x0, y0 := int(b.X+0.5), int(b.Y+0.5)
	mx, my := int(b.X+b.W/2), int(b.Y+b.H/2)
	return far(img.At(mx, y0+1), img.At(mx, y0+6)) && far(img.At(x0+1, my), img.At(x0+6, my))
}

// far: two colours a person tells apart at a glance.
func far(a, b color.Color) bool {
	ar, ag, ab, _ := a.RGBA()
	br, bg, bb, _ := b.RGBA()
	d := func(x, y uint32) int { return max(int(x>>8)-int(y>>8), int(y>>8)-int(x>>8)) }
	return d(ar, br)+d(ag, bg)+d(ab, bb) > 96
}
