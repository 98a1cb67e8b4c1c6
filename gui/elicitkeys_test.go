package gui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"deckhand/actors/servers"
	"deckhand/config"
	"deckhand/gui/dialogs"
	"deckhand/gui/guitest"
	"deckhand/transport/mcp"
)

// longForm is a question with a field of every kind the form holds, each
// with a description long enough that the form runs several screens.
func longForm(t *testing.T) *mcp.Form {
	t.Helper()
	desc := strings.Repeat("Said of this field at some length, so that the form is long. ", 4)
	options := func(n int) []any {
		out := make([]any, n)
		for i := range out {
			out[i] = fmt.Sprintf("option %d", i+1)
		}
		return out
	}
	schema := map[string]any{
		"type": "object",
		"properties": map[string]any{
			"a_name":    map[string]any{"type": "string", "title": "Name", "description": desc},
			"b_date":    map[string]any{"type": "string", "format": "date", "title": "Birthdate", "description": desc},
			"c_int":     map[string]any{"type": "integer", "title": "Integer", "description": desc},
			"d_number":  map[string]any{"type": "number", "title": "Number", "description": desc},
			"e_check":   map[string]any{"type": "boolean", "title": "Agree", "description": desc},
			"f_select":  map[string]any{"type": "string", "enum": options(4), "title": "One of a few", "description": desc},
			"g_several": map[string]any{"type": "array", "items": map[string]any{"type": "string", "enum": options(3)}, "title": "Several of a few", "description": desc},
			"h_more":    map[string]any{"type": "array", "items": map[string]any{"type": "string", "enum": options(8)}, "title": "Several of more", "description": desc},
			"i_many":    map[string]any{"type": "string", "enum": options(40), "title": "One of many", "description": desc},
			"j_email":   map[string]any{"type": "string", "format": "email", "title": "Email", "description": desc},
		},
		"required": []any{"a_name"},
	}
	f, err := mcp.ParseForm(schema)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// formScroll is the scroll the open question's form is in.
func formScroll(t *testing.T, h *harness, e *dialogs.Questions) *container.Scroll {
	t.Helper()
	first := e.Form.Fields[0].Entry
	var found *container.Scroll
	for _, s := range guitest.All[*container.Scroll](h.ui.win.Canvas().Overlays().Top()) {
		in := false
		guitest.Walk(s.Content, func(o fyne.CanvasObject) { in = in || o == fyne.CanvasObject(first) })
		if in && found == nil {
			found = s // the outermost
		}
	}
	if found == nil {
		t.Fatal("the form is in no scroll")
	}
	return found
}

// inScrollView reports whether o shows whole in s's view.
func inScrollView(s *container.Scroll, o fyne.CanvasObject) bool {
	d := fyne.CurrentApp().Driver()
	top := d.AbsolutePositionForObject(o).Y - d.AbsolutePositionForObject(s).Y
	return top >= -0.5 && top+o.Size().Height <= s.Size().Height+0.5
}

// TestElicitFormKeyboardAndWheel: a server's question whose form runs
// several screens, at 640×480 and 1280×800. Tab and Shift+Tab through it
// keep the focused field inside the form's view, ringed, for every kind of
// field (entries for text, dates, numbers; a check box; a select; the
// check boxes of a choice of several; a long list's filter and list), and
// the wheel moves the form three lines a notch wherever the pointer is,
// over an entry too. New-user pass 12: Tab went below the fold with
// nothing coming into view and no focus mark to be seen, and ten notches
// moved the form 25 px (an entry's own scroller took the wheel).
func TestElicitFormKeyboardAndWheel(t *testing.T) {
	for _, size := range []fyne.Size{{Width: 640, Height: 480}, {Width: 1280, Height: 800}} {
		t.Run(fmt.Sprintf("%.0fx%.0f", size.Width, size.Height), func(t *testing.T) {
			h := newHarness(t, harnessOptions{cfg: func(c *config.Config) { c.UI.TextScale = 1.28 }})
			h.ui.win.Resize(size)
			e := h.ui.dialogs.Questions
			e.Add(&dialogs.Question{Req: &servers.ElicitationRequested{ID: "q1", Server: "ev", Mode: "form",
				Message: "Please provide inputs for the following fields:", Form: longForm(t), Deadline: time.Now().Add(time.Hour)}})
			h.until("the question", func() bool { return e.Shown() != nil })
			h.drain()
			sc := formScroll(t, h, e)
			if sc.Content.Size().Height < 2*sc.Size().Height {
				t.Fatalf("the form is %v high in a view of %v: not long enough to test", sc.Content.Size().Height, sc.Size().Height)
			}
			c := h.ui.win.Canvas()
			inForm := func(o fyne.Focusable) bool {
				found := false
				guitest.Walk(sc.Content, func(x fyne.CanvasObject) { found = found || x == o.(fyne.CanvasObject) })
				return found
			}
			// The screen's reader (the real-window tests') names the fields.
			kinds := map[string]bool{}
			for _, it := range screen().Items {
				kinds[it.Kind] = true
			}
			for _, want := range []string{"entry", "check", "select"} {
				if !kinds[want] {
					t.Errorf("the screen has no %s of the form; it has %v", want, kinds)
				}
			}

			// The first Tab, with the keyboard nowhere (the dialog opened
			// under someone typing), goes to the first field: it went to
			// the server's message, which showed no focus.
			if c.FocusNext(); c.Focused() != fyne.Focusable(e.Form.Fields[0].Entry) {
				t.Errorf("the first Tab went to %T, want the form's first field", c.Focused())
			}
			c.Unfocus()
			for _, back := range []bool{false, true} {
				kinds := map[string]bool{}
				for range 40 {
					if back {
						c.FocusPrevious()
					} else {
						c.FocusNext()
					}
					f := c.Focused()
					if f == nil || !inForm(f) {
						continue
					}
					o := f.(fyne.CanvasObject)
					kind := fmt.Sprintf("%T", f)
					kinds[kind] = true
					if !inScrollView(sc, o) {
						t.Errorf("Tab (back %v) onto a %s out of the form's view (offset %v of %v, view %v)", back, kind, sc.Offset.Y, sc.Content.Size().Height, sc.Size().Height)
					}
					if shown, has := ringShown(o); !has || !shown {
						t.Errorf("Tab (back %v) onto a %s: no focus ring shown (has one: %v)", back, kind, has)
					}
				}
				for _, want := range []string{"*form.elicitEntry", "*form.formCheck", "*form.formSelect", "*form.formList"} {
					if !kinds[want] {
						t.Errorf("Tab (back %v) never reached a %s in the form; it reached %v", back, want, kinds)
					}
				}
			}

			// The long list is chosen in by the keyboard: Down, then Space.
			for range 40 {
				if fmt.Sprintf("%T", c.Focused()) == "*form.formList" {
					break
				}
				c.FocusNext()
			}
			c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
			c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeySpace})
			e.Form.Fields[0].Entry.SetText("Ada")
			if got, _, err := e.Form.Collect(); err != nil || got["i_many"] != "option 2" {
				t.Errorf("Down and Space in the long list: the form holds %v, %v; want i_many option 2", got, err)
			}

			// The wheel, one notch down (the driver's 25 px), from the
			// top: over an entry, and over a field's title.
			for _, over := range []string{"an entry", "a title"} {
				sc.ScrollToTop()
				h.drain()
				var target fyne.CanvasObject = e.Form.Fields[0].Entry
				if over == "a title" {
					for _, l := range guitest.All[*widget.Label](sc.Content) {
						if strings.HasPrefix(l.Text, "Name") {
							target = l
						}
					}
				}
				d := fyne.CurrentApp().Driver()
				at := d.AbsolutePositionForObject(target).Add(fyne.NewPos(target.Size().Width/2, target.Size().Height/2))
				before := sc.Offset.Y
				test.Scroll(c, at, 0, -25)
				if moved := sc.Offset.Y - before; moved < 3*25-0.5 {
					t.Errorf("one wheel notch over %s moved the form %.1f px, want three lines (%d px)", over, moved, 3*25)
				}
			}
			t.Logf("the form: %.0f px in a view of %.0f", sc.Content.Size().Height, sc.Size().Height)

			// Escape on a check box cancels, as in an entry (Fyne's check
			// box dropped it).
			var check fyne.Focusable
			for _, x := range e.Form.Fields {
				if x.Check != nil {
					check = x.Check
				}
			}
			c.Focus(check)
			check.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
			if e.Shown() != nil {
				t.Errorf("Escape on a check box left the question open")
			}
		})
	}
}

