package gui

import (
	"context"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"deckhand/config"
	"deckhand/gui/settings"
	"deckhand/transport/llm"
)

func (u *UI) showSettings() {
	if u.settingsW != nil {
		u.settingsF.Show()
		return
	}
	u.settingsF = settings.Open(settingsHost{u})
	u.settingsW = u.settingsF.Window()
}

// showKeySettings opens the settings at the API key (the model refused
// the key sent).
func (u *UI) showKeySettings() {
	u.showSettings()
	u.settingsF.FocusKey()
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
		"Start a local server and pick it above, or open Settings, choose the provider, the model and paste your API key.")
	intro.Wrapping = fyne.TextWrapWord
	settings := widget.NewButtonWithIcon("Open settings", theme.SettingsIcon(), u.showSettings)
	again := widget.NewButtonWithIcon("Look again", theme.ViewRefreshIcon(), p.probe)
	// The actions stay in sight on a 640×480 screen at any text size: the
	// buttons are pinned under the page, and a server found (its Use
	// this) comes first in it, before the explanation, which scrolls.
	// Below the explanation, they were past the window's bottom at 120%.
	page := container.NewVScroll(container.NewPadded(container.NewVBox(p.found, widget.NewSeparator(), intro)))
	p.content = container.NewBorder(container.NewPadded(heading), container.NewPadded(container.NewHBox(again, settings)), nil, nil, page)
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
