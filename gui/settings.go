package gui

import (
	"context"
	"errors"
	"fmt"
	"math"
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

	"deckhand/clean"
	"deckhand/config"
	"deckhand/gui/settings"
	"deckhand/gui/widgets"
	"deckhand/keys"
	"deckhand/transport/llm"
)

// settingsForm holds the settings window's fields. It belongs to the UI
// goroutine.
type settingsForm struct {
	host settings.Host
	w    fyne.Window
	tabs *container.AppTabs

	// General: the model, its key, how it answers, the look.
	service   *widget.Select
	model     *widget.SelectEntry
	apiKey    *widget.Entry // typed, kept in the keyring on Save; never shown again
	keyStatus *widget.Label
	keyHint   *widget.Label       // under the key: where a key typed here is kept
	checked   *widget.Label       // what Check found
	checks    int                 // Checks asked: older answers are dropped
	pages     []*container.Scroll // the tabs' scrollers, in order
	opened    config.SettingsForm // the form as it opened (or was last saved): only changes are written
	removeKey *widget.Button
	// useFile: no keyring runs, and the person chose the key file (asked
	// first, told it is less safe); keyFile offers it.
	useFile   bool
	keyFile   *widget.Button
	keyCheck  int // the key status asked last: older answers are dropped
	prompt    *widget.Entry
	tempAuto  *widget.Check
	temp      *widget.Slider
	tempLabel *widget.Label
	theme     *widget.RadioGroup
	textSize  *widget.Slider
	textLabel *widget.Label

	// Permissions: grants and rules (settings_permissions.go), the policy.
	grants, rulesList                *fyne.Container
	workspace, readRoots, writeRoots *widget.Entry
	allowExec                        *widget.Check

	// Advanced.
	baseURL, apiKeyEnv, maxOut, budget, timeout *widget.Entry
	rules                                       *widget.Entry

	save    *widget.Button
	saving  bool // a key is on its way to the keyring
	syncing bool // the service and the URL are being matched
}

