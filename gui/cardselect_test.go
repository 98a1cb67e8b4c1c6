package gui

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"

	"deckhand/config"
	"deckhand/gui/chat"
	"deckhand/gui/guitest"
	"deckhand/gui/widgets/richtext"
	"deckhand/testutil"
	"deckhand/transcript"
)

// sumText is the text of the tests' call of t.echo, whose result is
// "Echo: " and the text.
const sumText = "The sum of 2 and 100 is 102."

// cardChat is the window after a first answer, then a call of t.echo
// (allowed by a rule) and a second answer, all on screen.
func cardChat(t *testing.T) (*harness, *chat.RowView) {
	t.Helper()
	model := []testutil.ModelResponse{
		{Body: testutil.TextChunks("The first answer.")},
		{Body: testutil.ToolCallChunks(testutil.ToolCallSpec{ID: "c1", Name: "t__echo", Arguments: `{"text": "` + sumText + `"}`})},
		{Body: testutil.TextChunks("The second answer.")},
	}
	h := newHarness(t, harnessOptions{responses: model,
		cfg: func(c *config.Config) { c.MCP.AutoApprove = map[string]bool{"t.echo": true} }})
	h.say("first")
	h.until("the first answer", func() bool { return h.selTextWith("first answer") != nil })
	h.say("echo it")
	var c *chat.RowView
	h.until("the card and the second answer", func() bool {
		c = h.card("t.echo")
		return c != nil && c.Row.State == transcript.Succeeded && h.selTextWith("second answer") != nil
	})
	h.queue.Settle()
	return h, h.card("t.echo")
}

// drag presses the first button at from in st and drags to to (both
// absolute in the window), as the driver sends it.
func drag(st *richtext.SelText, from, to fyne.Position) {
	abs := fyne.CurrentApp().Driver().AbsolutePositionForObject(st)
	st.MouseDown(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: from.Subtract(abs)}, Button: desktop.MouseButtonPrimary})
	st.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: to.Subtract(abs), AbsolutePosition: to}, Dragged: fyne.Delta{DX: to.X - from.X, DY: to.Y - from.Y}})
	st.DragEnd()
}

// A tool card's result is selected as the answer's text is: a drag in it
// highlights and copies what it covers (Ctrl+C, and the primary
// selection), a double click its word, and right click offers Copy and
// Select all, which selects the call's arguments and result. In the
// window, a drag in the result highlighted nothing and copied nothing
// (new-user pass 12).
func TestToolCardResultSelectable(t *testing.T) {
	h, c := cardChat(t)
	out := c.Tool().OutSel
	from, _ := pointAt(t, out, "sum")
	to, _ := pointAt(t, out, " is 102")
	drag(out, from, to)
	if got, want := h.primary.text, "sum of 2 and 100"; got != want {
		t.Errorf("a drag in the result set the primary selection to %q, want %q", got, want)
	}
	if len(out.Marks.Objects) == 0 {
		t.Error("the drag highlights nothing in the result")
	}
	typeOnCanvas(h.ui.win.Canvas(), &fyne.ShortcutCopy{})
	if got := h.app.Clipboard().Content(); got != "sum of 2 and 100" {
		t.Errorf("Ctrl+C copied %q", got)
	}

	// A double click: the word.
	p, _ := pointAt(t, out, "sum")
	out.DoubleTapped(&fyne.PointEvent{Position: p.Subtract(fyne.CurrentApp().Driver().AbsolutePositionForObject(out)).AddXY(3, 0)})
	if got := h.primary.text; got != "sum" {
		t.Errorf("a double click on sum selected %q", got)
	}

	// Right click: Copy and Select all; Select all is the call's texts.
	out.TappedSecondary(&fyne.PointEvent{AbsolutePosition: p, Position: p.Subtract(fyne.CurrentApp().Driver().AbsolutePositionForObject(out))})
	menu := popUpMenuItems(h.ui.win.Canvas())
	if menu["Copy"] == nil || menu["Select all"] == nil {
		t.Fatalf("right click in the result offers %v, want Copy and Select all", slices.Collect(maps.Keys(menu)))
	}
	menu["Select all"].Action()
	want := "{\n  \"text\": \"" + sumText + "\"\n}\n\nEcho: " + sumText
	if got := h.primary.text; got != want {
		t.Errorf("Select all in the card selected %q, want %q", got, want)
	}
	h.app.Clipboard().SetContent("")
	menu["Copy"].Action() // the menu's Copy copies what is selected now
	if got := h.app.Clipboard().Content(); got != want {
		t.Errorf("the menu's Copy copied %q, want %q", got, want)
	}
}

