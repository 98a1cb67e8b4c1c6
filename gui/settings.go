package gui

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"deckhand/config"
	"deckhand/transport/llm"
)

// settingsForm holds the settings window's fields.
type settingsForm struct {
	baseURL, apiKeyEnv, budget, timeout *widget.Entry
	model                               *widget.SelectEntry
	rules                               *widget.Entry
	save                                *widget.Button
	// The capability policy.
	workspace, readRoots, writeRoots *widget.Entry
	allowExec                        *widget.Check
}

func (u *UI) showSettings() {
	if u.settingsW != nil {
		u.settingsW.Show()
		u.settingsW.RequestFocus()
		return
	}
	w := u.app.NewWindow("Deckhand: settings")
	if u.d.Icon != nil {
		w.SetIcon(u.d.Icon)
	}
	f := u.newSettingsForm(w)
	form := widget.NewForm(
		&widget.FormItem{Text: "Model URL", Widget: f.baseURL, HintText: "any OpenAI-compatible API root, ending in /v1"},
		&widget.FormItem{Text: "Model", Widget: f.model, HintText: "the model's name; Check lists what the server offers"},
		&widget.FormItem{Text: "API key variable", Widget: f.apiKeyEnv, HintText: "the environment variable holding the key (empty for local servers)"},
		&widget.FormItem{Text: "Context budget", Widget: f.budget, HintText: "tokens per request; the oldest turns are dropped to fit"},
		&widget.FormItem{Text: "Approval timeout", Widget: f.timeout, HintText: "unanswered approvals are denied after this (e.g. 2m)"},
		&widget.FormItem{Text: "Auto-approve", Widget: f.rules, HintText: "one rule a line: alias.tool or alias.* (= false to always ask)"},
	)
	policyHeading := widget.NewLabelWithStyle("Policy", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	policyIntro := widget.NewLabel("What tools may touch, whatever you allow when asked: calls naming files outside these folders are refused before they run.")
	policyIntro.Wrapping = fyne.TextWrapWord
	execHint := "the model may propose commands; each is asked every time and runs sandboxed in the workspace"
	if u.cfg.Shell.Disabled {
		execHint = "shell.disabled is set in the config file: CMD: lines stay plain text until it is removed"
	}
	policy := widget.NewForm(
		&widget.FormItem{Text: "Workspace folder", Widget: f.workspace, HintText: "where tools and shell commands work; created on first use"},
		&widget.FormItem{Text: "Read roots", Widget: f.readRoots, HintText: "folders tools may read, one a line; empty: the workspace (write roots can be read too)"},
		&widget.FormItem{Text: "Write roots", Widget: f.writeRoots, HintText: "folders tools may read and write, one a line; empty: the workspace"},
		&widget.FormItem{Text: "", Widget: f.allowExec, HintText: execHint},
	)
	settings := container.NewVBox(form, widget.NewSeparator(), policyHeading, policyIntro, policy)
	check := widget.NewButtonWithIcon("Check", theme.SearchIcon(), func() { u.checkModel(f, w) })
	cancel := widget.NewButton("Close", w.Hide)
	path, pathObj := caption("Saved in " + u.cfg.Path)
	path.Truncation = fyne.TextTruncateEllipsis
	buttons := container.NewHBox(check, layout.NewSpacer(), cancel, f.save)
	w.SetContent(container.NewPadded(container.NewBorder(nil, container.NewVBox(pathObj, buttons), nil, nil, container.NewVScroll(settings))))
	w.Resize(fyne.NewSize(720, 640))
	w.SetCloseIntercept(w.Hide)
	u.settingsW = w
	w.Show()
}

func (u *UI) newSettingsForm(w fyne.Window) *settingsForm {
	m := u.cfg.Model
	f := &settingsForm{
		baseURL:   widget.NewEntry(),
		model:     widget.NewSelectEntry(nil),
		apiKeyEnv: widget.NewEntry(),
		budget:    widget.NewEntry(),
		timeout:   widget.NewEntry(),
		rules:     widget.NewMultiLineEntry(),
	}
	f.baseURL.SetText(m.BaseURL)
	f.baseURL.SetPlaceHolder("http://127.0.0.1:11434/v1")
	f.model.SetText(m.Name)
	f.model.SetPlaceHolder("llama3.2, gpt-4o-mini, …")
	f.apiKeyEnv.SetText(m.APIKeyEnv)
	f.apiKeyEnv.SetPlaceHolder("OPENAI_API_KEY")
	f.budget.SetText(strconv.Itoa(m.MaxContextTokens))
	f.timeout.SetText(u.cfg.MCP.ApprovalTimeout.String())
	f.rules.SetText(config.FormatRules(u.cfg.MCP.AutoApprove))
	f.rules.SetMinRowsVisible(4)
	p := u.cfg.Policy
	f.workspace = widget.NewEntry()
	f.workspace.SetText(p.Workspace)
	f.workspace.SetPlaceHolder(config.DefaultWorkspace)
	f.readRoots, f.writeRoots = widget.NewMultiLineEntry(), widget.NewMultiLineEntry()
	for _, r := range []struct {
		e     *widget.Entry
		roots []string
		none  string
	}{
		{f.readRoots, p.FS.ReadRoots, "none besides the write roots (read_roots = [] in the config)"},
		{f.writeRoots, p.FS.WriteRoots, "none (write_roots = [] in the config)"},
	} {
		r.e.SetText(strings.Join(r.roots, "\n"))
		r.e.SetMinRowsVisible(3)
		// An empty list in the file is not the same as no list: say which.
		if r.roots != nil && len(rootLines(strings.Join(r.roots, "\n"))) == 0 {
			r.e.SetPlaceHolder(r.none)
		} else {
			r.e.SetPlaceHolder("the workspace (" + p.WorkspaceDir() + ")")
		}
	}
	f.allowExec = widget.NewCheck("Allow shell commands (CMD: lines)", nil)
	f.allowExec.SetChecked(p.AllowExec)
	f.save = widget.NewButtonWithIcon("Save", theme.DocumentSaveIcon(), func() {
		if err := u.saveSettings(f); err != nil {
			dialog.ShowError(err, w)
			return
		}
		w.Hide()
	})
	f.save.Importance = widget.HighImportance
	return f
}

// saveSettings checks the form, writes it to the config file (keeping the
// rest of the file as it is) and gives every conversation the new config.
func (u *UI) saveSettings(f *settingsForm) error {
	edits, tables, err := config.SettingsForm{
		BaseURL: f.baseURL.Text, Model: f.model.Text, APIKeyEnv: f.apiKeyEnv.Text,
		ContextBudget: f.budget.Text, ApprovalTimeout: f.timeout.Text, AutoApprove: f.rules.Text,
	}.Edits()
	if err != nil {
		return err
	}
	pol, err := policyEdits(u.cfg.Policy, f.workspace.Text, f.readRoots.Text, f.writeRoots.Text, f.allowExec.Checked)
	if err != nil {
		return err
	}
	return u.writeConfig(append(edits, pol...), tables)
}

// policyEdits reads the form's policy section into edits of the config
// file. Only what the person changed is written: a policy section written
// by hand (comments, a form the line editor cannot change) is left alone
// when they only change the model. An empty workspace or list of roots
// removes its key, which means the default (the workspace).
func policyEdits(was config.Policy, workspace, read, write string, allowExec bool) ([]config.Edit, error) {
	var edits []config.Edit
	workspace = strings.TrimSpace(workspace)
	if workspace != strings.TrimSpace(was.Workspace) {
		if workspace != "" && !absFolder(workspace) {
			return nil, fmt.Errorf("workspace folder: %q is not a full path: start it with / or ~/", workspace)
		}
		var v any
		if workspace != "" {
			v = workspace
		}
		edits = append(edits, config.Edit{Table: "policy", Key: "workspace", Value: v})
	}
	for _, r := range []struct {
		name, key, text string
		was             []string
	}{
		{"read roots", "read_roots", read, was.FS.ReadRoots},
		{"write roots", "write_roots", write, was.FS.WriteRoots},
	} {
		roots := rootLines(r.text)
		if slices.Equal(roots, rootLines(strings.Join(r.was, "\n"))) {
			continue
		}
		for _, root := range roots {
			if !absFolder(root) {
				return nil, fmt.Errorf("%s: %q is not a full path: start it with / or ~/", r.name, root)
			}
		}
		var v any
		if len(roots) > 0 {
			v = roots
		}
		edits = append(edits, config.Edit{Table: "policy.fs", Key: r.key, Value: v})
	}
	if allowExec != was.AllowExec {
		edits = append(edits, config.Edit{Table: "policy", Key: "allow_exec", Value: allowExec})
	}
	return edits, nil
}

// rootLines are the folders of a roots entry: one a line, blank lines
// dropped.
func rootLines(text string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// absFolder reports whether p names a folder wherever Deckhand was started
// from: absolute, or in the home folder.
func absFolder(p string) bool {
	return filepath.IsAbs(p) || p == "~" || strings.HasPrefix(p, "~/")
}

// writeConfig applies edits to the config file, then reloads it.
func (u *UI) writeConfig(edits []config.Edit, tables map[string]map[string]any) error {
	if err := config.Update(u.cfg.Path, edits, tables); err != nil {
		return err
	}
	cfg, err := config.LoadForUpdate(u.cfg.Path)
	if err != nil {
		return err
	}
	u.setConfig(cfg)
	return nil
}

// checkModel asks the endpoint in the form for its models and offers them.
func (u *UI) checkModel(f *settingsForm, w fyne.Window) {
	base := strings.TrimSpace(f.baseURL.Text)
	if base == "" {
		dialog.ShowError(errors.New("model URL: give the API root first, such as http://127.0.0.1:11434/v1"), w)
		return
	}
	var key string
	if env := strings.TrimSpace(f.apiKeyEnv.Text); env != "" {
		key, _ = u.d.LookupEnv(env)
		if key == "" {
			dialog.ShowError(fmt.Errorf("API key variable: %s is not set in Deckhand's environment", env), w)
			return
		}
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		models, err := llm.ListModels(ctx, base, key)
		u.post(func() {
			if err != nil {
				dialog.ShowError(err, w)
				return
			}
			f.model.SetOptions(models)
			msg := fmt.Sprintf("%s answers with %d models.", base, len(models))
			if len(models) > 0 && !slices.Contains(models, strings.TrimSpace(f.model.Text)) {
				msg += " Pick one in Model."
			}
			dialog.ShowInformation("The model server answers", msg, w)
		})
	}()
}

// setupPanel replaces the chat until a model is set up: it says what to do
// and offers the model servers it finds on this machine.
type setupPanel struct {
	ui      *UI
	content fyne.CanvasObject
	found   *fyne.Container
	probing bool
}

func newSetupPanel(u *UI) *setupPanel {
	p := &setupPanel{ui: u, found: container.NewVBox()}
	heading := widget.NewLabelWithStyle("Choose a language model", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	heading.SizeName = theme.SizeNameSubHeadingText
	intro := widget.NewLabel("Deckhand works with any OpenAI-compatible chat API: a model running on this machine " +
		"(Ollama, llama.cpp, LM Studio) or a provider such as OpenAI or OpenRouter. " +
		"Start a local server and pick it below, or open Settings and give the provider's URL, the model's name " +
		"and the environment variable that holds your API key.")
	intro.Wrapping = fyne.TextWrapWord
	settings := widget.NewButtonWithIcon("Open settings", theme.SettingsIcon(), u.showSettings)
	again := widget.NewButtonWithIcon("Look again", theme.ViewRefreshIcon(), p.probe)
	box := container.NewVBox(heading, intro, widget.NewSeparator(), p.found, container.NewHBox(again, settings))
	p.content = container.NewVScroll(container.NewPadded(box))
	return p
}

// probe asks the usual local ports for models, off the UI goroutine.
func (p *setupPanel) probe() {
	if p.probing {
		return
	}
	p.probing = true
	p.found.Objects = []fyne.CanvasObject{widget.NewLabel("Looking for model servers on this machine…")}
	p.found.Refresh()
	go func() {
		found := p.ui.d.Probe(context.Background())
		p.ui.post(func() {
			p.probing = false
			p.show(found)
		})
	}()
}

func (p *setupPanel) show(found []llm.Endpoint) {
	var objs []fyne.CanvasObject
	if len(found) == 0 {
		var where []string
		for _, e := range llm.LocalEndpoints {
			where = append(where, fmt.Sprintf("%s (%s)", e.Name, e.Where()))
		}
		l := widget.NewLabel("No model server answered at " + strings.Join(where, ", ") + ".")
		l.Wrapping = fyne.TextWrapWord
		objs = append(objs, l)
	}
	for _, e := range found {
		models := widget.NewSelect(e.Models, nil)
		if len(e.Models) > 0 {
			models.SetSelectedIndex(0)
		} else {
			models.PlaceHolder = "no models loaded"
		}
		use := widget.NewButton("Use this", nil)
		use.Importance = widget.HighImportance
		use.OnTapped = func() {
			if models.Selected == "" {
				dialog.ShowError(fmt.Errorf("%s has no model loaded: load one there, then Look again", e.Name), p.ui.win)
				return
			}
			err := p.ui.writeConfig([]config.Edit{
				{Table: "model", Key: "base_url", Value: e.BaseURL},
				{Table: "model", Key: "name", Value: models.Selected},
			}, nil)
			if err != nil {
				dialog.ShowError(err, p.ui.win)
			}
		}
		label := widget.NewLabelWithStyle(fmt.Sprintf("%s at %s", e.Name, e.BaseURL), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		objs = append(objs, container.NewBorder(nil, nil, label, use, models))
	}
	p.found.Objects = objs
	p.found.Refresh()
}