// TestElicitOpenDeckhandFocusesTheForm: a question asked while Deckhand
// is behind is notified; its Open Deckhand brings the window forward with
// the keyboard in the form's first field, so that what the person types
// goes there (new-user pass 12: the first Tab went to the server's
// message, which shows no focus, and the name typed was lost). A window
// come back to the front does the same.
func TestElicitOpenDeckhandFocusesTheForm(t *testing.T) {
	for _, how := range []string{"Open Deckhand", "the window to the front"} {
		t.Run(how, func(t *testing.T) {
			h := newHarness(t, harnessOptions{})
			h.ui.foreground = false
			e := h.ui.dialogs.Questions
			e.Add(&dialogs.Question{Req: &servers.ElicitationRequested{ID: "q1", Server: "ev", Mode: "form",
				Message: "Please provide inputs for the following fields:", Form: longForm(t), Deadline: time.Now().Add(time.Hour)}})
			h.until("the question and its notification", func() bool {
				_, all := h.notes.shown()
				return e.Shown() != nil && len(all) == 1
			})
			c := h.ui.win.Canvas()
			if f := c.Focused(); f != nil {
				t.Fatalf("the dialog opened with the keyboard on %T, before the person came to it", f)
			}
			if how == "Open Deckhand" {
				_, all := h.notes.shown()
				all[0].OnAction("default")
			} else {
				h.app.Lifecycle().(interface{ OnEnteredForeground() func() }).OnEnteredForeground()()
			}
			h.drain()
			name := e.Form.Fields[0].Entry
			if f := c.Focused(); f != fyne.Focusable(name) {
				t.Fatalf("after %s the keyboard is on %T, want the form's first field", how, f)
			}
			test.Type(name, "Ada Lovelace")
			if name.Text != "Ada Lovelace" {
				t.Errorf("typed after %s, the field holds %q", how, name.Text)
			}
		})
	}
}

