package widgets

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"
)

// HoverArea is content that is told when the pointer comes onto it and
// leaves it (an answer's header shows its model, tokens and speed while
// the pointer rests on it).
type HoverArea struct {
	widget.BaseWidget
	Content     fyne.CanvasObject // exported: the screen dump walks into it
	onIn, onOut func()
}

var _ desktop.Hoverable = (*HoverArea)(nil)

// NewHoverArea holds content; onIn and onOut are the pointer coming and
// going.
func NewHoverArea(content fyne.CanvasObject, onIn, onOut func()) *HoverArea {
	h := &HoverArea{Content: content, onIn: onIn, onOut: onOut}
	h.ExtendBaseWidget(h)
	return h
}

func (h *HoverArea) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(h.Content) }

func (h *HoverArea) MouseIn(*desktop.MouseEvent) { h.onIn() }

// MouseMoved counts as the pointer coming: the window sends no MouseIn
// when the pointer comes back onto the area it last was on (after
// Away, say).
func (h *HoverArea) MouseMoved(*desktop.MouseEvent) { h.onIn() }
func (h *HoverArea) MouseOut()                      { h.onOut() }
