package gui

import (
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"

	"deckhand/gui/sidebar"
	"deckhand/gui/widgets"
	"deckhand/gui/widgets/richtext"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// ScreenItem is one thing a person sees in one of Deckhand's windows: for
// tests that drive the real binary with the mouse and keyboard, which find
// a button by what it says rather than by a pixel, and check what the
// window shows. X, Y, W and H are in pixels, within the window's content.
type ScreenItem struct {
	Window   string  `json:"window"`
	Kind     string  `json:"kind"` // button, label, entry, check, select, text, tab, row…
	Text     string  `json:"text"`
	X        float32 `json:"x"`
	Y        float32 `json:"y"`
	W        float32 `json:"w"`
	H        float32 `json:"h"`
	Visible  bool    `json:"visible"` // inside its window and the scrollers around it
	Focused  bool    `json:"focused,omitempty"`
	Disabled bool    `json:"disabled,omitempty"`
	Checked  bool    `json:"checked,omitempty"`
	Hint     string  `json:"hint,omitempty"` // an entry's placeholder; an icon button's tip
	// MinW is the width it needs (a button narrower than that cuts its
	// text), in pixels.
	MinW float32 `json:"min_w,omitempty"`
	// Unsized: shown, but never given a size by its container's layout
	// (W and H are then its minimum size). Something shown in a container
	// at rest, without laying it out again, stays like this and cannot be
	// seen.
	Unsized bool `json:"unsized,omitempty"`
	// CX, CY are the middle of the part in sight (inside its window and
	// its scrollers), where a click on it lands, in pixels.
	CX float32 `json:"cx,omitempty"`
	CY float32 `json:"cy,omitempty"`
}

// ScreenWindow is a window and its content's size in pixels.
type ScreenWindow struct {
	Title string  `json:"title"`
	W     float32 `json:"w"`
	H     float32 `json:"h"`
}

// Screen is what Deckhand's windows show.
type Screen struct {
	Windows []ScreenWindow `json:"windows"`
	Items   []ScreenItem   `json:"items"`
	// Animations: Fyne animates (the text cursor blinks), as the app's
	// settings say.
	Animations bool `json:"animations,omitempty"`
}

// screenParent is a widget of Deckhand's (here or in a subpackage) whose
// parts a Screen walks into.
type screenParent interface{ ScreenChildren() []fyne.CanvasObject }

// screenItem is a widget of Deckhand's (here or in a subpackage) that
// says what it is: its kind and text; leaf: what is inside it is not
// walked.
type screenItem interface {
	ScreenItem() (kind, text string, leaf bool)
}

// entryOf is one of Deckhand's entries (here or in a subpackage).
type entryOf interface{ EntryWidget() *widget.Entry }

// checkOf and selectOf are a check box and a select inside a widget that
// embeds them (a question form's fields).
type (
	checkOf  interface{ CheckWidget() *widget.Check }
	selectOf interface{ SelectWidget() *widget.Select }
)

// WriteScreen writes what every window of the app shows, as JSON. It
// waits for the Fyne thread.
func WriteScreen(w io.Writer) error {
	var s Screen
	fyne.DoAndWait(func() { s = screen() })
	return json.NewEncoder(w).Encode(s)
}

func screen() Screen {
	var s Screen
	a := fyne.CurrentApp()
	if a == nil {
		return s
	}
	s.Animations = a.Settings().ShowAnimations()
	drv := a.Driver()
	for _, win := range drv.AllWindows() {
		c := win.Canvas()
		size := c.Size()
		scale := c.Scale()
		s.Windows = append(s.Windows, ScreenWindow{Title: win.Title(), W: size.Width * scale, H: size.Height * scale})
		wk := &screenWalker{win: win, drv: drv, scale: scale, focused: c.Focused()}
		full := rect{0, 0, size.Width, size.Height}
		if content := c.Content(); content != nil {
			wk.walk(content, full)
		}
		for _, o := range c.Overlays().List() {
			wk.walk(o, full)
		}
		s.Items = append(s.Items, wk.out...)
	}
	return s
}

// minInSight is how much of a widget, across and down, must show for it
// to count as visible: a sliver under a scroller's edge cannot be read or
// clicked.
const minInSight = 4

type rect struct{ x, y, w, h float32 }

func (r rect) intersect(o rect) rect {
	x0, y0 := max(r.x, o.x), max(r.y, o.y)
	x1, y1 := min(r.x+r.w, o.x+o.w), min(r.y+r.h, o.y+o.h)
	return rect{x0, y0, max(0, x1-x0), max(0, y1-y0)}
}

type screenWalker struct {
	win     fyne.Window
	drv     fyne.Driver
	scale   float32
	focused fyne.Focusable
	out     []ScreenItem
	// titles are dialogs' titles, which Fyne's dialog layout places but
	// never sizes (they are drawn all the same): not Unsized.
	titles map[fyne.CanvasObject]bool
}

// leaf is what the screen says of a widget it does not walk into: its
// kind, its text and anything more.
func leaf(o fyne.CanvasObject) (kind, text string, extra func(*ScreenItem), ok bool) {
	switch x := o.(type) {
	case *widget.Button:
		return "button", x.Text, nil, true
	case *widgets.RingButton:
		return "button", x.Text, nil, true
	case *widget.Check:
		return "check", x.Text, func(it *ScreenItem) { it.Checked = x.Checked }, true
	case *widgets.PageCheck:
		return "check", x.Text, func(it *ScreenItem) { it.Checked = x.Checked }, true
	case *widget.Select:
		return "select", x.Selected, nil, true
	case *widgets.PageSelect:
		return "select", x.Selected, nil, true
	case *widget.Slider:
		return "slider", strconv.FormatFloat(x.Value, 'f', 2, 64), nil, true
	case *widgets.PageSlider:
		return "slider", strconv.FormatFloat(x.Value, 'f', 2, 64), nil, true
	case *widget.RadioGroup:
		return "radio", x.Selected, nil, true
	case *widget.Hyperlink:
		return "link", x.Text, nil, true
	case *widget.Label:
		return "label", x.Text, nil, true
	case *widgets.DimLabel:
		return "label", x.Text, nil, true
	case *widget.Entry:
		return "entry", x.Text, func(it *ScreenItem) { it.Hint = x.PlaceHolder }, true
	case entryOf:
		e := x.EntryWidget()
		return "entry", e.Text, func(it *ScreenItem) { it.Hint = e.PlaceHolder }, true
	case checkOf:
		c := x.CheckWidget()
		return "check", c.Text, func(it *ScreenItem) { it.Checked = c.Checked }, true
	case selectOf:
		return "select", x.SelectWidget().Selected, nil, true
	case *richtext.MDText:
		return "text", richString(&x.RichText), nil, true
	case *widget.RichText:
		return "text", richString(x), nil, true
	case *canvas.Text:
		return "text", x.Text, nil, true
	case *canvas.Image: // a picture laid out by itself (an image shown large)
		state := "empty"
		if x.Image != nil {
			state = "bitmap"
		}
		return "picture", state, nil, true
	}
	return "", "", nil, false
}

func (w *screenWalker) add(o fyne.CanvasObject, kind, text string, clip rect, extra func(*ScreenItem)) {
	pos := w.drv.AbsolutePositionForObject(o)
	size := o.Size()
	unsized := size.IsZero() && !w.titles[o]
	if size.IsZero() {
		size = o.MinSize() // laid out by a layout that never sized it (a dialog's title)
	}
	in := clip.intersect(rect{pos.X, pos.Y, size.Width, size.Height})
	it := ScreenItem{Window: w.win.Title(), Kind: kind, Text: text,
		X: pos.X * w.scale, Y: pos.Y * w.scale, W: size.Width * w.scale, H: size.Height * w.scale,
		Visible: in.w >= minInSight && in.h >= minInSight, MinW: o.MinSize().Width * w.scale, Unsized: unsized,
		CX: (in.x + in.w/2) * w.scale, CY: (in.y + in.h/2) * w.scale}
	if f, ok := o.(fyne.Focusable); ok && w.focused != nil && f == w.focused {
		it.Focused = true
	}
	if d, ok := o.(fyne.Disableable); ok && d.Disabled() {
		it.Disabled = true
	}
	if extra != nil {
		extra(&it)
	}
	w.out = append(w.out, it)
}

func (w *screenWalker) walk(o fyne.CanvasObject, clip rect) {
	w.walkAt(o, clip, 0)
}

func (w *screenWalker) walkAt(o fyne.CanvasObject, clip rect, depth int) {
	if o == nil || !o.Visible() {
		return
	}
	// The driver finds an object by walking what is drawn; one it does
	// not find (a list's spare row, kept for reuse, or anything under a
	// hidden parent) is at 0,0, where nothing but a window's root is.
	if depth > 0 && w.drv.AbsolutePositionForObject(o).IsZero() {
		if _, container := o.(*fyne.Container); !container {
			if kind, text, _, ok := leaf(o); ok && o.Size().IsZero() {
				// Not drawn, though it and every container around it
				// are shown, and never sized: shown in a container at
				// rest that was not laid out again.
				min := o.MinSize()
				w.out = append(w.out, ScreenItem{Window: w.win.Title(), Kind: kind, Text: text,
					W: min.Width * w.scale, H: min.Height * w.scale, Unsized: true})
			}
			return
		}
	}
	if kind, text, extra, ok := leaf(o); ok {
		w.add(o, kind, text, clip, extra)
		return
	}
	switch x := o.(type) {
	case *sidebar.Row:
		w.add(o, "row", x.Item().Title, clip, nil)
	case *sidebar.List:
		w.add(o, "sessions", "", clip, nil)
	case screenItem:
		kind, text, leaf := x.ScreenItem()
		var extra func(*ScreenItem)
		if b, ok := o.(*widgets.TipButton); ok && b.Tip != "" {
			extra = func(it *ScreenItem) { it.Hint = b.Tip } // an icon's name, as its tip shows it
		}
		w.add(o, kind, text, clip, extra)
		if leaf {
			return
		}
	case *richtext.SelText:
		// The selection's highlight, with the text it lies behind.
		if text, ok := x.Selected(); ok {
			w.add(o, "highlight", text, clip, nil)
		}
		// The find bar's marks: how many, and "current" if the current
		// match is among them.
		if x.Found > 0 {
			text := fmt.Sprint(x.Found)
			if x.FoundCur {
				text += " current"
			}
			w.add(o, "found", text, clip, nil)
		}
	}
	var kids []fyne.CanvasObject
	switch x := o.(type) {
	case screenParent:
		kids = x.ScreenChildren()
	case *richtext.SelText:
		kids = []fyne.CanvasObject{x.Rich}
	case *richtext.TableBox:
		kids = []fyne.CanvasObject{x.Scroll()}
	case *fyne.Container:
		kids = x.Objects
		if fmt.Sprintf("%T", x.Layout) == "*dialog.dialogLayout" && len(kids) > 4 {
			if w.titles == nil {
				w.titles = map[fyne.CanvasObject]bool{}
			}
			w.titles[kids[4]] = true
		}
	case *container.Scroll:
		pos := w.drv.AbsolutePositionForObject(o)
		clip = clip.intersect(rect{pos.X, pos.Y, o.Size().Width, o.Size().Height})
		kids = []fyne.CanvasObject{x.Content}
	case *container.Split:
		kids = []fyne.CanvasObject{x.Leading, x.Trailing}
	case *container.AppTabs:
		// Where each tab's button is, estimated from its text and icon
		// (Fyne keeps the buttons in its renderer): near enough to click.
		pos := w.drv.AbsolutePositionForObject(o)
		left, pad, in := pos.X+theme.Padding(), theme.Padding(), theme.InnerPadding()
		h := theme.IconInlineSize() + 2*in
		for _, t := range x.Items {
			tw := fyne.MeasureText(t.Text, theme.TextSize(), fyne.TextStyle{}).Width + 2*in
			if t.Icon != nil {
				tw += theme.IconInlineSize() + pad
			}
			x0 := left
			w.add(o, "tab", t.Text, clip, func(it *ScreenItem) {
				it.Checked = t == x.Selected()
				it.X, it.Y, it.W, it.H = x0*w.scale, pos.Y*w.scale, tw*w.scale, h*w.scale
				it.CX, it.CY = it.X+it.W/2, it.Y+it.H/2
			})
			left += tw + pad
		}
		if t := x.Selected(); t != nil {
			kids = []fyne.CanvasObject{t.Content}
		}
	case *widget.Form:
		for _, it := range x.Items {
			kids = append(kids, it.Widget)
		}
	case *widget.PopUp:
		kids = []fyne.CanvasObject{x.Content}
	case *widget.PopUpMenu:
		// A context menu's items, each where the driver placed it.
		for _, item := range x.Items {
			if mi := menuItemOf(item); mi != nil && !mi.IsSeparator {
				w.add(item, "menuitem", mi.Label, clip, func(it *ScreenItem) { it.Disabled = mi.Disabled })
			}
		}
	case *widget.Card:
		if x.Title != "" {
			w.add(o, "title", x.Title, clip, nil)
		}
		kids = []fyne.CanvasObject{x.Content}
	case *widget.Accordion:
		for _, it := range x.Items {
			w.add(o, "section", it.Title, clip, func(s *ScreenItem) { s.Checked = it.Open })
			if it.Open {
				kids = append(kids, it.Detail)
			}
		}
	default:
		kids = contentOf(o)
	}
	for _, k := range kids {
		w.walkAt(k, clip, depth+1)
	}
}

// richString is a rich text's text as shown: a line break after each
// paragraph (RichText.String runs them together).
func richString(rt *widget.RichText) string {
	var b strings.Builder
	writeSegments(&b, rt.Segments)
	return strings.TrimRight(b.String(), "\n")
}

func writeSegments(b *strings.Builder, segs []widget.RichTextSegment) {
	for i, s := range segs {
		if i > 0 && !s.Inline() {
			b.WriteByte('\n')
		}
		switch x := s.(type) {
		case *widget.ListSegment: // its text is in its items
			for j, item := range x.Segments() {
				if j > 0 {
					b.WriteByte('\n')
				}
				writeSegments(b, []widget.RichTextSegment{item})
			}
		case *widget.ParagraphSegment: // a list item: its bullet, then its text
			for _, t := range x.Texts {
				writeSegments(b, []widget.RichTextSegment{t})
			}
		default:
			b.WriteString(s.Textual())
		}
	}
}

// contentOf is what a widget of Fyne's own internals shows through an
// exported Content field (the overlay that holds a dialog): found by
// reflection, since the type is not exported.
func contentOf(o fyne.CanvasObject) []fyne.CanvasObject {
	v := reflect.ValueOf(o)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return nil
	}
	f := v.Elem().FieldByName("Content")
	if !f.IsValid() || !f.CanInterface() {
		return nil
	}
	if c, ok := f.Interface().(fyne.CanvasObject); ok && c != nil {
		return []fyne.CanvasObject{c}
	}
	return nil
}

// menuItemOf is the item a menu's row shows (Fyne's row type is not
// exported; its Item field is).
func menuItemOf(o fyne.CanvasObject) *fyne.MenuItem {
	v := reflect.ValueOf(o)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return nil
	}
	f := v.Elem().FieldByName("Item")
	if !f.IsValid() || !f.CanInterface() {
		return nil
	}
	mi, _ := f.Interface().(*fyne.MenuItem)
	return mi
}

// ScreenText is every visible text of a Screen, a line each: a quick
// way to see what a window shows.
func (s Screen) ScreenText() string {
	var b strings.Builder
	for _, it := range s.Items {
		if it.Visible && it.Text != "" {
			fmt.Fprintf(&b, "[%s] %s\n", it.Kind, it.Text)
		}
	}
	return b.String()
}
