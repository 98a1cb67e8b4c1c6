package toolcard

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"deckhand/gui/widgets"
)

// header lays out a card's title line: the lead (the fold chevron and
// the state's icon), the tool's name, its state ("done in 7 ms",
// "running") and the tail (Open view, Show all) at the right edge. When
// they do not fit one line, the state goes under the name, and the name
// and the state wrap in the room left of the tail: an HBox drew Open view
// and Show all over "done in 7 ms" at 640×480 (128%), and cut "running"
// to "ru" and a long name at the card's edge.
//
// Its height depends on its width, which Fyne's MinSize is not given: it
// keeps the width it was last laid out at, as a wrapped label does (the
// chat lays a row out at the list's width before it measures it).
type header struct {
	name, state *widget.Label // the labels of objs[headName] and objs[headState]
	width       float32       // the last laid out at; 0 before the first layout
	plain       string        // the tool's name as set; the label may hold it with breaks (breakable)
}

// setName sets the tool's name, drawn on one line until the next layout
// finds it too wide.
func (l *header) setName(name string) {
	if name == l.plain {
		return
	}
	l.plain = name
	widgets.SetText(l.name, name)
}

// The title line's objects, in order.
const (
	headLead = iota
	headName
	headState
	headTail
)

// natural is a label's width on one line (its MinSize when not wrapped);
// 0 when it shows nothing.
func natural(o fyne.CanvasObject, l *widget.Label) float32 {
	if !o.Visible() || l.Text == "" {
		return 0
	}
	return fyne.MeasureText(l.Text, theme.TextSize(), l.TextStyle).Width + 2*theme.InnerPadding()
}

// nameWidth is the name's natural width, on one line as set.
func (l *header) nameWidth(o fyne.CanvasObject) float32 {
	if !o.Visible() || l.plain == "" {
		return natural(o, l.name)
	}
	return fyne.MeasureText(l.plain, theme.TextSize(), l.name.TextStyle).Width + 2*theme.InnerPadding()
}

// plan is where the title's parts go at width w: whether the state shares
// the name's line, and the name's and the state's widths.
func (l *header) plan(objs []fyne.CanvasObject, w float32) (oneLine bool, nameW, stateW, tailW, leadW float32) {
	pad := theme.Padding()
	leadW = objs[headLead].MinSize().Width
	if objs[headTail].Visible() {
		tailW = objs[headTail].MinSize().Width
	}
	nameNat := l.nameWidth(objs[headName])
	stateNat := natural(objs[headState], l.state)
	gaps := pad // after the lead
	if tailW > 0 {
		gaps += pad
	}
	if stateNat > 0 {
		gaps += pad
	}
	if leadW+nameNat+stateNat+tailW+gaps <= w {
		return true, nameNat, stateNat, tailW, leadW
	}
	room := max(w-leadW-tailW-pad-min(tailW, pad), 0)
	return false, room, max(w-leadW-pad, 0), tailW, leadW
}

// Layout places the parts at size.Width; the wrapped labels take their
// height from it.
func (l *header) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	l.width = size.Width
	pad := theme.Padding()
	oneLine, nameW, stateW, tailW, leadW := l.plan(objs, size.Width)
	lead, name, state, tail := objs[headLead], objs[headName], objs[headState], objs[headTail]
	// A name wider than its room wraps at its separators, not inside a
	// word; one that fits keeps its plain text (found and copied as it is).
	if l.plain != "" {
		text := l.plain
		if l.nameWidth(name) > nameW {
			text = widgets.Breakable(l.plain)
		}
		widgets.SetText(l.name, text)
	}
	x := leadW + pad
	name.Resize(fyne.NewSize(nameW, name.MinSize().Height))
	state.Resize(fyne.NewSize(stateW, state.MinSize().Height))
	if oneLine {
		h := size.Height
		lead.Move(fyne.NewPos(0, 0))
		lead.Resize(fyne.NewSize(leadW, h))
		name.Move(fyne.NewPos(x, 0))
		name.Resize(fyne.NewSize(nameW, h))
		state.Move(fyne.NewPos(x+nameW+pad, 0))
		state.Resize(fyne.NewSize(stateW, h))
	} else {
		first := l.firstLine(objs)
		lead.Move(fyne.NewPos(0, 0))
		lead.Resize(fyne.NewSize(leadW, first))
		name.Move(fyne.NewPos(x, 0))
		name.Resize(fyne.NewSize(nameW, first))
		state.Move(fyne.NewPos(x, first))
		state.Resize(fyne.NewSize(stateW, max(size.Height-first, state.MinSize().Height)))
	}
	tail.Move(fyne.NewPos(size.Width-tailW, 0))
	tail.Resize(fyne.NewSize(tailW, tail.MinSize().Height))
}

// firstLine is the height of the name's line when the state is below it.
func (l *header) firstLine(objs []fyne.CanvasObject) float32 {
	h := max(objs[headLead].MinSize().Height, objs[headName].MinSize().Height)
	if objs[headTail].Visible() {
		h = max(h, objs[headTail].MinSize().Height)
	}
	return h
}

// MinSize is as narrow as the lead and the tail with a little room for
// the name (which wraps), as high as the parts need at the width last
// laid out at.
func (l *header) MinSize(objs []fyne.CanvasObject) fyne.Size {
	pad := theme.Padding()
	w := objs[headLead].MinSize().Width + 2*pad + 4*theme.TextSize()
	if objs[headTail].Visible() {
		w += objs[headTail].MinSize().Width + pad
	}
	oneLine := true
	if l.width > 0 {
		oneLine, _, _, _, _ = l.plan(objs, l.width)
	}
	if oneLine {
		h := float32(0)
		for _, o := range objs {
			if o.Visible() {
				h = max(h, o.MinSize().Height)
			}
		}
		return fyne.NewSize(w, h)
	}
	h := l.firstLine(objs)
	if objs[headState].Visible() {
		h += objs[headState].MinSize().Height
	}
	return fyne.NewSize(w, h)
}
