package gui

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"deckhand/approval"
	"deckhand/config"
	"deckhand/gui/chat"
	"deckhand/gui/guitest"
	"deckhand/testutil"
	"deckhand/toolcall"
	"deckhand/transcript"
)

// TestShellCommandAsksOnce: a CMD: line's dialog shows the command itself,
// raw but cleaned, says whose it is, and offers only "Allow once" and
// "Deny": no grant may cover a shell command.
func TestShellCommandAsksOnce(t *testing.T) {
	h := newHarness(t, harnessOptions{
		cfg: func(c *config.Config) { c.Policy.AllowExec = true },
		fallback: func(req map[string]any) testutil.ModelResponse {
			for _, m := range req["messages"].([]any) {
				if c, _ := m.(map[string]any)["content"].(string); strings.Contains(c, "[local.exec]") {
					return testutil.ModelResponse{Body: testutil.TextChunks("Not run, then.")}
				}
			}
			return testutil.ModelResponse{Body: testutil.TextChunks("Let me look.\nCMD: ls -la /tmp | grep deck\n")}
		},
	})
	h.say("what is in /tmp?")
	h.until("the approval dialog", func() bool { return h.ui.dialogs.Approvals.Shown() != nil })
	if req := h.ui.dialogs.Approvals.Shown().Request; !req.OnceOnly || req.Command == "" {
		t.Fatalf("the request is not a once-only command: %+v", req)
	}
	for _, want := range []string{
		"Run this shell command?",
		"A shell command the model proposed (runs in the workspace, sandboxed)",
		"Command",
		"ls -la /tmp | grep deck",
		"Each shell command is asked every time",
	} {
		if !h.shows(h.ui.win, want) {
			t.Errorf("the dialog does not show %q:\n%s", want, strings.Join(h.texts(h.ui.win), "\n"))
		}
	}
	var texts []string // the dialog's alone: the transcript's card shows the arguments
	for _, o := range h.ui.win.Canvas().Overlays().List() {
		guitest.Walk(o, func(o fyne.CanvasObject) {
			switch x := o.(type) {
			case *widget.Label:
				texts = append(texts, x.Text)
			case *widget.RichText:
				texts = append(texts, x.String())
			case *widget.Button:
				texts = append(texts, "["+x.Text+"]")
			}
		})
	}
	if !slices.Contains(texts, "ls -la /tmp | grep deck") {
		t.Errorf("the dialog does not show the command as it is: %q", texts)
	}
	for _, s := range texts {
		if strings.Contains(s, "\x1b") {
			t.Errorf("the dialog shows an escape sequence: %q", s)
		}
		if strings.Contains(s, `"command"`) || s == "Arguments" || strings.Contains(s, `server "local"`) {
			t.Errorf("the dialog shows %q; want the command alone, and no server named local", s)
		}
	}
	var buttons []string
	for _, s := range texts {
		if strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]") {
			buttons = append(buttons, s)
		}
	}
	for _, label := range []string{"Deny", "Allow once"} {
		if h.button(h.ui.win, label) == nil {
			t.Errorf("the dialog has no %q button", label)
		}
	}
	for _, label := range []string{"Allow for this session", "Always allow"} {
		if h.button(h.ui.win, label) != nil {
			t.Errorf("a once-only dialog offers %q", label)
		}
	}
	if len(h.ui.dialogs.Approvals.Buttons) != 2 {
		t.Errorf("the dialog has %d answers, want 2 (buttons shown: %v)", len(h.ui.dialogs.Approvals.Buttons), buttons)
	}
	test.Tap(h.ui.dialogs.Approvals.Buttons[approval.Deny])
	h.until("the answer", func() bool { return h.shows(h.ui.win, "Not run, then.") })
}