// heading is a section's title in the settings.
func heading(text string) *widget.Label {
	l := widget.NewLabelWithStyle(text, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	l.SizeName = theme.SizeNameSubHeadingText
	return l
}

// note is a paragraph of explanation.
func note(text string) *widget.Label {
	l := widget.NewLabel(text)
	l.Wrapping = fyne.TextWrapWord
	return l
}

func (u *UI) showSettings() {
	if u.settingsW != nil {
		u.settingsW.Show()
		u.settingsW.RequestFocus()
		u.settingsF.refreshKey()
		u.settingsF.listGrants()
		return
	}
	f := openSettings(settingsHost{u})
	u.settingsF, u.settingsW = f, f.w
}

// openSettings makes the settings' panel and shows it.
func openSettings(h settings.Host) *settingsForm {
	w := h.NewPanel("Deckhand: settings")
	if icon := h.Icon(); icon != nil {
		w.SetIcon(icon)
	}
	f := newSettingsForm(h, w)

	// General.
	check := widget.NewButtonWithIcon("Check", theme.SearchIcon(), f.checkModel)
	var keyBox *fyne.Container
	keyBox, f.keyHint = widgets.WithHint(container.NewBorder(nil, nil, nil, f.removeKey, widgets.OverPage(f.apiKey, f.page(0))), keyHintKeyring)
	model := widget.NewForm(widgets.WrappedHints(
		&widget.FormItem{Text: "Service", Widget: f.service, HintText: "where the model runs: on this computer, or a provider on the internet"},
		&widget.FormItem{Text: "Model", Widget: container.NewBorder(nil, nil, nil, check, widgets.OverPage(f.model, f.page(0))), HintText: "the model's name; Check asks the service which it offers"},
		&widget.FormItem{Text: "API key", Widget: keyBox},
	)...)
	answers := widget.NewForm(widgets.WrappedHints(
		&widget.FormItem{Text: "Instructions", Widget: widgets.OverPage(f.prompt, f.page(0)), HintText: "said to the model before every chat, such as \"Answer in French\" or \"I work in Go\""},
		&widget.FormItem{Text: "Creativity", Widget: container.NewBorder(nil, nil, f.tempAuto, f.tempLabel, f.temp), HintText: "temperature: low is focused and repeatable, high is varied"},
	)...)
	look := widget.NewForm(
		&widget.FormItem{Text: "Theme", Widget: f.theme},
		&widget.FormItem{Text: "Text size", Widget: container.NewBorder(nil, nil, nil, widgets.FixedWidth(f.textLabel, "150%"), f.textSize)},
	)
	general := container.NewVBox(
		heading("Language model"), model, f.checked, f.keyStatus, container.NewHBox(f.keyFile),
		widget.NewSeparator(), heading("Answers"), answers,
		widget.NewSeparator(), heading("Appearance"), look,
	)

	// Permissions.
	execHint := "the model may propose commands, each asked every time, and use the built-in shell tool; both run sandboxed in the workspace"
	if f.host.Config().Shell.Disabled {
		execHint = "shell.disabled is set in the config file: CMD: lines stay plain text until it is removed"
	}
	policy := widget.NewForm(widgets.WrappedHints(
		&widget.FormItem{Text: "Workspace folder", Widget: widgets.OverPage(f.workspace, f.page(1)), HintText: "where tools and shell commands work; created on first use"},
		&widget.FormItem{Text: "Read roots", Widget: widgets.OverPage(f.readRoots, f.page(1)), HintText: "folders tools may read, one a line; empty: the workspace (write roots can be read too)"},
		&widget.FormItem{Text: "Write roots", Widget: widgets.OverPage(f.writeRoots, f.page(1)), HintText: "folders tools may read and write, one a line; empty: the workspace"},
		&widget.FormItem{Text: "", Widget: f.allowExec, HintText: execHint},
	)...)
	permissions := container.NewVBox(
		heading("Always allowed"),
		note("Tools you answered \"Always\" for run without asking. Revoke one and it is asked again from its next call."),
		f.grants,
		widget.NewSeparator(), heading("Allowed by rule"),
		note("Rules from the settings file (mcp.auto_approve). They can be added under Advanced."),
		f.rulesList,
		widget.NewSeparator(), heading("Policy: what tools may touch"),
		note("What tools may touch, whatever you allow when asked: calls naming files outside these folders are refused before they run."),
		policy,
	)

	// Advanced.
	advanced := container.NewVBox(
		note("For developers and unusual setups. Most people never need these."),
		widget.NewForm(widgets.WrappedHints(
			&widget.FormItem{Text: "Model URL", Widget: widgets.OverPage(f.baseURL, f.page(2)), HintText: "any OpenAI-compatible API root, ending in /v1"},
			&widget.FormItem{Text: "API key variable", Widget: widgets.OverPage(f.apiKeyEnv, f.page(2)), HintText: "an environment variable holding the key; when set, it wins over the saved key"},
			&widget.FormItem{Text: "Longest answer", Widget: widgets.OverPage(f.maxOut, f.page(2)), HintText: "max_tokens, in tokens; empty: the model's own limit"},
			&widget.FormItem{Text: "Context budget", Widget: widgets.OverPage(f.budget, f.page(2)), HintText: "tokens per request; the oldest turns are dropped to fit"},
			&widget.FormItem{Text: "Approval timeout", Widget: widgets.OverPage(f.timeout, f.page(2)), HintText: "unanswered approvals are denied after this (e.g. 2m)"},
			&widget.FormItem{Text: "Auto-approve", Widget: widgets.OverPage(f.rules, f.page(2)), HintText: "one rule a line: alias.tool or alias.* (= false to always ask)"},
		)...),
	)

	pad := func(o fyne.CanvasObject) fyne.CanvasObject {
		sc := container.NewScroll(container.NewPadded(o))
		f.pages = append(f.pages, sc)
		return sc
	}
	f.tabs = container.NewAppTabs(
		container.NewTabItemWithIcon("General", theme.SettingsIcon(), pad(general)),
		container.NewTabItemWithIcon("Permissions", theme.AccountIcon(), pad(permissions)),
		container.NewTabItemWithIcon("Advanced", theme.ComputerIcon(), pad(advanced)),
	)
	f.tabs.OnSelected = func(t *container.TabItem) {
		if t.Text == "Permissions" {
			f.listGrants()
		}
	}
	cancel := widget.NewButton("Close", f.close)
	path, pathObj := widgets.Caption("Saved in " + f.host.Config().Path)
	path.Truncation = fyne.TextTruncateEllipsis
	buttons := container.NewHBox(layout.NewSpacer(), cancel, f.save)
	w.SetContent(container.NewBorder(nil, container.NewPadded(container.NewVBox(pathObj, buttons)), nil, nil, f.tabs))
	w.Resize(fyne.NewSize(760, 680))
	w.SetCloseIntercept(f.close)
	widgets.CloseKeys(w, f.close, h.App())
	f.showRules()
	f.listGrants()
	f.refreshKey()
	w.Show()
	return f
}

func newSettingsForm(h settings.Host, w fyne.Window) *settingsForm {
	m := h.Config().Model
	f := &settingsForm{
		host:      h,
		w:         w,
		baseURL:   widget.NewEntry(),
		model:     widget.NewSelectEntry(nil),
		apiKey:    widget.NewPasswordEntry(),
		keyStatus: note(""),
		checked:   note(""),
		apiKeyEnv: widget.NewEntry(),
		maxOut:    widget.NewEntry(),
		budget:    widget.NewEntry(),
		timeout:   widget.NewEntry(),
		rules:     widget.NewMultiLineEntry(),
		prompt:    widget.NewMultiLineEntry(),
		grants:    container.NewVBox(),
		rulesList: container.NewVBox(),
	}
	f.checked.Hide()
	names := []string{}
	for _, s := range settings.Services {
		names = append(names, s.Name)
	}
	f.service = widget.NewSelect(append(names, settings.OtherService), func(name string) {
		if f.syncing {
			return
		}
		for _, s := range settings.Services {
			if s.Name == name {
				f.syncing = true
				f.baseURL.SetText(s.URL)
				f.syncing = false
			}
		}
		if name == settings.OtherService && f.tabs != nil {
			f.tabs.SelectIndex(2)
			w.Canvas().Focus(f.baseURL)
		}
		f.refreshKey()
	})
	f.baseURL.OnChanged = func(string) {
		if f.syncing {
			return
		}
		f.syncing = true
		f.service.SetSelected(settings.ServiceOf(f.baseURL.Text))
		f.syncing = false
		f.refreshKey()
	}
	f.baseURL.SetText(m.BaseURL)
	f.baseURL.SetPlaceHolder("http://127.0.0.1:11434/v1")
	if m.BaseURL == "" {
		f.service.PlaceHolder = "choose one"
	}
	f.model.SetText(m.Name)
	f.model.SetPlaceHolder("llama3.2, gpt-4o-mini, …")
	f.apiKey.SetPlaceHolder("paste the key here")
	f.removeKey = widget.NewButtonWithIcon("Remove key", theme.DeleteIcon(), f.forgetKey)
	f.removeKey.Hide()
	f.keyFile = widget.NewButtonWithIcon("Keep the key in a file…", theme.DocumentSaveIcon(), f.askKeyFile)
	f.keyFile.Hide()
	f.apiKeyEnv.SetText(m.APIKeyEnv)
	f.apiKeyEnv.SetPlaceHolder("OPENAI_API_KEY")
	f.apiKeyEnv.OnChanged = func(string) { f.refreshKey() }
	if m.MaxOutputTokens > 0 {
		f.maxOut.SetText(strconv.Itoa(m.MaxOutputTokens))
	}
	f.maxOut.SetPlaceHolder("the model's own")
	f.budget.SetText(strconv.Itoa(m.MaxContextTokens))
	f.timeout.SetText(h.Config().MCP.ApprovalTimeout.String())
	f.rules.SetText(config.FormatRules(h.Config().MCP.AutoApprove))
	widgets.Growing(f.rules, 4)

	f.prompt.SetText(m.SystemPrompt)
	f.prompt.SetPlaceHolder("Optional. For example: Answer in British English. Explain commands before you run them.")
	f.prompt.Wrapping = fyne.TextWrapWord
	widgets.Growing(f.prompt, 4)
	f.temp = widget.NewSlider(0, 2)
	f.temp.Step = 0.1
	f.tempLabel = widget.NewLabel("")
	f.temp.OnChanged = func(v float64) { f.tempLabel.SetText(fmt.Sprintf("%.1f", v)) }
	f.tempAuto = widget.NewCheck("The model's default", func(on bool) {
		if on {
			f.temp.Disable()
			f.tempLabel.SetText("")
		} else {
			f.temp.Enable()
			f.tempLabel.SetText(fmt.Sprintf("%.1f", f.temp.Value))
		}
	})
	if m.Temperature != nil {
		f.temp.SetValue(*m.Temperature)
		f.tempAuto.SetChecked(false)
		f.tempLabel.SetText(fmt.Sprintf("%.1f", *m.Temperature))
	} else {
		f.temp.SetValue(0.7)
		f.tempAuto.SetChecked(true)
	}

	f.theme = widget.NewRadioGroup([]string{"System", "Light", "Dark"}, func(string) { h.ApplyLook(f.look()) })
	f.theme.Horizontal = true
	f.theme.Required = true
	f.textSize = widget.NewSlider(config.MinTextScale*100, config.MaxTextScale*100)
	// No steps: the thumb follows the pointer; the size is applied,
	// rounded to a percent, when the thumb is let go.
	f.textSize.Step = 0
	f.textLabel = widget.NewLabel("")
	f.textSize.OnChanged = func(v float64) { f.textLabel.SetText(fmt.Sprintf("%.0f%%", v)) }
	f.textSize.OnChangeEnded = func(float64) { h.ApplyLook(f.look()) }
	f.setLook(h.Config().UI)

	p := h.Config().Policy
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
		widgets.Growing(r.e, 3)
		// An empty list in the file is not the same as no list: say which.
		if r.roots != nil && len(settings.RootLines(strings.Join(r.roots, "\n"))) == 0 {
			r.e.SetPlaceHolder(r.none)
		} else {
			r.e.SetPlaceHolder("the workspace (" + p.WorkspaceDir() + ")")
		}
	}
	f.allowExec = widget.NewCheck("Allow shell commands (CMD: lines)", nil)
	f.allowExec.SetChecked(p.AllowExec)
	f.save = widget.NewButtonWithIcon("Save", theme.DocumentSaveIcon(), f.saveAndClose)
	f.save.Importance = widget.HighImportance
	f.opened = f.form()
	return f
}

