// Package setup is what a person meets before the first chat: the
// first-run panel, in the chat's place until a model is set up (the model
// servers found on this machine, Look again, Open settings), and the
// window shown instead of Deckhand's when its config cannot be read
// (ShowConfigProblem).
//
// The window (package gui) is the panel's Host: the panel writes the
// config and opens the settings through it, and never sees the bridge.
//
// Concurrency: a Panel belongs to the UI goroutine; the local model
// servers are asked off it, and the answer comes back through Host.Post.
package setup

import (
	"context"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"deckhand/config"
	"deckhand/gui/widgets"
	"deckhand/transport/llm"
)

// Host is the window the first-run panel shows in (package gui's UI).
type Host interface {
	// Window is the main window, for the panel's dialogs.
	Window() fyne.Window
	// Probe asks the usual local ports for model servers. It blocks.
	Probe(ctx context.Context) []llm.Endpoint
	// WriteConfig applies edits to the config file and reloads it; the
	// window then shows the chat in the panel's place.
	WriteConfig(edits []config.Edit) error
	// ShowSettings opens the settings.
	ShowSettings()
	// Chosen is called once a model was chosen here: the first message is
	// next.
	Chosen()
	// Post runs f on the UI goroutine.
	Post(f func())
}

// Panel replaces the chat until a model is set up: it says what to do
// and offers the model servers it finds on this machine.
type Panel struct {
	host    Host
	content fyne.CanvasObject
	// Found holds the model servers found (or why none), for tests.
	Found   *fyne.Container
	probing bool
}

// New makes the panel; Probe fills it.
func New(host Host) *Panel {
	p := &Panel{host: host, Found: container.NewVBox()}
	heading := widget.NewLabelWithStyle("Choose a language model", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	heading.SizeName = theme.SizeNameSubHeadingText
	intro := widget.NewLabel("Deckhand works with any OpenAI-compatible chat API: a model running on this machine " +
		"(Ollama, llama.cpp, LM Studio) or a provider such as OpenAI or OpenRouter. " +
		"Start a local server and press Look again to find it, or open Settings, choose the provider, the model and paste your API key.")
	intro.Wrapping = fyne.TextWrapWord
	settings := widget.NewButtonWithIcon("Open settings", theme.SettingsIcon(), host.ShowSettings)
	again := widget.NewButtonWithIcon("Look again", theme.ViewRefreshIcon(), p.Probe)
	// The actions stay in sight on a 640×480 screen at any text size: the
	// buttons are pinned under the page, and a server found (its Use
	// this) comes first in it, before the explanation, which scrolls.
	// Below the explanation, they were past the window's bottom at 120%.
	page := container.NewVScroll(container.NewPadded(container.NewVBox(p.Found, widget.NewSeparator(), intro)))
	p.content = container.NewBorder(container.NewPadded(heading), container.NewPadded(container.NewHBox(again, settings)), nil, nil, page)
	return p
}

// Content is what the window shows in the chat's place.
func (p *Panel) Content() fyne.CanvasObject { return p.content }

// Probe asks the usual local ports for models, off the UI goroutine.
func (p *Panel) Probe() {
	if p.probing {
		return
	}
	p.probing = true
	p.Found.Objects = []fyne.CanvasObject{widget.NewLabel("Looking for model servers on this machine…")}
	p.Found.Refresh()
	go func() {
		found := p.host.Probe(context.Background())
		p.host.Post(func() {
			p.probing = false
			p.show(found)
		})
	}()
}

func (p *Panel) show(found []llm.Endpoint) {
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
	win := p.host.Window()
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
				widgets.ShowError(fmt.Errorf("%s has no model loaded: load one there, then Look again", e.Name), win)
				return
			}
			err := p.host.WriteConfig([]config.Edit{
				{Table: "model", Key: "base_url", Value: e.BaseURL},
				{Table: "model", Key: "name", Value: models.Selected},
			})
			if err != nil {
				widgets.ShowError(err, win)
				return
			}
			p.host.Chosen()
		}
		// The server's name and address under its models, not beside them:
		// a long address made the window wider than a small screen. Not
		// above them either: Use this comes first, in sight on a small
		// screen at any text size.
		label := widget.NewLabelWithStyle(fmt.Sprintf("%s at %s", e.Name, e.BaseURL), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		label.Wrapping = fyne.TextWrapBreak
		objs = append(objs, container.NewVBox(container.NewBorder(nil, nil, nil, use, models), label))
	}
	p.Found.Objects = objs
	p.Found.Refresh()
}
