package gui

import (
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
)

// What a person selects in the transcript becomes the desktop's primary
// selection once it is made: a drag across blocks at its end (not at each
// step), exactly what Ctrl+C copies; a double click, its word; Select all,
// the whole message. A click that selects nothing leaves it as it was.
func TestPrimarySelectionFromTranscript(t *testing.T) {
	h, para, code := blocksAnswer(t)
	drv := fyne.CurrentApp().Driver()
	from, _ := pointAt(t, para, "An")
	mid, _ := pointAt(t, h.selTextWith("second item"), "second")
	to, _ := pointAt(t, code, " two") // after "echo"
	abs := drv.AbsolutePositionForObject(para)
	// A drag with the middle button (the driver sends it as a drag too)
	// selects nothing.
	middle := &desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: from.Subtract(abs)}, Button: desktop.MouseButtonTertiary}
	para.MouseDown(middle)
	para.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: to.Subtract(abs), AbsolutePosition: to}, Dragged: fyne.Delta{DX: to.X - from.X, DY: to.Y - from.Y}})
	para.MouseUp(middle)
	para.DragEnd()
	if got := h.ui.chat.Sel.Text(); got != "" || len(h.primary.sets) != 0 {
		t.Errorf("a drag with the middle button selected %q and set the primary selection to %q", got, h.primary.sets)
	}
	para.MouseDown(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: from.Subtract(abs)}, Button: desktop.MouseButtonPrimary})
	for _, p := range []fyne.Position{mid, to} {
		para.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: p.Subtract(abs), AbsolutePosition: p}})
	}
	if len(h.primary.sets) != 0 {
		t.Errorf("the primary selection was set during the drag: %q", h.primary.sets)
	}
	para.DragEnd()
	want := "An opening paragraph.\n\n• first item\n• second item\n\necho one\necho"
	if !slices.Equal(h.primary.sets, []string{want}) {
		t.Errorf("after the drag the primary selection was set to %q, want once %q", h.primary.sets, want)
	}
	typeOnCanvas(h.ui.win.Canvas(), &fyne.ShortcutCopy{})
	if got := h.app.Clipboard().Content(); got != h.primary.text {
		t.Errorf("Ctrl+C copied %q, the primary selection holds %q", got, h.primary.text)
	}

	// A double click: the word.
	p, _ := pointAt(t, code, "echo")
	code.DoubleTapped(&fyne.PointEvent{Position: p.Subtract(drv.AbsolutePositionForObject(code)).AddXY(3, 0)})
	if got := h.primary.text; got != "echo" {
		t.Errorf("after a double click on echo, the primary selection = %q, want %q", got, "echo")
	}

	// A click (a press and a release, no drag) selects nothing: the
	// primary selection stays what it was.
	n := len(h.primary.sets)
	para.MouseDown(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: from.Subtract(abs)}, Button: desktop.MouseButtonPrimary})
	para.MouseUp(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: from.Subtract(abs)}, Button: desktop.MouseButtonPrimary})
	para.Tapped(&fyne.PointEvent{Position: from.Subtract(abs)})
	if len(h.primary.sets) != n {
		t.Errorf("a click set the primary selection to %q", h.primary.sets[n:])
	}

	// Select all: the whole message.
	h.ui.chat.Sel.SelectMessage(para.Row())
	want = "An opening paragraph.\n\n• first item\n• second item\n\necho one\necho two"
	if got := h.primary.text; got != want {
		t.Errorf("after Select all, the primary selection = %q, want %q", got, want)
	}

	// A middle click in the message box pastes it, and the transcript's
	// selection (what it pasted) stays, as a press of the first button
	// there would clear it.
	h.ui.input.SetText("")
	middle.Position = fyne.NewPos(2, theme.InnerPadding()+2)
	h.ui.input.MouseDown(middle)
	h.ui.input.MouseUp(middle)
	if got := h.ui.input.Text; got != want {
		t.Errorf("a middle click in the message box pasted %q, want %q", got, want)
	}
	if got := h.ui.chat.Sel.Text(); got != want {
		t.Errorf("after the middle click the transcript's selection is %q, want %q", got, want)
	}
}

// A middle click in the message box pastes the primary selection where
// it clicks, not at the caret, undone as one paste; one too long for the
// box is offered as a file, as a paste is. Text selected in the box
// becomes the primary selection.
func TestMiddleClickPastesPrimary(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	in := h.ui.input
	h.ui.win.Canvas().Focus(in)
	test.Type(in, "hello world") // the caret is at its end
	h.primary.text = "pasted "   // selected in another program
	// The start of the box's first line.
	start := fyne.NewPos(2, theme.InnerPadding()+2)
	middle := &desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: start}, Button: desktop.MouseButtonTertiary}
	in.MouseDown(middle)
	in.MouseUp(middle)
	if got, want := in.Text, "pasted hello world"; got != want {
		t.Errorf("after a middle click at the start, the box holds %q, want %q", got, want)
	}
	if len(h.primary.sets) != 0 {
		t.Errorf("the middle click set the primary selection to %q", h.primary.sets)
	}
	// Undone as one paste.
	in.TypedShortcut(&fyne.ShortcutUndo{})
	if got, want := in.Text, "hello world"; got != want {
		t.Errorf("after Ctrl+Z, the box holds %q, want %q", got, want)
	}

	// More than the box takes: the paste's notice, and the box as it was.
	h.primary.text = strings.Repeat("x", 100_000)
	in.MouseDown(middle)
	in.MouseUp(middle)
	h.until("the long paste's notice", func() bool { return h.shows(h.ui.win, "Attach it to the message as a text file") })
	if got, want := in.Text, "hello world"; got != want {
		t.Errorf("after a middle click with 100 KB selected, the box holds %q, want %q", got, want)
	}
	h.ui.win.Canvas().Overlays().Top().Hide()

	// A drag with the middle button held pastes, and selects nothing.
	h.primary.text = "more "
	end := start.AddXY(in.Size().Width/2, 0)
	in.MouseDown(middle)
	in.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: end}, Dragged: fyne.Delta{DX: end.X - start.X}})
	in.MouseUp(middle)
	in.DragEnd()
	if got, want := in.Text, "more hello world"; got != want || in.SelectedText() != "" || len(h.primary.sets) != 0 {
		t.Errorf("after a middle drag, the box holds %q (want %q) with %q selected, and the primary selection was set to %q",
			got, want, in.SelectedText(), h.primary.sets)
	}

	// A drag in the box selects: its text is the primary selection; so
	// is Ctrl+A's.
	in.MouseDown(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: start}, Button: desktop.MouseButtonPrimary})
	in.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: end}, Dragged: fyne.Delta{DX: end.X - start.X}})
	if len(h.primary.sets) != 0 {
		t.Errorf("the primary selection was set during the drag: %q", h.primary.sets)
	}
	in.MouseUp(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: end}, Button: desktop.MouseButtonPrimary})
	in.DragEnd()
	if got := h.primary.text; got != "more hello world" {
		t.Errorf("after a drag across the box's text, the primary selection = %q, want %q", got, "more hello world")
	}
	in.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEnd}) // no selection
	in.TypedShortcut(&fyne.ShortcutSelectAll{})
	if got, n := h.primary.text, len(h.primary.sets); got != "more hello world" || n != 2 {
		t.Errorf("after Ctrl+A in the box, the primary selection = %q after %d sets, want %q after 2", got, n, "more hello world")
	}
}