// look is the theme and text size the form shows.
func (f *settingsForm) look() config.UI {
	ui := config.UI{Theme: strings.ToLower(f.theme.Selected), TextScale: math.Round(f.textSize.Value) / 100}
	if ui.Theme == config.ThemeSystem {
		ui.Theme = ""
	}
	if ui.TextScale == 1 {
		ui.TextScale = 0
	}
	return ui
}

func (f *settingsForm) setLook(ui config.UI) {
	t := ui.ThemeOrDefault()
	f.theme.SetSelected(strings.ToUpper(t[:1]) + t[1:])
	f.textSize.SetValue(ui.Scale() * 100)
	f.textLabel.SetText(fmt.Sprintf("%.0f%%", ui.Scale()*100))
}

// close hides the window; a look tried but not saved is undone.
func (f *settingsForm) close() {
	f.setLook(f.host.Config().UI)
	f.host.ApplyLook(f.host.Config().UI)
	f.w.Hide()
}

// temperature is the form's temperature as the config file's text.
func (f *settingsForm) temperature() string {
	if f.tempAuto.Checked {
		return ""
	}
	return strconv.FormatFloat(math.Round(f.temp.Value*10)/10, 'f', -1, 64)
}

// saveAndClose saves the form (a typed key first, to the
// keyring: off the UI goroutine, since the keyring may ask to be
// unlocked) and closes the window, or shows what is wrong.
func (f *settingsForm) saveAndClose() {
	if f.saving {
		return
	}
	key := strings.TrimSpace(f.apiKey.Text)
	if key == "" {
		if err := f.saveForm(); err != nil {
			dialog.ShowError(err, f.w)
			return
		}
		f.w.Hide()
		return
	}
	// Check the rest first: a bad field should not leave a key stored
	// for a URL that is not saved.
	if _, err := f.edits(); err != nil {
		dialog.ShowError(err, f.w)
		return
	}
	base := strings.TrimSpace(f.baseURL.Text)
	f.saving = true
	f.save.Disable()
	useFile := f.useFile
	go func() {
		var err error
		if useFile {
			var path string
			if path, err = keys.FilePath(""); err == nil {
				err = keys.StoreFile(path, base, key)
			}
		} else {
			err = keys.Store(base, key)
		}
		f.host.Post(func() {
			f.saving = false
			f.save.Enable()
			if err != nil {
				dialog.ShowError(keyError(err), f.w)
				return
			}
			// Redacted from the log and tool results before the
			// conversations get the config that uses it.
			f.host.AddSecret(key)
			f.apiKey.SetText("")
			if err := f.saveForm(); err != nil {
				f.refreshKey()
				dialog.ShowError(err, f.w)
				return
			}
			f.refreshKey()
			f.w.Hide()
		})
	}()
}