// popUpMenuItems are the items of the pop-up menu on top of c, by label.
func popUpMenuItems(c fyne.Canvas) map[string]*fyne.MenuItem {
	items := map[string]*fyne.MenuItem{}
	top := c.Overlays().Top()
	if top == nil {
		return items
	}
	for _, o := range guitest.All[fyne.CanvasObject](top) {
		if m, ok := o.(*widget.PopUpMenu); ok {
			for _, it := range m.Items {
				// Fyne's menu item is unexported; its Item is not.
				if v := reflect.ValueOf(it).Elem().FieldByName("Item"); v.IsValid() {
					if mi, ok := v.Interface().(*fyne.MenuItem); ok && mi != nil {
						items[mi.Label] = mi
					}
				}
			}
		}
	}
	return items
}

// A drag from an answer above, across a tool card, into the answer below
// copies all three in order, the card's arguments and result among them,
// as highlighted; the drag skipped the card (new-user pass 12).
func TestSelectAcrossToolCard(t *testing.T) {
	h, c := cardChat(t)
	first, second := h.selTextWith("first answer"), h.selTextWith("second answer")
	from, _ := pointAt(t, first, "first answer")
	to, _ := pointAt(t, second, " answer.")
	drag(first, from, to)
	want := "first answer.\n\necho it\n\n{\n  \"text\": \"" + sumText + "\"\n}\n\nEcho: " + sumText + "\n\nThe second"
	if got := h.ui.chat.Sel.Text(); got != want {
		t.Errorf("the drag selected %q, want %q", got, want)
	}
	if got := h.primary.text; got != want {
		t.Errorf("the primary selection holds %q, want %q", got, want)
	}
	for name, s := range map[string]*richtext.SelText{"arguments": c.Tool().ArgsSel, "result": c.Tool().OutSel} {
		if len(s.Marks.Objects) == 0 {
			t.Errorf("the card's %s are not highlighted", name)
		}
	}
	typeOnCanvas(h.ui.win.Canvas(), &fyne.ShortcutCopy{})
	if got := h.app.Clipboard().Content(); got != want {
		t.Errorf("Ctrl+C copied %q, want %q", got, want)
	}
}

// The card's Copy copies the call: the tool, its arguments as JSON and
// its result; Tab from the message box reaches it, and at 640×480 brings
// it into view whole (9 of its 36 pixels showed above the list's edge).
func TestToolCardCopyInTheChat(t *testing.T) {
	h, c := cardChat(t)
	h.ui.win.Resize(fyne.NewSize(640, 480))
	h.queue.Settle()
	cv := h.ui.win.Canvas()
	cv.Focus(h.ui.input)
	var seen []string
	for range 40 {
		if c = h.card("t.echo"); c != nil && cv.Focused() == fyne.Focusable(c.Tool().Copy) {
			break
		}
		cv.FocusNext()
		h.queue.Settle()
		seen = append(seen, fmt.Sprintf("%T", cv.Focused()))
	}
	if c == nil || cv.Focused() != fyne.Focusable(c.Tool().Copy) {
		t.Fatalf("Tab from the message box never reached the card's Copy; it went through %q", seen)
	}
	d, list, cp := fyne.CurrentApp().Driver(), h.ui.chat.List, c.Tool().Copy
	if y := d.AbsolutePositionForObject(cp).Y - d.AbsolutePositionForObject(list).Y; y < 0 || y+cp.Size().Height > list.Size().Height {
		t.Errorf("the focused Copy is at %v to %v in a list %v high: not whole in view", y, y+cp.Size().Height, list.Size().Height)
	}
	cv.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeySpace})
	want := "t.echo\n\nArguments:\n{\n  \"text\": \"" + sumText + "\"\n}\n\nResult:\nEcho: " + sumText
	if got := h.app.Clipboard().Content(); got != want {
		t.Errorf("the card's Copy copied %q, want %q", got, want)
	}
}
