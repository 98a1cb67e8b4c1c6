package gui

import (
	"context"
	"errors"
	"fmt"
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
	check := widget.NewButtonWithIcon("Check", theme.SearchIcon(), func() { u.checkModel(f, w) })
	cancel := widget.NewButton("Close", w.Hide)
	path, pathObj := caption("Saved in " + u.cfg.Path)
	path.Truncation = fyne.TextTruncateEllipsis
	buttons := container.NewHBox(check, layout.NewSpacer(), cancel, f.save)
	w.SetContent(container.NewPadded(container.NewBorder(nil, container.NewVBox(pathObj, buttons), nil, nil, container.NewVScroll(form))))
	w.Resize(fyne.NewSize(720, 560))
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
	return u.writeConfig(edits, tables)
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
