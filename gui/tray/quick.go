package tray

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"deckhand/gui/widgets"
	"deckhand/transcript"
)

// Host is what the quick prompt asks of the window it belongs to.
type Host interface {
	// Configured reports whether a model is set up.
	Configured() bool
	// Ask sends text in the quick prompt's conversation (a new one for the
	// first question).
	Ask(text string)
	// ToMain moves the quick prompt's conversation to the main window and
	// shows it.
	ToMain()
	// Hidden: the quick prompt was closed (Escape, its window's close
	// button, Open in main window).
	Hidden()
	// Answer brings up, in the quick prompt, the approval of its call
	// (the model's id): the person pressed Approve or deny… on its line.
	Answer(call string)
	// RetryNow sends try try of run at once: the person pressed Retry now
	// while the run waited to ask the model again (Update.Retrying).
	RetryNow(run string, try int)
	// Quit is Ctrl+Q (Cmd+Q) in the prompt: Deckhand quits, asking
	// first while a run is going.
	Quit()
}

// Prompt is the small window the tray opens: one line to ask, the answer
// streaming below, in a session of its own. Its fields are the widgets it
// shows, for tests; they belong to the UI goroutine.
type Prompt struct {
	host     Host
	win      fyne.Window
	Entry    *widgets.EscEntry
	Question *widget.Label
	Calls    *fyne.Container // the tool calls' lines, above the answer
	Answer   *Answer
	Status   *widget.Label
	Notice   *widget.Label       // a retry's notice, under the calls, while the run waits to ask the model again
	Now      *widgets.RingButton // Retry now, at the same time
	bottom   *fyne.Container     // the status and the buttons
	column   *fyne.Container     // the question, its calls, the notice, the answer
	open     *widgets.RingButton
	visible  bool
	text     string
	retrying *Retrying // what Now asks for

	callViews []*callView
	icons     widgets.StatusIcons
}

// New makes the quick prompt's window, hidden; icon may be nil.
func New(app fyne.App, icon fyne.Resource, host Host) *Prompt {
	q := &Prompt{host: host, win: app.NewWindow("Deckhand: quick prompt"), icons: widgets.NewStatusIcons()}
	if icon != nil {
		q.win.SetIcon(icon)
	}
	q.Entry = widgets.NewEscEntry(q.hide) // Escape closes it, from the box too
	q.Entry.OnQuit = host.Quit
	q.Entry.SetPlaceHolder("Ask anything, then press Enter")
	q.Entry.OnSubmitted = q.submit
	q.Answer = newAnswer(app.Clipboard)
	var status fyne.CanvasObject
	q.Status, status = widgets.Caption("")
	q.Question = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	q.Question.Wrapping = fyne.TextWrapWord
	q.Question.Hide()
	q.Calls = container.NewVBox()
	q.Calls.Hide()
	// Ring buttons: focused with Tab, Enter presses them as Space does,
	// and Escape still closes the prompt (Fyne's button took Space alone
	// and kept the other keys: Enter on Retry now did nothing).
	q.open = widgets.NewRingButtonWithIcon("Open in main window", theme.ComputerIcon(), func() {
		q.hide()
		host.ToMain()
	})
	q.open.Disable()
	q.Now = widgets.NewRingButtonWithIcon("Retry now", theme.MediaFastForwardIcon(), func() {
		if r := q.retrying; r != nil {
			q.host.RetryNow(r.Run, r.Try)
		}
	})
	q.Now.Hide()
	// The notice says the error, the try and when: more than one line at
	// the prompt's width, so it goes with the answer, which wraps.
	q.Notice = widget.NewLabel("")
	q.Notice.Wrapping = fyne.TextWrapWord
	q.Notice.Importance = widget.WarningImportance
	q.Notice.Hide()
	// The status takes what the buttons leave, wrapped: it never widens
	// the window (a failure's whole text, on one line, made it 2,309 px
	// wide on a 640 px screen), and is read whole (cut short, a question
	// behind another read "Your question goes when the one befor…" beside
	// Retry now). Its texts are short; a failure's whole text goes in the
	// notice.
	q.Status.Wrapping = fyne.TextWrapWord
	q.bottom = container.NewBorder(nil, nil, nil, container.NewHBox(q.Now, q.open), status)
	bottom := q.bottom
	q.column = container.NewVBox(q.Question, q.Calls, q.Notice, q.Answer)
	answer := container.NewVScroll(q.column)
	q.win.SetContent(container.NewPadded(container.NewBorder(q.Entry, bottom, nil, nil, answer)))
	q.win.Resize(fyne.NewSize(560, 340))
	// Near the middle of the screen, where a person looks when they call
	// it up (the window manager put it in the bottom-left corner).
	q.win.CenterOnScreen()
	q.win.SetCloseIntercept(q.hide)
	widgets.QuitKey(q.win, host.Quit)
	q.win.Canvas().SetOnTypedKey(func(k *fyne.KeyEvent) {
		if k.Name == fyne.KeyEscape {
			q.hide()
		}
	})
	return q
}