// TestToolDialogKeepsItsGrants: an ordinary tool's dialog still offers the
// four answers and its arguments (the once-only change is for commands).
func TestToolDialogKeepsItsGrants(t *testing.T) {
	h := approvalHarness(t, nil)
	h.say("echo hi")
	h.until("the approval dialog", func() bool { return h.ui.dialogs.Approvals.Shown() != nil })
	if len(h.ui.dialogs.Approvals.Buttons) != 4 || len(h.ui.dialogs.Approvals.Args) != 1 || h.ui.dialogs.Approvals.Args[0].Key.Text != "text" || h.shows(h.ui.win, "asked every time") {
		t.Errorf("the tool's dialog changed:\n%s", strings.Join(h.texts(h.ui.win), "\n"))
	}
	test.Tap(h.ui.dialogs.Approvals.Buttons[approval.Deny])
	h.until("the answer", func() bool { return h.shows(h.ui.win, "Echoed.") })
}

// TestPolicyRefusedCard: a call the policy refuses never reaches the gate;
// its card says so, with the policy's reason, here and when the session is
// read back from the log.
func TestPolicyRefusedCard(t *testing.T) {
	if !strings.HasPrefix(toolcall.PolicyRefusal("fs.read", "/x", "outside the read roots"), transcript.PolicyRefused) {
		t.Fatalf("toolcall.PolicyRefusal no longer starts with %q: the cards cannot tell a refusal", transcript.PolicyRefused)
	}
	dbPath := filepath.Join(t.TempDir(), "deckhand.db")
	call := testutil.ToolCallSpec{ID: "g1", Name: "t__getenv", Arguments: `{"name": "/etc/passwd"}`}
	h := newHarness(t, harnessOptions{dbPath: dbPath, fallback: toolThenText(call, "It was refused.")})
	h.say("read the passwords")
	h.until("the answer", func() bool {
		if h.ui.dialogs.Approvals.Shown() != nil {
			t.Fatalf("a refused call was asked about")
		}
		return h.shows(h.ui.win, "It was refused.")
	})
	checkRefused := func(h *harness) {
		t.Helper()
		var c *chat.RowView
		h.until("the refused card", func() bool {
			c = h.card("t.getenv")
			return c != nil && c.Row.State == transcript.Failed && c.Tool().Out.String() != ""
		})
		tv := c.Tool()
		if got := tv.State.Text; !strings.Contains(got, "refused by policy") || strings.Contains(got, "failed") {
			t.Errorf("the card's state says %q, want refused by policy", got)
		}
		if !strings.HasPrefix(tv.OutLabel.Text, "Why") {
			t.Errorf("the card's output is labelled %q", tv.OutLabel.Text)
		}
		if out := tv.Out.String(); !strings.Contains(out, "/etc/passwd") || !strings.Contains(out, "outside the write roots") {
			t.Errorf("the card does not give the policy's reason: %q", out)
		}
		if !tv.StatusBox.Visible() || !strings.Contains(tv.Status.Text, "Settings") {
			t.Errorf("the card does not say where to widen the roots: %q", tv.Status.Text)
		}
	}
	checkRefused(h)
	if err := h.sys.SyncLog(t.Context()); err != nil {
		t.Fatal(err)
	}
	h.ui.Stop()

	h2 := newHarness(t, harnessOptions{dbPath: dbPath})
	h2.until("the logged session", func() bool { return len(h2.ui.side.Items) == 1 })
	h2.ui.side.List.Select(0)
	checkRefused(h2)
}

// TestFailedCardIsNotRefused: a tool's own failure still reads as failed.
func TestFailedCardIsNotRefused(t *testing.T) {
	h := newHarness(t, harnessOptions{
		cfg:      func(c *config.Config) { c.MCP.AutoApprove = map[string]bool{"t.fail": true} },
		fallback: toolThenText(testutil.ToolCallSpec{ID: "f1", Name: "t__fail", Arguments: `{}`}, "It failed."),
	})
	h.say("fail")
	h.until("the failed card", func() bool {
		c := h.card("t.fail")
		return c != nil && c.Row.State == transcript.Failed
	})
	tv := h.card("t.fail").Tool()
	if !strings.HasPrefix(tv.State.Text, "failed after") || tv.OutLabel.Text != "Error" || tv.StatusBox.Visible() {
		t.Errorf("a failed card reads %q / %q (status shown: %v)", tv.State.Text, tv.OutLabel.Text, tv.StatusBox.Visible())
	}
}

