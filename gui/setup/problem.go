package setup

import (
	"fmt"
	"net/url"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// ConfigProblem is what the window needs when the config cannot be read:
// where it is, why, and the ways out.
type ConfigProblem struct {
	Path    string
	Problem error
	Icon    fyne.Resource
	// Retry reads the file again: nil when it now reads.
	Retry func() error
	// Defaults puts the broken file aside (renamed, kept) and returns its
	// new name.
	Defaults func() (string, error)
	// Done is called when the config reads (or the defaults are in
	// place): Deckhand starts over with it.
	Done func()
}

// ShowConfigProblem opens a window that says why the config cannot be
// read (the file, the line, the key, what is wrong) instead of no window
// at all, with Open config (in the person's editor), Try again, and Start
// with defaults (the broken file renamed aside, so nothing is lost).
func ShowConfigProblem(a fyne.App, p ConfigProblem) fyne.Window {
	w := a.NewWindow("Deckhand")
	if p.Icon != nil {
		w.SetIcon(p.Icon)
	}
	heading := widget.NewLabelWithStyle("Deckhand cannot read its settings", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	why := widget.NewLabel(p.Problem.Error())
	why.Wrapping = fyne.TextWrapWord
	why.Selectable = true
	why.TextStyle.Monospace = true
	why.Importance = widget.DangerImportance
	explain := widget.NewLabel(fmt.Sprintf("Nothing has been changed or lost. Fix %s and press Try again, or start with the "+
		"default settings: the file is then kept beside it under another name, to copy from later.", p.Path))
	explain.Wrapping = fyne.TextWrapWord
	status := widget.NewLabel("")
	status.Wrapping = fyne.TextWrapWord
	status.Hide()

	open := widget.NewButtonWithIcon("Open config", theme.DocumentIcon(), func() {
		u := &url.URL{Scheme: "file", Path: p.Path}
		if err := a.OpenURL(u); err != nil {
			status.SetText("Could not open the file: " + err.Error())
			status.Show()
		}
	})
	retry := widget.NewButtonWithIcon("Try again", theme.ViewRefreshIcon(), func() {
		if err := p.Retry(); err != nil {
			why.SetText(err.Error())
			status.SetText("Still not readable: the file says what is above.")
			status.Show()
			return
		}
		p.Done()
	})
	retry.Importance = widget.HighImportance
	defaults := widget.NewButtonWithIcon("Start with defaults", theme.MediaReplayIcon(), func() {
		aside, err := p.Defaults()
		if err != nil {
			status.SetText("Could not put the file aside: " + err.Error())
			status.Show()
			return
		}
		status.SetText("The broken file is kept as " + aside + ".")
		status.Show()
		p.Done()
	})
	quit := widget.NewButton("Quit", a.Quit)
	buttons := container.NewHBox(open, defaults, retry, quit)
	w.SetContent(container.NewPadded(container.NewBorder(
		container.NewVBox(heading, widget.NewSeparator()),
		container.NewVBox(explain, status, container.NewCenter(buttons)),
		nil, nil,
		container.NewVScroll(why),
	)))
	w.Resize(fyne.NewSize(720, 420))
	w.SetMaster()
	w.Show()
	return w
}
