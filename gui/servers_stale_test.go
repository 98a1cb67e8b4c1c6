package gui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"deckhand/config"
	"deckhand/gui/servers/connect"
	"deckhand/testutil"
)

// TestServersFormProblemGoesStale: the reason a try failed (or a mistake
// found before trying) is marked as the last try's, no longer red, once a
// field it is about changes; the alias, which no try depends on, leaves
// it as it is; the next failure is red again. It stayed red under the
// form, headed "Could not connect", after the command was corrected,
// until the next try.
func TestServersFormProblemGoesStale(t *testing.T) {
	h, sw := serversHarness(t, nil)
	sw.ShowConnect()
	for _, tc := range []struct {
		name    string
		form    config.ServerForm
		heading string
		change  func(f *connect.Form)
	}{
		{"a failed try, the command corrected", config.ServerForm{Kind: "Command", Target: "/nonexistent/mcp-thing", Alias: "thing"}, "Could not connect",
			func(f *connect.Form) { f.Target.SetText("/nonexistent/mcp-thing2") }},
		{"a failed try, the environment changed", config.ServerForm{Kind: "Command", Target: "/nonexistent/mcp-thing", Alias: "thing"}, "Could not connect",
			func(f *connect.Form) { f.Env.SetText("A=1") }},
		{"a mistake, mended", config.ServerForm{Kind: "Command", Target: testutil.StdioServer(t).Command, Alias: "envy", Env: "A=1\nBADLINE"}, "Not tried: fix this in the form",
			func(f *connect.Form) { f.Env.SetText("A=1") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if sw.Form == nil {
				sw.ShowConnect()
			}
			f := h.submitForm(sw, tc.form)
			if !f.Problems.Visible() || f.Heading.Text != tc.heading || f.Problem.Importance != widget.DangerImportance {
				t.Fatalf("the failure shows %v, headed %q, importance %v: %q", f.Problems.Visible(), f.Heading.Text, f.Problem.Importance, f.Problem.Text)
			}
			why := f.Problem.Text
			f.Alias.SetText("other")
			if f.Heading.Text != tc.heading || f.Problem.Importance != widget.DangerImportance {
				t.Errorf("a new alias marked the reason stale: headed %q", f.Heading.Text)
			}
			tc.change(f)
			if f.Problems.Visible() && (f.Problem.Importance == widget.DangerImportance || !strings.Contains(f.Heading.Text, "before your change")) {
				t.Errorf("after the change the reason still shows as the form's: headed %q, importance %v", f.Heading.Text, f.Problem.Importance)
			}
			if f.Problems.Visible() && f.Problem.Text != why {
				t.Errorf("the reason kept for reading changed: %q, was %q", f.Problem.Text, why)
			}
			f.Env.SetText("")
			f.Target.SetText("/nonexistent/mcp-again")
			test.Tap(f.Submit)
			h.until("the try to end", func() bool { return !f.Trying() })
			if f.Heading.Text != "Could not connect" || f.Problem.Importance != widget.DangerImportance {
				t.Errorf("the next failure is headed %q, importance %v", f.Heading.Text, f.Problem.Importance)
			}
		})
	}
}

// TestServersFormTokenVariableInItsWords: a Token variable that is not
// set is said in the form's words, by the field's label and what to do,
// not as the config's key (auth_env) it is saved under.
func TestServersFormTokenVariableInItsWords(t *testing.T) {
	h, sw := serversHarness(t, nil)
	sw.ShowConnect()
	f := sw.Form
	f.AuthEnv.SetText("NOPE_TOKEN_DECKHAND_TEST")
	f = h.submitForm(sw, config.ServerForm{Kind: "URL", Target: "https://mcp.example.invalid/mcp", Alias: "tok"})
	got := f.Problem.Text
	for _, want := range []string{"Token variable", "NOPE_TOKEN_DECKHAND_TEST is not set", "environment.d", "clear Token variable"} {
		if !strings.Contains(got, want) {
			t.Errorf("the reason does not say %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "auth_env") {
		t.Errorf("the reason speaks of the config's key:\n%s", got)
	}
}
