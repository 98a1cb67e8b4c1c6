package gui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"deckhand/gui/widgets"
)

// quickPrompt is the small window the tray opens: one line to ask, the
// answer streaming below, in a session of its own.
type quickPrompt struct {
	ui       *UI
	win      fyne.Window
	entry    *widgets.EscEntry
	question *widget.Label
	calls    *fyne.Container // the tool calls' lines, above the answer
	answer   *widget.RichText
	status   *widget.Label
	open     *widget.Button
	visible  bool
	text     string

	callViews []*quickCallView
	icons     widgets.StatusIcons
}

func (u *UI) showQuick() {
	if u.quick == nil {
		u.quick = newQuickPrompt(u)
	}
	q := u.quick
	q.visible = true
	q.win.Show()
	q.win.RequestFocus()
	q.win.Canvas().Focus(q.entry)
}

func newQuickPrompt(u *UI) *quickPrompt {
	q := &quickPrompt{ui: u, win: u.app.NewWindow("Deckhand: quick prompt"), icons: widgets.NewStatusIcons()}
	if u.d.Icon != nil {
		q.win.SetIcon(u.d.Icon)
	}
	q.entry = widgets.NewEscEntry(q.hide) // Escape closes it, from the box too
	q.entry.OnQuit = u.app.Quit
	q.entry.SetPlaceHolder("Ask anything, then press Enter")
	q.entry.OnSubmitted = q.submit
	q.answer = widget.NewRichText()
	q.answer.Wrapping = fyne.TextWrapWord
	var status fyne.CanvasObject
	q.status, status = widgets.Caption("")
	q.question = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	q.question.Wrapping = fyne.TextWrapWord
	q.question.Hide()
	q.calls = container.NewVBox()
	q.calls.Hide()
	q.open = widget.NewButtonWithIcon("Open in main window", theme.ComputerIcon(), func() {
		u.tell(&uiQuickToMain{})
		q.hide()
		u.showMain()
	})
	q.open.Disable()
	bottom := container.NewHBox(status, layout.NewSpacer(), q.open)
	answer := container.NewVScroll(container.NewVBox(q.question, q.calls, q.answer))
	q.win.SetContent(container.NewPadded(container.NewBorder(q.entry, bottom, nil, nil, answer)))
	q.win.Resize(fyne.NewSize(560, 340))
	q.win.SetCloseIntercept(q.hide)
	widgets.QuitKey(q.win, u.app)
	q.win.Canvas().SetOnTypedKey(func(k *fyne.KeyEvent) {
		if k.Name == fyne.KeyEscape {
			q.hide()
		}
	})
	return q
}

func (q *quickPrompt) submit(text string) {
	if text == "" {
		return
	}
	if !q.ui.cfg.Model.Configured() {
		q.status.SetText("No model is set up yet: open Settings in the main window.")
		return
	}
	q.entry.SetText("")
	q.question.SetText(text)
	q.question.Show()
	q.text = ""
	q.answer.ParseMarkdown("")
	q.setCalls(nil)
	q.status.SetText("Asking…")
	q.open.Enable()
	q.ui.tell(&uiQuickPrompt{text: text})
}

func (q *quickPrompt) hide() {
	q.visible = false
	q.win.Hide()
}

// update shows the answer so far, and the tool calls made for it.
func (q *quickPrompt) update(up *quickUpdate) {
	if up.asked == q.question.Text {
		q.setCalls(up.calls)
	} // else the bridge has not seen the run of the question asked yet
	if up.text != q.text {
		q.text = up.text
		q.answer.ParseMarkdown(up.text)
	}
	if up.running {
		q.status.SetText("Answering…")
	} else {
		q.status.SetText(up.status)
	}
}

// SetTrayHost says whether a tray host is on the desktop now (the caller
// watches the session bus; call it on the UI goroutine). With one, closing
// the main window keeps Deckhand in the tray; without, closing quits, and a
// main window closed to the tray comes back, since there is no icon left
// to bring it back from. Start puts the tray menu in when Deps.Tray is set,
// with a host or not (its icon shows when one comes); this then says what
// closing does.
func (u *UI) SetTrayHost(up bool) {
	u.d.Tray = up
	if !up && u.hidden {
		u.showMain()
	}
}

// installTray puts Deckhand's menu in the system tray.
func (u *UI) installTray() {
	da, ok := u.app.(desktop.App)
	if !ok {
		return
	}
	show := fyne.NewMenuItem("Show Deckhand", u.showMain)
	quick := fyne.NewMenuItem("Quick prompt…", u.showQuick)
	quit := fyne.NewMenuItem("Quit", u.app.Quit)
	quit.IsQuit = true
	da.SetSystemTrayMenu(fyne.NewMenu("Deckhand", show, quick, fyne.NewMenuItemSeparator(), quit))
	if u.d.Icon != nil {
		da.SetSystemTrayIcon(u.d.Icon)
	}
}