// page is the scroller of tab i, once made.
func (f *settingsForm) page(i int) func() *container.Scroll {
	return func() *container.Scroll {
		if i < len(f.pages) {
			return f.pages[i]
		}
		return nil
	}
}

// say puts text under the model, where the person looks next: what Check
// found, or why the settings opened.
func (f *settingsForm) say(text string, imp widget.Importance) {
	f.checked.SetText(text)
	f.checked.Importance = imp
	f.checked.Show()
	f.checked.Refresh()
	f.relayout()
}

// relayout lays the General page out again. A label shown (or hidden) in
// a page at rest otherwise keeps the size it had, and is not seen: what
// Check found never appeared once the pointer had rested on the button.
func (f *settingsForm) relayout() {
	if p := f.page(0)(); p != nil && p.Content != nil {
		p.Content.Refresh()
	}
}

// form is what the form holds.
func (f *settingsForm) form() config.SettingsForm {
	return config.SettingsForm{
		BaseURL: f.baseURL.Text, Model: f.model.Text, APIKeyEnv: f.apiKeyEnv.Text,
		ContextBudget: f.budget.Text, ApprovalTimeout: f.timeout.Text, AutoApprove: f.rules.Text,
		SystemPrompt: f.prompt.Text, Temperature: f.temperature(), MaxOutputTokens: f.maxOut.Text,
		UI: f.look(),
	}
}

