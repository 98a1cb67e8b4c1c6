package notice

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"deckhand/gui/chat/block"
	"deckhand/gui/widgets"
	"deckhand/transcript"
)

// Notice is a note from Deckhand, an error in the error colour; the
// last run's failure offers Retry, its Stop Continue and Retry, and a
// retry's notice, while its run waits to try again, Retry now.
type Notice struct {
	obj         fyne.CanvasObject
	icons       *widgets.StatusIcons
	icon        *widget.Icon
	RT          *widget.RichText
	Seg         *widget.TextSegment
	Buttons     *fyne.Container
	cont, retry *widget.Button
	key         *widget.Button // the settings, at the API key or the model's address or name
	now         *widget.Button // Retry now: the run's next try goes at once
	action      string
	run         string // the run that waits, for now
	try         int    // the try it waits for
}

// Actions are what a notice's buttons do.
type Actions struct {
	Continue, Retry func()
	// RetryNow: run waits to ask the model again (try try); that try
	// goes at once.
	RetryNow func(run string, try int)
	// KeySettings opens the settings at the API key; ModelSettings at
	// the model's address (transcript.ActionAddress) or name
	// (transcript.ActionModel).
	KeySettings   func()
	ModelSettings func(at string)
}

// New makes a notice, its icons from icons, its buttons doing do.
func New(icons *widgets.StatusIcons, do Actions) *Notice {
	n := &Notice{icons: icons, icon: widget.NewIcon(theme.InfoIcon())}
	// Dimmed (or in the error colour) beside its icon, not italic as well:
	// italic is a text style of its own, which Fyne parses its fonts again
	// for (about 8.7 MB of heap), and the chat measures a sample notice
	// each time its width or text size changes, whether one is shown or
	// not (TestPanelTextStyles).
	n.Seg = &widget.TextSegment{Style: widget.RichTextStyle{ColorName: theme.ColorNamePlaceHolder}}
	n.RT = widget.NewRichText(n.Seg)
	n.RT.Wrapping = fyne.TextWrapWord
	n.cont = widget.NewButtonWithIcon("Continue", theme.MediaPlayIcon(), func() { do.Continue() })
	n.retry = widget.NewButtonWithIcon("Retry", theme.ViewRefreshIcon(), func() { do.Retry() })
	n.key = widget.NewButtonWithIcon("Settings", theme.SettingsIcon(), func() {
		if n.action == transcript.ActionKey {
			do.KeySettings()
		} else {
			do.ModelSettings(n.action)
		}
	})
	n.now = widget.NewButtonWithIcon("Retry now", theme.MediaFastForwardIcon(), func() { do.RetryNow(n.run, n.try) })
	n.Buttons = container.NewHBox(n.cont, n.key, n.retry, n.now)
	n.Buttons.Hide()
	n.obj = block.Indented(container.New(&noticeLayout{}, n.icon, n.RT, n.Buttons))
	return n
}

// noticeLayout puts a notice's icon, its text and its buttons side by
// side, or, where the buttons would leave the text less than half again
// their width, the buttons under the text: at 640×480 a model's error
// wrapped into a column of 14 lines 190 px wide beside Settings and
// Retry, taller than the chat. Its height is the text's wrapped at the
// width laid out last (the chat measures a row by laying it out).
type noticeLayout struct{ w float32 }

// stacked reports whether, at width w, the buttons go under the text.
func (l *noticeLayout) stacked(objs []fyne.CanvasObject, w float32) bool {
	icon, actions := objs[0].MinSize(), objs[2]
	if !actions.Visible() {
		return false
	}
	aw := actions.MinSize().Width
	return w-icon.Width-2*theme.Padding()-aw < 1.5*aw
}

func (l *noticeLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	l.w = size.Width
	icon, rt, actions := objs[0], objs[1], objs[2]
	pad, is, as := theme.Padding(), icon.MinSize(), actions.MinSize()
	left := is.Width + pad
	if l.stacked(objs, size.Width) {
		rt.Resize(fyne.NewSize(size.Width-left, rt.MinSize().Height))
		rt.Resize(fyne.NewSize(size.Width-left, rt.MinSize().Height)) // wrapped at its width
		rt.Move(fyne.NewPos(left, 0))
		icon.Resize(is)
		icon.Move(fyne.NewPos(0, (rt.Size().Height-is.Height)/2))
		actions.Resize(as)
		actions.Move(fyne.NewPos(left, rt.Size().Height+pad))
		return
	}
	var right float32
	if actions.Visible() {
		right = as.Width + pad
		actions.Resize(as)
		actions.Move(fyne.NewPos(size.Width-as.Width, (size.Height-as.Height)/2))
	}
	rt.Resize(fyne.NewSize(size.Width-left-right, size.Height))
	rt.Move(fyne.NewPos(left, 0))
	icon.Resize(is)
	icon.Move(fyne.NewPos(0, (size.Height-is.Height)/2))
}

func (l *noticeLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	icon, rt, actions := objs[0].MinSize(), objs[1].MinSize(), objs[2]
	pad := theme.Padding()
	if l.w > 0 && l.stacked(objs, l.w) {
		as := actions.MinSize()
		return fyne.NewSize(icon.Width+pad+max(rt.Width, as.Width), rt.Height+pad+as.Height)
	}
	w, h := icon.Width+pad+rt.Width, max(icon.Height, rt.Height)
	if actions.Visible() {
		as := actions.MinSize()
		w, h = w+pad+as.Width, max(h, as.Height)
	}
	return fyne.NewSize(w, h)
}

// View is the notice, indented under its message's header.
func (n *Notice) View() fyne.CanvasObject { return n.obj }

// Set shows row r, with the buttons its Action asks for.
func (n *Notice) Set(r transcript.Row) {
	color := theme.ColorNamePlaceHolder
	widgets.SetIcon(n.icon, theme.InfoIcon())
	if r.Error {
		color = theme.ColorNameError
		widgets.SetIcon(n.icon, n.icons.Failed)
	}
	widgets.SetSegment(n.RT, n.Seg, strings.TrimSpace(r.Text), color)
	widgets.SetVisible(n.cont, r.Action == transcript.ActionContinue)
	n.action, n.run, n.try = r.Action, r.Run, r.Try
	widgets.SetVisible(n.retry, r.Action != transcript.ActionRetryNow)
	widgets.SetVisible(n.now, r.Action == transcript.ActionRetryNow)
	widgets.SetVisible(n.key, r.Action == transcript.ActionKey || r.Action == transcript.ActionAddress || r.Action == transcript.ActionModel)
	widgets.SetVisible(n.Buttons, r.Action != "")
}
