package composer

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// boxLayout places the message box with the attach button on its
// left and the model picker and Send on its right while the box keeps
// at least narrowBox of width; in a narrower window the box takes the
// whole width and the buttons go on a row under it, so the box never
// shrinks to a sliver or below its three lines.
//
// Objects: attach, box, buttons.
type boxLayout struct {
	narrow bool
	owner  *fyne.Container // refreshed when the arrangement changes: its height does
}

// narrowBox is the least width the box keeps beside the buttons.
const narrowBox = 320

func (l *boxLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	attach, box, buttons := objs[0], objs[1], objs[2]
	pad := theme.Padding()
	am, bm := attach.MinSize(), buttons.MinSize()
	narrow := size.Width-am.Width-bm.Width-2*pad < narrowBox
	if narrow != l.narrow {
		l.narrow = narrow
		if l.owner != nil {
			// The height this layout asks for changed: lay the window out
			// again (not from inside this pass).
			owner := l.owner
			fyne.Do(owner.Refresh)
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
	attach, box, buttons := objs[0], objs[1], objs[2]
	pad := theme.Padding()
	am, xm, bm := attach.MinSize(), box.MinSize(), buttons.MinSize()
	if l.narrow {
		return fyne.NewSize(max(xm.Width, am.Width+bm.Width+pad), xm.Height+pad+max(am.Height, bm.Height))
	}
	// The narrow arrangement is what the window can shrink to.
	return fyne.NewSize(max(xm.Width, am.Width+bm.Width+pad), max(am.Height, xm.Height, bm.Height))
}
