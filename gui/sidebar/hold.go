package sidebar

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"
)

// The list does not move under the person. A chat that gets a message
// (or an answer being written) comes to the top, but while the pointer is
// on the list, or a row's menu is open, the rows keep their order, their
// contents kept up to date; the order comes when the pointer leaves. A
// right-click aimed at one row opened the menu of another, which had just
// moved under the pointer as a chat's answer streamed.
//
// What the person asked for shows at once, order and all: a search
// typed, a chat deleted, pinned or unpinned, a new chat (the chats listed
// are not the same, or not pinned alike).
//
// Fyne tells the pointer's coming and going to the deepest object that
// listens under it: a row (which so draws its own hover, Fyne's list
// item hearing no more of it), else the list's gaps and its empty end (a
// listener under the list).

// holding reports whether the list keeps its order now.
func (s *Sidebar) holding() bool { return s.pointing > 0 || s.Menu != nil && s.Menu.Visible() }

// keepOrder is items in the order the list shows now, when they are the
// chats it shows, pinned alike: only their order changed, which the
// person did not ask for. Else it is items as they come.
func (s *Sidebar) keepOrder(items []Item) []Item {
	if len(items) != len(s.Items) {
		return items
	}
	at := make(map[string]int, len(items))
	for i, it := range s.Items {
		at[it.ID] = i
	}
	out := make([]Item, len(items))
	for _, it := range items {
		i, ok := at[it.ID]
		if !ok || s.Items[i].Pinned != it.Pinned || out[i].ID != "" {
			return items
		}
		out[i] = it
	}
	return out
}

// pointerIn is the pointer coming onto a row or the list's gaps.
func (s *Sidebar) pointerIn() { s.pointing = 1 }

// pointerOut is the pointer leaving a row or a gap. It may be coming onto
// the next one, which the window tells after: the order comes once the
// window has told it all, if the pointer is then on none.
func (s *Sidebar) pointerOut() {
	s.pointing = 0
	s.host.Post(s.release)
}

// release shows the bridge's last list, in its order, when the list no
// longer holds it.
func (s *Sidebar) release() {
	if s.holding() || s.latest == nil || sameOrder(s.latest, s.Items) {
		return
	}
	s.show(s.latest)
}

func sameOrder(a, b []Item) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].ID != b[i].ID {
			return false
		}
	}
	return true
}

// menuClosing: the menu goes (an action chosen, or a click elsewhere).
// The pointer is taken to be where it was when the menu opened, on the
// list, until it is seen to leave: the window tells where it is only when
// it moves, and a list let go at once could move under a pointer resting
// on it. Where its items lie is kept for menuChose (Fyne hides the menu
// before the item's action runs).
func (s *Sidebar) menuClosing() {
	s.pointing = 1
	drv := fyne.CurrentApp().Driver()
	list, size := drv.AbsolutePositionForObject(s.List), s.List.Size()
	s.menuOff = s.menuOff[:0]
	for _, item := range s.Menu.Items {
		at := drv.AbsolutePositionForObject(item).AddXY(item.Size().Width/2, item.Size().Height/2)
		s.menuOff = append(s.menuOff, at.X < list.X || at.Y < list.Y || at.X >= list.X+size.Width || at.Y >= list.Y+size.Height)
	}
}

// menuChose: the person chose the menu's i-th item, so the pointer is on
// it: the list lets go if the item lies off the list (the menu reached
// over the chat; Rename… and Delete… then ask in a dialog over the
// window, where the pointer stays).
func (s *Sidebar) menuChose(i int) {
	if i < len(s.menuOff) && s.menuOff[i] {
		s.pointing = 0
		s.host.Post(s.release)
	}
}

// listGaps listens for the pointer under the list: on its separators and
// below its last row, where no row is.
type listGaps struct {
	widget.BaseWidget
	s *Sidebar
}

var _ desktop.Hoverable = (*listGaps)(nil)

func newListGaps(s *Sidebar) *listGaps {
	g := &listGaps{s: s}
	g.ExtendBaseWidget(g)
	return g
}

func (g *listGaps) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(canvas.NewRectangle(color.Transparent))
}
func (g *listGaps) MouseIn(*desktop.MouseEvent)    { g.s.pointerIn() }
func (g *listGaps) MouseMoved(*desktop.MouseEvent) { g.s.pointerIn() }
func (g *listGaps) MouseOut()                      { g.s.pointerOut() }
