// Package setup is what a person meets before the first chat: the
// first-run panel, in an empty chat's place until a model is set up (the
// model servers found on this machine, Look again, Open settings), its
// short form above the message box under a chat that has messages (Bar:
// the chat stays readable), and the window shown instead of Deckhand's
// when its config cannot be read (ShowConfigProblem).
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

// Panel replaces an empty chat until a model is set up: it says what to
// do and offers the model servers it finds on this machine. Its Bar says
// the same in short above the message box, under a chat with messages.
type Panel struct {
	host    Host
	content fyne.CanvasObject
	// Found holds the model servers found (or why none), for tests.
	Found *fyne.Container
	// bar is the short form; barFound, the servers found, in it.
	bar      fyne.CanvasObject
	barFound *fyne.Container
	barNote  *widget.Label // beside its buttons: looking, or none found
	// Resized, if set, is called when the bar's height may have changed
	// (servers found): the window lays out what is around it again.
	Resized func()
	probing bool
}

// New makes the panel; Probe fills it.
func New(host Host) *Panel {
	p := &Panel{host: host, Found: container.NewVBox(), barFound: container.NewVBox()}
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

	// The bar: the chat above it stays readable (new-user pass 13: a
	// past chat opened with no model set showed this panel, not its
	// messages). It is short, for a small window's chat: the words in a
	// line, what Look again found (or not) beside the buttons.
	say := widget.NewLabel("No language model is set up: this chat can be read, and sending needs one.")
	say.Wrapping = fyne.TextWrapWord
	say.Importance = widget.WarningImportance
	p.barNote = widget.NewLabel("")
	p.barNote.Wrapping = fyne.TextWrapWord
	barAgain := widget.NewButtonWithIcon("Look again", theme.ViewRefreshIcon(), p.Probe)
	barSettings := widget.NewButtonWithIcon("Open settings", theme.SettingsIcon(), host.ShowSettings)
	p.bar = container.NewVBox(widget.NewSeparator(), container.NewPadded(container.NewVBox(say, p.barFound,
		container.NewBorder(nil, nil, container.NewHBox(barAgain, barSettings), nil, p.barNote))))
	return p
}

// Content is what the window shows in an empty chat's place.
func (p *Panel) Content() fyne.CanvasObject { return p.content }

// Bar is what the window shows above the message box under a chat with
// messages: the panel's words in short, the servers found, Look again
// and Open settings.
func (p *Panel) Bar() fyne.CanvasObject { return p.bar }

// Probe asks the usual local ports for models, off the UI goroutine.
func (p *Panel) Probe() {
	if p.probing {
		return
	}
	p.probing = true
	p.fill([]fyne.CanvasObject{widget.NewLabel("Looking for model servers on this machine…")}, nil, "Looking…")
	go func() {
		found := p.host.Probe(context.Background())
		p.host.Post(func() {
			p.probing = false
			p.show(found)
		})
	}()
}

// show lists the servers found, in the panel and in its bar.
func (p *Panel) show(found []llm.Endpoint) {
	note := ""
	if len(found) == 0 {
		note = "No model server answered on this computer."
	}
	p.fill(p.servers(found, true), p.servers(found, false), note)
}

// fill puts rows in the panel, barRows and note in its bar (each its own
// widgets: a widget has one parent).
func (p *Panel) fill(rows, barRows []fyne.CanvasObject, note string) {
	p.Found.Objects = rows
	p.Found.Refresh()
	p.barFound.Objects = barRows
	p.barFound.Refresh()
	p.barNote.SetText(note)
	if p.Resized != nil {
		p.Resized()
	}
}

// servers are the rows of the servers found, each with its models and
// Use this; with why, where none was found, where none answered.
func (p *Panel) servers(found []llm.Endpoint, why bool) []fyne.CanvasObject {
	var objs []fyne.CanvasObject
	if len(found) == 0 && why {
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
	return objs
}