// configChange is what saving the settings does to the config file.
type configChange struct {
	edits  []config.Edit
	tables map[string]map[string]any
}

// edits reads the form into edits of the config file.
func (f *settingsForm) edits() (configChange, error) {
	edits, tables, err := f.form().EditsSince(f.opened)
	if err != nil {
		return configChange{}, err
	}
	pol, err := settings.PolicyEdits(f.host.Config().Policy, f.workspace.Text, f.readRoots.Text, f.writeRoots.Text, f.allowExec.Checked)
	if err != nil {
		return configChange{}, err
	}
	return configChange{edits: append(edits, pol...), tables: tables}, nil
}

// saveForm checks the form, writes it to the config file (keeping the
// rest of the file as it is) and gives every conversation the new config.
func (f *settingsForm) saveForm() error {
	up, err := f.edits()
	if err != nil {
		return err
	}
	if err := f.host.WriteConfig(up.edits, up.tables); err != nil {
		return err
	}
	f.host.ApplyLook(f.host.Config().UI)
	f.showRules()
	f.opened = f.form() // what is saved is what a later save compares with
	return nil
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

// checkModel asks the endpoint in the form for its models and offers them,
// with the key typed, or else the one saved or in the environment.
func (f *settingsForm) checkModel() {
	// The answer is said under the model, where the person looks next: no
	// box to dismiss before picking one.
	say := f.say
	base := strings.TrimSpace(f.baseURL.Text)
	if base == "" {
		say("Choose a service first (or give the model URL under Advanced, such as http://127.0.0.1:11434/v1).", widget.DangerImportance)
		return
	}
	typed := strings.TrimSpace(f.apiKey.Text)
	m := config.Model{BaseURL: base, APIKeyEnv: strings.TrimSpace(f.apiKeyEnv.Text)}
	f.checks++
	n := f.checks
	say("Asking "+base+" for its models…", widget.MediumImportance)
	go func() {
		var models []string
		list := func(key keys.Key) error {
			k := key.Value()
			if typed != "" {
				k = typed
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			var err error
			models, err = llm.ListModelsFor(ctx, "", base, k)
			return err
		}
		var err error
		if typed != "" {
			err = list(keys.Key{})
		} else {
			// Without a key first: the keyring (locked, absent or slow)
			// is asked only when the server wants a key.
			err = keys.Try(m, f.host.LookupEnv, list, llm.NeedsKey)
		}
		f.host.Post(func() {
			if n != f.checks {
				return // a later Check is under way
			}
			var need *keys.KeyNeededError
			switch {
			case errors.As(err, &need):
				why := keyError(need.Err).Error()
				say(base+" asks for an API key (it refused the list without one), and "+strings.ToLower(why[:1])+why[1:], widget.DangerImportance)
				return
			case err != nil:
				say("The model server did not answer as expected: "+clean.Line(err.Error()), widget.DangerImportance)
				return
			}
			f.model.SetOptions(models)
			msg := fmt.Sprintf("%s answers with %d models.", base, len(models))
			if len(models) > 0 && !slices.Contains(models, strings.TrimSpace(f.model.Text)) {
				msg += " Pick one in Model."
			}
			say(msg, widget.SuccessImportance)
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
		"Start a local server and pick it below, or open Settings, choose the provider, the model and paste your API key.")
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
				return
			}
			p.ui.input.focus(p.ui.win) // the first message is next
		}
		// The name above its models: beside them, a long address made the
		// window wider than a small screen.
		label := widget.NewLabelWithStyle(fmt.Sprintf("%s at %s", e.Name, e.BaseURL), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		label.Wrapping = fyne.TextWrapBreak
		objs = append(objs, container.NewVBox(label, container.NewBorder(nil, nil, nil, use, models)))
	}
	p.found.Objects = objs
	p.found.Refresh()
}
