package composer

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// boxLayout places the message box with the attach button on its
// left and the model picker and Send on its right while the box keeps
// at least narrowBox of width; in a narrower window the box takes the
// whole width and the buttons go on a row under it, so the box never
// shrinks to a sliver or below its three lines (two in a short window).
//
// In a window less tall than shortWindow the box has two rows, not three:
// at 640x480 and 128% text, with a file attached and the find bar open,
// the transcript had two lines left.
//
// Objects: attach, box, buttons.
type boxLayout struct {
	narrow bool
	owner  *fyne.Container // the box, to find its window
	// relayout lays the chat's area out again, after this pass, when the
	// arrangement changed: its height did. (Refreshing the box alone left
	// it at the narrow arrangement's height once the window was wide
	// again.)
	relayout func()
	entry    interface{ SetMinRowsVisible(int) }
	short    bool
}

// narrowBox is the least width the box keeps beside the buttons.
const narrowBox = 320

// shortWindow is the height under which a window is short.
const shortWindow = 600

// fitRows gives the box its rows for the window's height now. MinSize
// calls it: the window asks for the composer's height as it is laid out
// at a new size (a change of height alone lays nothing of the composer
// out).
func (l *boxLayout) fitRows() {
	if l.owner == nil || l.entry == nil {
		return
	}
	c := fyne.CurrentApp().Driver().CanvasForObject(l.owner)
	if c == nil {
		return
	}
	if short := c.Size().Height < shortWindow; short != l.short {
		l.short = short
		rows := 3
		if short {
			rows = 2
		}
		l.entry.SetMinRowsVisible(rows)
	}
}

func (l *boxLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	attach, box, buttons := objs[0], objs[1], objs[2]
	pad := theme.Padding()
	am, bm := attach.MinSize(), buttons.MinSize()
	narrow := size.Width-am.Width-bm.Width-2*pad < narrowBox
	if narrow != l.narrow {
		l.narrow = narrow
		if l.relayout != nil {
			l.relayout() // the height this layout asks for changed
		}
	}
	if !narrow {
		attach.Move(fyne.NewPos(0, size.Height-am.Height))
		attach.Resize(am)
		buttons.Move(fyne.NewPos(size.Width-bm.Width, size.Height-bm.Height))
		buttons.Resize(bm)
		box.Move(fyne.NewPos(am.Width+pad, 0))
		box.Resize(fyne.NewSize(size.Width-am.Width-bm.Width-2*pad, size.Height))
		return
	}
	row := max(am.Height, bm.Height)
	box.Move(fyne.NewPos(0, 0))
	box.Resize(fyne.NewSize(size.Width, size.Height-row-pad))
	attach.Move(fyne.NewPos(0, size.Height-row+(row-am.Height)/2))
	attach.Resize(am)
	buttons.Move(fyne.NewPos(size.Width-bm.Width, size.Height-bm.Height))
	buttons.Resize(bm)
}

func (l *boxLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	l.fitRows()
	attach, box, buttons := objs[0], objs[1], objs[2]
	pad := theme.Padding()
	am, xm, bm := attach.MinSize(), box.MinSize(), buttons.MinSize()
	if l.narrow {
		return fyne.NewSize(max(xm.Width, am.Width+bm.Width+pad), xm.Height+pad+max(am.Height, bm.Height))
	}
	// The narrow arrangement is what the window can shrink to.
	return fyne.NewSize(max(xm.Width, am.Width+bm.Width+pad), max(am.Height, xm.Height, bm.Height))
}
