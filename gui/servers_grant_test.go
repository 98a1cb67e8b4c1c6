package gui

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestServersGrantQuestionPlain: a command server whose arguments name a
// folder outside the policy's roots is asked about it in short sentences
// (one ran to 18 words and packed the sandbox, the roots and
// server-filesystem into three clauses, and no answer was explained):
// what the server asked for, then what each answer lets it do, each
// answer's line starting with its button's name.
// Neither then grants nothing and the try goes on.
func TestServersGrantQuestionPlain(t *testing.T) {
	h, sw := serversHarness(t, nil)
	docs := filepath.Join(t.TempDir(), "Documents")
	if err := os.Mkdir(docs, 0o755); err != nil {
		t.Fatal(err)
	}
	sw.ShowConnect()
	f := sw.Form
	f.Kind.SetSelected("Command")
	f.Target.SetText("/nonexistent/mcp-server-filesystem " + docs)
	f.Alias.SetText("files")
	h.tap(f.Win, "Connect and save")
	if !h.shows(f.Win, "outside the folders servers may use") {
		t.Fatalf("no question; the form shows:\n%s", strings.Join(h.texts(f.Win), "\n"))
	}
	var text string
	for _, s := range h.texts(f.Win) {
		if strings.Contains(s, "outside the folders servers may use") {
			text = s
		}
	}
	if !strings.Contains(text, docs) {
		t.Errorf("the question does not name %s:\n%s", docs, text)
	}
	for _, answer := range []string{"Read only", "Read and write", "Neither"} {
		if h.button(f.Win, answer) == nil {
			t.Errorf("no %q button", answer)
		}
		if !regexp.MustCompile(`(?m)^` + answer + `: `).MatchString(text) {
			t.Errorf("no line says what %q does:\n%s", answer, text)
		}
	}
	// Neither says both: the server reads nothing there either.
	if !strings.Contains(text, "Neither: nothing is granted. The server can neither read nor write there.") {
		t.Errorf("Neither does not say the server can neither read nor write there:\n%s", text)
	}
	// Sentences end at a full stop or a line's end; a folder's name is
	// one word, whatever its dots.
	plain := strings.ReplaceAll(text, docs, "FOLDER")
	for _, s := range regexp.MustCompile(`[.?!](\s|$)|\n`).Split(plain, -1) {
		if n := len(strings.Fields(s)); n > 15 {
			t.Errorf("a sentence of %d words (at most 15): %q", n, strings.TrimSpace(s))
		}
	}

	h.tap(f.Win, "Neither")
	h.until("the try to end", func() bool { return !f.Trying() && f.Problem.Text != "" })
	if h.shows(f.Win, "outside the folders servers may use") {
		t.Error("the question stayed open after Neither")
	}
	if text := h.configText(); strings.Contains(text, docs) {
		t.Errorf("Neither granted the folder:\n%s", text)
	}
}