// settingsEntries are the settings window's entries, in the form's order.
func (h *harness) settingsEntries() ([]*widget.Entry, *widget.Check) {
	f := h.ui.settingsF
	return []*widget.Entry{&f.BaseURL.Entry, &f.Model.Entry, &f.APIKeyEnv.Entry, &f.Budget.Entry, &f.Timeout.Entry, &f.Rules.Entry, &f.Workspace.Entry, &f.ReadRoots.Entry, &f.WriteRoots.Entry}, &f.AllowExec.Check
}

// TestSettingsWriteThePolicy: the settings window widens the roots and
// allows shell commands; the file keeps the rest, and the window and the
// conversations get the new policy.
func TestSettingsWriteThePolicy(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	os.WriteFile(h.cfg.Path, []byte("# my settings\n[model]\nbase_url = \""+h.model.URL+"\"\nname = \"scripted\"\n\n[policy]\n# where tools work\nworkspace = \"~/Deckhand\"\n"), 0o600)
	cfg, err := config.LoadForUpdate(h.cfg.Path)
	if err != nil {
		t.Fatal(err)
	}
	h.ui.setConfig(cfg)
	h.ui.showSettings()
	w := h.ui.settingsW
	h.ui.settingsF.Tabs.SelectIndex(1) // Permissions
	for _, want := range []string{"Policy", "Workspace folder", "Read roots", "Write roots"} {
		if !h.shows(w, want) {
			t.Errorf("the settings do not show %q", want)
		}
	}
	entries, check := h.settingsEntries()
	if len(entries) != 9 || check == nil || check.Text != "Allow shell commands (CMD: lines)" {
		t.Fatalf("the settings have %d entries and check %v, want 9 and the shell commands' check", len(entries), check)
	}
	// In the form's order: URL, model, key variable, budget, timeout,
	// rules, then workspace, read roots, write roots.
	workspace, read, write := entries[6], entries[7], entries[8]
	if workspace.Text != "~/Deckhand" || workspace.PlaceHolder != config.DefaultWorkspace {
		t.Errorf("the workspace entry shows %q (placeholder %q)", workspace.Text, workspace.PlaceHolder)
	}
	if read.Text != "" || !strings.Contains(read.PlaceHolder, "the workspace") || check.Checked {
		t.Errorf("the defaults are not shown: read %q (%q), allow exec %v", read.Text, read.PlaceHolder, check.Checked)
	}

	home, _ := os.UserHomeDir()
	docs := filepath.Join(home, "Documents")
	read.SetText("relative/folder\n")
	h.tap(w, "Save")
	if !h.shows(w, `"relative/folder" is not a full path`) {
		t.Errorf("a relative root gave no error:\n%s", strings.Join(h.texts(w), "\n"))
	}
	for _, o := range w.Canvas().Overlays().List() {
		o.Hide()
		w.Canvas().Overlays().Remove(o)
	}
	read.SetText(docs + "\n\n  ~/Projects  \n")
	write.SetText("~/Deckhand\n/srv/shared\n")
	check.SetChecked(true)
	h.tap(w, "Save")
	if w.Canvas().Overlays().Top() != nil {
		t.Fatalf("saving failed:\n%s", strings.Join(h.texts(w), "\n"))
	}

	data, _ := os.ReadFile(h.cfg.Path)
	for _, want := range []string{"# my settings", "# where tools work", `workspace = "~/Deckhand"`, "allow_exec = true", "[policy.fs]"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("the config lacks %q:\n%s", want, data)
		}
	}
	got, err := config.Load(h.cfg.Path)
	if err != nil {
		t.Fatalf("the saved config does not load: %v\n%s", err, data)
	}
	p := got.Policy
	if !p.AllowExec || !slices.Equal(p.FS.ReadRoots, []string{docs, "~/Projects"}) || !slices.Equal(p.FS.WriteRoots, []string{"~/Deckhand", "/srv/shared"}) {
		t.Errorf("the saved policy is %+v", p)
	}
	rd, wr := p.Roots()
	if !slices.Contains(rd, filepath.Join(home, "Projects")) || !slices.Contains(rd, "/srv/shared") || !slices.Contains(wr, "/srv/shared") {
		t.Errorf("the effective roots are read %v, write %v", rd, wr)
	}
	if !h.ui.cfg.Policy.AllowExec || len(h.ui.cfg.Policy.FS.ReadRoots) != 2 {
		t.Errorf("the window's config was not reloaded: %+v", h.ui.cfg.Policy)
	}

	// Emptying a list goes back to the default (the key is removed), and
	// saving again changes nothing else.
	h.ui.settingsW = nil
	h.ui.showSettings()
	w = h.ui.settingsW
	entries, check = h.settingsEntries()
	if entries[7].Text != docs+"\n~/Projects" || !check.Checked {
		t.Errorf("the reopened settings show read %q, allow exec %v", entries[7].Text, check.Checked)
	}
	entries[7].SetText("")
	check.SetChecked(false)
	h.tap(w, "Save")
	got, err = config.Load(h.cfg.Path)
	if err != nil {
		t.Fatal(err)
	}
	if got.Policy.FS.ReadRoots != nil || got.Policy.AllowExec || len(got.Policy.FS.WriteRoots) != 2 {
		data, _ := os.ReadFile(h.cfg.Path)
		t.Errorf("after emptying the read roots the policy is %+v:\n%s", got.Policy, data)
	}
}