// TestElicitSelectInViewAndEnterAccepts: at 640×480 in the light theme
// with the text at 125%, a question whose only field is a select (as
// server-everything's ambiguous research query asks) opens with that
// field in the form's view; Enter on the select with nothing chosen says
// what is missing, and with a choice made it accepts, as Enter in an
// entry does. (New-user pass 15, N6: the field opened below the fold,
// and Enter on the completed select did nothing though Accept is the
// default.)
func TestElicitSelectInViewAndEnterAccepts(t *testing.T) {
	h := newHarness(t, harnessOptions{cfg: func(c *config.Config) { c.UI.TextScale = 1.25; c.UI.Theme = "light" }})
	h.ui.win.Resize(fyne.NewSize(640, 480))
	f, err := mcp.ParseForm(map[string]any{
		"type": "object",
		"properties": map[string]any{
			"clarification": map[string]any{"type": "string", "title": "Clarification",
				"enum": []any{"Python programming language", "Python snake species", "Monty Python comedy group"}},
		},
		"required": []any{"clarification"},
	})
	if err != nil {
		t.Fatal(err)
	}
	e := h.ui.dialogs.Questions
	e.Add(&dialogs.Question{Tool: "everything.simulate-research-query", Conv: "ambig at six forty",
		Req: &servers.ElicitationRequested{ID: "q1", Server: "everything", Mode: "form",
			Message: `The research query "python" could have multiple interpretations. Please clarify what you're looking for:`,
			Form:    f, Deadline: time.Now().Add(time.Hour)}})
	h.until("the question", func() bool { return e.Shown() != nil })
	h.drain()
	sel := e.Form.Fields[0].Select
	if sel == nil {
		t.Fatal("the field is not a select")
	}
	var sc *container.Scroll
	for _, s := range guitest.All[*container.Scroll](h.ui.win.Canvas().Overlays().Top()) {
		in := false
		guitest.Walk(s.Content, func(o fyne.CanvasObject) { in = in || o == fyne.CanvasObject(sel) })
		if in && sc == nil {
			sc = s
		}
	}
	if sc == nil {
		t.Fatal("the form is in no scroll")
	}
	if !inScrollView(sc, sel) {
		t.Errorf("the dialog opened with its only field out of view (scrolled %v of %v, view %v high)", sc.Offset.Y, sc.Content.Size().Height, sc.Size().Height)
	}
	c := h.ui.win.Canvas()
	c.Focus(sel)
	enter := func() { c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn}) }
	enter()
	h.drain()
	if e.Shown() == nil {
		t.Fatal("Enter on the select with nothing chosen closed the question")
	}
	if !e.Problem.Visible() || e.Problem.Text != "Clarification is required." {
		t.Errorf("Enter on the empty select says %q (shown %v)", e.Problem.Text, e.Problem.Visible())
	}
	sel.SetSelected("Python programming language")
	enter()
	h.drain()
	if e.Shown() != nil {
		t.Errorf("Enter on the completed select did not accept the form")
	}
}