// Show brings the quick prompt up, its box focused.
func (q *Prompt) Show() {
	q.visible = true
	q.win.Show()
	q.win.RequestFocus()
	q.win.Canvas().Focus(q.Entry)
}

// Visible reports whether the quick prompt is up.
func (q *Prompt) Visible() bool { return q.visible }

// Window is the quick prompt's window (dialogs for its conversation open
// on it while it is up).
func (q *Prompt) Window() fyne.Window { return q.win }

func (q *Prompt) submit(text string) {
	if text == "" {
		return
	}
	if !q.host.Configured() {
		q.Status.SetText("No model is set up yet: open Settings in the main window.")
		return
	}
	q.Entry.SetText("")
	q.Question.SetText(text)
	q.Question.Show()
	q.text = ""
	q.Answer.Set("")
	q.setCalls(nil)
	q.Status.SetText("Asking…")
	q.retrying = nil
	q.showNotice("", false)
	q.open.Enable()
	q.host.Ask(text)
}

func (q *Prompt) hide() {
	q.visible = false
	q.win.Hide()
	q.host.Hidden()
}

// Update is the quick prompt's answer so far, made by the bridge (on its
// goroutine) for the next frame.
type Update struct {
	Asked   string           // the question the run answers
	Text    string           // the answer so far
	Running bool             // still answering
	Status  string           // how the run ended
	Calls   []transcript.Row // the tool calls made for it (Calls)
	// Retrying: the run waits to ask the model again after a refusal that
	// may pass (a 429, a 503); nil when it does not wait.
	Retrying *Retrying
	// Failed is why the last run failed ("" when it did not), said in
	// whole under the question; Status is then short.
	Failed string
	// Behind: the question asked waits behind a run still going (the
	// question before, RunQueued).
	Behind bool
	// Gone: its chat was deleted. The prompt shows nothing of it, and the
	// next question starts a new chat.
	Gone bool
}

// Update shows the answer so far, and the tool calls made for it.
func (q *Prompt) Update(up *Update) {
	if up.Gone {
		q.clear()
		return
	}
	if up.Asked == q.Question.Text {
		q.setCalls(up.Calls)
	} // else the bridge has not seen the run of the question asked yet
	if up.Text != q.text {
		q.text = up.Text
		q.Answer.Set(up.Text)
	}
	q.retrying = nil
	notice, failed := "", false
	switch {
	case up.Running && up.Behind:
		// The run going is the question before's: this one goes after.
		q.Status.SetText("Your question goes when the one before is answered…")
		if up.Retrying != nil {
			q.retrying = up.Retrying
			notice = "The question before waits: " + up.Retrying.Text
		}
	case up.Running && up.Retrying != nil:
		q.retrying = up.Retrying
		q.Status.SetText("Waiting to ask again…")
		notice = up.Retrying.Text
	case up.Running:
		q.Status.SetText("Answering…")
	case up.Failed != "":
		q.Status.SetText(up.Status)
		notice, failed = up.Failed, true
	default:
		q.Status.SetText(up.Status)
	}
	q.showNotice(notice, failed)
}

// showNotice shows notice (a retry's, or a failure) under the question,
// "" none, and Retry now while the run waits; it lays their containers
// out again when they show or hide (what is shown in one takes no room
// until then).
func (q *Prompt) showNotice(notice string, failed bool) {
	q.Notice.Importance = widget.WarningImportance
	if failed {
		q.Notice.Importance = widget.DangerImportance
	}
	q.Notice.SetText(notice)
	if q.Now.Visible() == (q.retrying != nil) && q.Notice.Visible() == (notice != "") {
		return
	}
	widgets.SetVisible(q.Now, q.retrying != nil)
	widgets.SetVisible(q.Notice, notice != "")
	q.bottom.Refresh()
	q.column.Refresh()
}

// Retrying is a retry's notice in the quick prompt: Text says the error,
// which try comes and when; Run waits for try Try, which Retry now sends.
type Retrying struct {
	Run, Text string
	Try       int
}

// clear empties the prompt: its chat was deleted (in the main window).
// It showed the question, its calls and Open in main window, which then
// opened nothing.
func (q *Prompt) clear() {
	q.Question.SetText("")
	q.Question.Hide()
	q.text = ""
	q.Answer.Set("")
	q.setCalls(nil)
	q.Status.SetText("")
	q.retrying = nil
	q.showNotice("", false)
	q.open.Disable()
}