// TestSettingsLeaveAHandWrittenPolicy: saving the model's settings does not
// touch a policy section the person wrote (here in a form the line editor
// cannot change).
func TestSettingsLeaveAHandWrittenPolicy(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	body := "[model]\nbase_url = \"" + h.model.URL + "\"\nname = \"scripted\"\n\n[policy]\nfs = { read_roots = [\"/srv\"] }\n"
	os.WriteFile(h.cfg.Path, []byte(body), 0o600)
	cfg, err := config.LoadForUpdate(h.cfg.Path)
	if err != nil {
		t.Fatal(err)
	}
	h.ui.setConfig(cfg)
	h.ui.showSettings()
	w := h.ui.settingsW
	entries, _ := h.settingsEntries()
	if entries[7].Text != "/srv" {
		t.Fatalf("the read roots show %q", entries[7].Text)
	}
	entries[1].SetText("other-model")
	h.tap(w, "Save")
	if w.Canvas().Overlays().Top() != nil {
		t.Fatalf("saving failed:\n%s", strings.Join(h.texts(w), "\n"))
	}
	data, _ := os.ReadFile(h.cfg.Path)
	if !strings.Contains(string(data), `fs = { read_roots = ["/srv"] }`) || !strings.Contains(string(data), `name = "other-model"`) {
		t.Errorf("the config is\n%s", data)
	}
}

// TestApprovalShowsWhatTheCallMayTouch: the paths the policy allowed a
// call are in its dialog.
func TestApprovalShowsWhatTheCallMayTouch(t *testing.T) {
	home, _ := os.UserHomeDir()
	target := filepath.Join(home, "Deckhand", "notes.txt")
	call := testutil.ToolCallSpec{ID: "g1", Name: "t__getenv", Arguments: `{"name": ` + jsonQuote(target) + `}`}
	h := newHarness(t, harnessOptions{fallback: toolThenText(call, "Done.")})
	h.say("look")
	h.until("the approval dialog", func() bool { return h.ui.dialogs.Approvals.Shown() != nil })
	// The target as the policy resolved it (symbolic links followed).
	if !h.shows(h.ui.win, "It may touch: may write ") || !h.shows(h.ui.win, filepath.Join("Deckhand", "notes.txt")) {
		t.Errorf("the dialog does not say what the call may touch:\n%s", strings.Join(h.texts(h.ui.win), "\n"))
	}
	test.Tap(h.ui.dialogs.Approvals.Buttons[approval.Deny])
	h.until("the answer", func() bool { return h.shows(h.ui.win, "Done.") })
}
