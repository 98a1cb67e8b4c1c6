package connect

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"deckhand/gui/widgets"
)

// grantText is the grant dialog's question, in short sentences: what the
// server's arguments asked for, then what each answer lets it do. Without
// a grant the sandbox lets it at most read there (policy.ServerSpec
// writes only the write roots and its own write paths); what a server
// does without the folder Deckhand cannot know: server-filesystem, given
// no folder it can reach, stops ("None of the specified directories are
// accessible"). noneLeft: Neither leaves the server none of the folders
// its command line names.
func grantText(list string, n int, noneLeft bool) string {
	that, it := "That folder is", "it"
	if n > 1 {
		that, it = "Those folders are", "them"
	}
	text := fmt.Sprintf("This server's command line names %s. %s outside the folders servers may use "+
		"(the workspace and the policy's roots).\n\n"+
		"Read only: the server may read %s, but not change anything there.\n"+
		"Read and write: the server may also create, change and delete files there.\n"+
		"Neither: nothing is granted. The server can neither read nor write there. "+
		"It may refuse to start without %s.",
		list, that, it, it)
	if noneLeft {
		text += "\n\nThis server names no other folder: with Neither, it may not start at all."
	}
	return text
}

// askGrant asks whether the server may use the folders its arguments
// name, outside the policy's roots: read and write them, only read them,
// or neither (it may then refuse to start; noneLeft: it names no other
// folder). The answer goes into the form's fields, and the try goes on.
func (f *Form) askGrant(folders []string, noneLeft bool) {
	if f.granted == nil {
		f.granted = map[string]bool{}
	}
	list := strings.Join(folders, ", ")
	msg := widget.NewLabel(grantText(list, len(folders), noneLeft))
	msg.Wrapping = fyne.TextWrapWord
	answer := func(read, write bool) {
		for _, a := range folders {
			f.granted[a] = true
			switch {
			case write:
				f.write.SetText(strings.TrimSpace(f.write.Text + "\n" + a))
			case read:
				f.read.SetText(strings.TrimSpace(f.read.Text + "\n" + a))
			}
		}
		f.grant.Hide()
		f.grant = nil
		f.trySubmit()
	}
	// The default (marked, and what Enter answers) is the narrowest grant
	// that still serves the folder: Read only. Writing is a choice made
	// on purpose; Escape grants nothing.
	rw := widget.NewButton("Read and write", func() { answer(true, true) })
	ro := widget.NewButton("Read only", func() { answer(true, false) })
	ro.Importance = widget.HighImportance
	no := widget.NewButton("Neither", func() { answer(false, false) })
	// The title does not repeat the folders (the question names them): a
	// long path in it made the dialog as wide as the window, or wider.
	title := "Grant this folder?"
	if len(folders) > 1 {
		title = "Grant these folders?"
	}
	view := container.NewVScroll(msg)
	f.grant = dialog.NewCustomWithoutButtons(title, view, f.Win)
	f.grant.SetButtons([]fyne.CanvasObject{no, rw, ro})
	fitDialogText(f.grant, view, msg, f.Win.Canvas().Size())
	widgets.WithDialogKeys(f.grant, f.Win, func() { answer(true, false) }, func() { answer(false, false) })
}

// fitDialogText sizes a dialog whose content is a wrapped label in a
// scroller so that every line of it shows: the dialog is as high as the
// text at the dialog's width (560 px, or the window's width when the
// text is too high for the window at 560), and the text scrolls when even
// that does not fit. Fyne sized the dialog from the label's height before
// it wrapped at its width, and squeezed it into a small window, where its
// last lines went under the buttons ("sta t at all").
func fitDialogText(d *dialog.CustomDialog, view *container.Scroll, msg *widget.Label, canvas fyne.Size) {
	const padWidth = 32 // the dialog's margins about its content (Fyne's dialog.padWidth)
	pad := theme.Padding()
	view.SetMinSize(fyne.NewSize(1, 0))
	chrome := d.MinSize().Height - view.MinSize().Height // title, buttons and margins
	room := canvas.Height - 2*pad - chrome
	var width, need float32
	for _, w := range []float32{min(560, canvas.Width-2*pad), canvas.Width - 2*pad} {
		width = w
		msg.Resize(fyne.NewSize(w-padWidth, msg.MinSize().Height)) // its height at that width
		if need = msg.MinSize().Height; need <= room {
			break
		}
	}
	view.SetMinSize(fyne.NewSize(width-padWidth, max(min(need, room), 0)))
	d.Resize(fyne.NewSize(width, 0))
}
