package dialogs

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"deckhand/clean"
	"deckhand/gui/widgets"
	"deckhand/tools"
)

// A call's arguments as the approval shows them: one row per argument,
// its key and the start of its value, so that no argument hides below
// another's long value (a 200-line first argument once pushed a second,
// dangerous one below the fold, with only a scroll bar to hint at it). A
// long value is folded to its first lines, with a button saying how much
// more there is, which opens it in place: what is shown is never a part of
// the call passed off as the whole.

// An argRow is one argument of the call shown.
type argRow struct {
	Key   *widget.Label
	Value *widget.RichText
	More  *widgets.RingButton // nil when the value is shown whole
	whole string              // the value in full, as shown when opened
	head  string              // its start, shown while folded
	start string              // its start on one line, for argStartsLine
}

// argFold is how much of each value shows while folded.
type argFold struct {
	lines int // lines of a value
	runes int // characters of a value (a long line wraps to many)
}

// foldFor is the fold for n arguments in a window of height h: in a small
// window (the quick prompt's, 640×480) one line of each, else a few.
func foldFor(n int, h float32) argFold {
	switch {
	case h < 560:
		return argFold{lines: 1, runes: 90}
	case n <= 3:
		return argFold{lines: 4, runes: 320}
	}
	return argFold{lines: 2, runes: 160}
}

// argEntry is a key and its value as JSON, in the call's order.
type argEntry struct {
	key string
	raw json.RawMessage
}

// argEntries reads the arguments' object, keeping its keys' order (the
// model's); ok is false when the arguments are not a JSON object.
func argEntries(raw []byte) (out []argEntry, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, false
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, false
		}
		key, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, false
		}
		out = append(out, argEntry{key, v})
	}
	if _, err := dec.Token(); err != nil {
		return nil, false
	}
	return out, true
}

// argText is a value as a person reads it: a string's text itself (its
// lines as lines), anything else as indented JSON; cleaned.
func argText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return clean.Text(s)
	}
	return clean.Text(tools.PrettyJSON(raw))
}

// foldText is text's start within f, and how much is left out ("" when
// nothing is).
func foldText(text string, f argFold) (head, rest string) {
	lines := strings.Split(text, "\n")
	n := min(len(lines), f.lines)
	head = strings.Join(lines[:n], "\n")
	r := []rune(head)
	cut := len(r) > f.runes
	if cut {
		head = string(r[:f.runes]) + "…"
	}
	switch more := len(lines) - n; {
	case more > 0:
		return head, fmt.Sprintf("%d %s", more, widgets.Plural(more, "more line", "more lines"))
	case cut:
		left := len([]rune(text)) - f.runes
		return head, fmt.Sprintf("%d %s", left, widgets.Plural(left, "more character", "more characters"))
	}
	return head, ""
}

// argsView lays out the arguments (raw JSON) for a window of height h: a
// row per key of an object; anything else (not an object, not JSON) as one
// value.
func argsView(raw []byte, h float32) (fyne.CanvasObject, []*argRow) {
	entries, ok := argEntries(raw)
	f := foldFor(len(entries), h)
	if !ok {
		text := clean.Text(tools.PrettyArgs(raw))
		r := newArgRow("", text, f)
		return container.NewVBox(r.object()), []*argRow{r}
	}
	if len(entries) == 0 {
		_, none := widgets.Subtle("No arguments.")
		return none, nil
	}
	var rows []*argRow
	var objs []fyne.CanvasObject
	for _, e := range entries {
		r := newArgRow(e.key, argText(e.raw), f)
		r.start = argStart(e.raw)
		rows = append(rows, r)
		objs = append(objs, r.object())
	}
	return container.NewVBox(objs...), rows
}

// argKeyMax is the longest key shown beside its value; a longer one goes
// above it, whole.
const argKeyMax = 24

func newArgRow(key, text string, f argFold) *argRow {
	r := &argRow{whole: text}
	r.head, r.More = text, nil
	head, rest := foldText(text, f)
	r.Value = widget.NewRichText(&widget.TextSegment{Style: widget.RichTextStyleCodeBlock, Text: head})
	r.Value.Wrapping = fyne.TextWrapBreak
	if rest != "" {
		r.head = head
		r.More = widgets.NewRingButton(rest, nil)
		r.More.Importance = widget.LowImportance
		folded := true
		r.More.OnTapped = func() {
			folded = !folded
			shown, label := r.whole, "Fold"
			if folded {
				shown, label = r.head, rest
			}
			r.Value.Segments[0].(*widget.TextSegment).Text = shown
			r.Value.Refresh()
			r.More.SetText(label)
		}
	}
	if key != "" {
		r.Key = widget.NewLabelWithStyle(clean.Line(key), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		r.Key.Wrapping = fyne.TextWrapBreak
	}
	return r
}

// object is the row, one line while folded: the key, the start of its
// value, and the button that opens it ("199 more lines"). A long key goes
// above, whole.
func (r *argRow) object() fyne.CanvasObject {
	var more fyne.CanvasObject
	if r.More != nil {
		more = container.NewVBox(r.More) // at the top, beside the value's first line
	}
	value := container.NewBorder(nil, nil, nil, more, r.Value)
	switch {
	case r.Key == nil:
		return value
	case len([]rune(r.Key.Text)) > argKeyMax:
		return container.NewVBox(r.Key, value)
	}
	r.Key.Wrapping = fyne.TextWrapOff
	return container.NewBorder(nil, nil, container.NewVBox(r.Key), nil, value)
}

// argStartMax is the most of a value argStartsLine shows.
const argStartMax = 32

// argStart is the start of a value (raw JSON) on one line: a string's
// first line, quoted, anything else as compact JSON; cut at argStartMax
// characters, with "…" when cut.
func argStart(raw json.RawMessage) string {
	var s string
	quote := json.Unmarshal(raw, &s) == nil
	if !quote {
		var buf bytes.Buffer
		if json.Compact(&buf, raw) != nil {
			buf.Reset()
			buf.Write(raw)
		}
		s = buf.String()
	}
	first, _, more := strings.Cut(clean.Text(s), "\n")
	first = clean.Line(first)
	if r := []rune(first); len(r) > argStartMax {
		first, more = string(r[:argStartMax]), true
	}
	if more {
		first += "…"
	}
	if quote {
		return "\u201c" + first + "\u201d"
	}
	return first
}

// argStartsLine names every argument with the start of its value, for
// below the scroll when their rows do not all fit in the window (the quick
// prompt's leaves the call some 170 px): what the call is about stays in
// sight above the buttons, each value whole a scroll away.
func argStartsLine(rows []*argRow) (*widget.Label, fyne.CanvasObject) {
	parts := make([]string, 0, len(rows))
	for _, r := range rows {
		if r.Key != nil {
			parts = append(parts, r.Key.Text+": "+r.start)
		}
	}
	l, obj := widgets.Caption(fmt.Sprintf("%d arguments (scroll to see each whole): %s", len(parts), strings.Join(parts, " · ")))
	l.Wrapping = fyne.TextWrapWord
	l.Importance = widget.WarningImportance
	return l, obj
}
