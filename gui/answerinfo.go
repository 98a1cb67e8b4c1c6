package gui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"
)

// hoverArea shows what an answer's header has to say (the model, the
// tokens, the speed: transcript.Row.Info) while the pointer rests on it.
type hoverArea struct {
	widget.BaseWidget
	Content     fyne.CanvasObject // exported: the screen dump (screen.go) walks into it
	onIn, onOut func()
}

var _ desktop.Hoverable = (*hoverArea)(nil)

func newHoverArea(content fyne.CanvasObject, onIn, onOut func()) *hoverArea {
	h := &hoverArea{Content: content, onIn: onIn, onOut: onOut}
	h.ExtendBaseWidget(h)
	return h
}

func (h *hoverArea) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(h.Content) }

func (h *hoverArea) MouseIn(*desktop.MouseEvent)    { h.onIn() }
func (h *hoverArea) MouseMoved(*desktop.MouseEvent) {}
func (h *hoverArea) MouseOut()                      { h.onOut() }
