package widgets

import (
	"unicode"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"
)

// FindEntry is a find bar's box: what is typed is looked for as it
// changes, Enter goes to the next match, Shift+Enter to the previous,
// Escape closes the bar, and the window's shortcuts work in it.
type FindEntry struct {
	widget.Entry
	onNext, onPrev, onEscape func()
	// Shortcut, if set, is the window's Ctrl (Cmd) shortcut on a key, or
	// nil.
	Shortcut func(fyne.KeyName) func()
	shift    bool
}

var _ desktop.Keyable = (*FindEntry)(nil)

// NewFindEntry looks with find as the text changes.
func NewFindEntry(find func(string), next, prev, escape func()) *FindEntry {
	e := &FindEntry{onNext: next, onPrev: prev, onEscape: escape}
	e.OnChanged = find
	e.ExtendBaseWidget(e)
	return e
}

// EntryWidget is the entry under it, for the window's screen dump.
func (e *FindEntry) EntryWidget() *widget.Entry { return &e.Entry }

func (e *FindEntry) KeyDown(k *fyne.KeyEvent) {
	if k.Name == desktop.KeyShiftLeft || k.Name == desktop.KeyShiftRight {
		e.shift = true
	}
	e.Entry.KeyDown(k)
}

func (e *FindEntry) KeyUp(k *fyne.KeyEvent) {
	if k.Name == desktop.KeyShiftLeft || k.Name == desktop.KeyShiftRight {
		e.shift = false
	}
	e.Entry.KeyUp(k)
}

func (e *FindEntry) FocusLost() {
	e.shift = false
	e.Entry.FocusLost()
}

func (e *FindEntry) TypedKey(k *fyne.KeyEvent) {
	switch k.Name {
	case fyne.KeyReturn, fyne.KeyEnter:
		if e.shift {
			e.onPrev()
		} else {
			e.onNext()
		}
		return
	case fyne.KeyEscape:
		e.onEscape()
		return
	}
	e.Entry.TypedKey(k)
}

// TypedShortcut: Ctrl+F again selects what the box holds; the window's
// other shortcuts work in it as in the message box.
func (e *FindEntry) TypedShortcut(s fyne.Shortcut) {
	if cs, ok := s.(*desktop.CustomShortcut); ok && cs.Modifier == fyne.KeyModifierShortcutDefault && e.Shortcut != nil {
		if f := e.Shortcut(cs.KeyName); f != nil {
			f()
			return
		}
	}
	e.Entry.TypedShortcut(s)
}

// FoldRunes is s in lower case, rune by rune (so that a place in it is a
// place in s).
func FoldRunes(s string) []rune {
	r := []rune(s)
	for i, c := range r {
		r[i] = unicode.ToLower(c)
	}
	return r
}

// FindRunes is where q starts in s, not overlapping.
func FindRunes(s, q []rune) []int {
	var out []int
	if len(q) == 0 {
		return nil
	}
	for i := 0; i+len(q) <= len(s); {
		if runesAt(s, i, q) {
			out = append(out, i)
			i += len(q)
			continue
		}
		i++
	}
	return out
}

func runesAt(s []rune, i int, q []rune) bool {
	for j, c := range q {
		if s[i+j] != c {
			return false
		}
	}
	return true
}

// RunPart is the part of a run a match covers: its characters [From, To).
type RunPart struct {
	Run      TextRun
	From, To int
}

// FindInRuns is where q (folded) is in what runs drew, line by line: the
// runs drawn side by side on one line are read as one text, so that a
// match split between them (a code block's tokens, each a run of its own
// colour: "return a" is three) is found, as the parts of each run it
// covers. A table's cell is a line of its own.
func FindInRuns(runs []TextRun, q []rune) [][]RunPart {
	var out [][]RunPart
	for i := 0; i < len(runs); {
		j := i + 1
		for j < len(runs) && !runs[i].Cell && !runs[j].Cell && sameRow(runs[j-1], runs[j]) && runs[j].Pos.X >= runs[j-1].Pos.X {
			j++
		}
		line := runs[i:j]
		var text []rune
		starts := make([]int, len(line))
		for k, r := range line {
			starts[k] = len(text)
			text = append(text, r.Text...)
		}
		for _, at := range FindRunes(FoldRunes(string(text)), q) {
			var parts []RunPart
			for k, r := range line {
				from, to := max(at, starts[k])-starts[k], min(at+len(q), starts[k]+len(r.Text))-starts[k]
				if from < to {
					parts = append(parts, RunPart{Run: r, From: from, To: to})
				}
			}
			out = append(out, parts)
		}
		i = j
	}
	return out
}
