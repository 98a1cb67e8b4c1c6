package richtext

import (
	"image/color"
	"math"
	"unicode"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
)

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

// Match is a match of a search in a block: the parts of the block's runs
// it covers. Lead: it began in the block before (the part of the same
// paragraph in the row before), whose match it is.
type Match struct {
	Parts []RunPart
	Lead  bool
}

// Find is where q (folded) is in what the block drew (runs, Runs), read
// as its text is (Read): a match across a wrapped line, or across the
// runs of one line (a code block's tokens, each a run of its own colour:
// "return a" is three), is found, as the parts of each run it covers.
// before and after are the end of the paragraph's part in the row before
// this block and the start of its part in the row after, with the white
// space between them (nil: none), so that a match that straddles two
// rows is found in both, marked in each as far as it goes there.
func (t *MDText) Find(runs []TextRun, q, before, after []rune) []Match {
	if len(q) == 0 {
		return nil
	}
	own, at := t.Read(runs)
	all := make([]rune, 0, len(before)+len(own)+len(after))
	all = append(append(append(all, before...), own...), after...)
	var out []Match
	for _, a := range FindRunes(FoldRunes(string(all)), q) {
		from, to := a-len(before), a+len(q)-len(before)
		if to <= 0 || from >= len(own) {
			continue
		}
		m := Match{Lead: from < 0}
		for k, r := range runs {
			f, e := max(from, at[k])-at[k], min(to, at[k]+len(r.Text))-at[k]
			if f < e {
				m.Parts = append(m.Parts, RunPart{Run: r, From: f, To: e})
			}
		}
		out = append(out, m)
	}
	return out
}

// Read is what runs (Runs) drew, read as text as it is copied: the runs
// of a line side by side (a table's cells a tab apart), a wrapped line
// after a space, a new paragraph, list item, line or table row after a
// line break; at[k] is where run k starts in it.
func (t *MDText) Read(runs []TextRun) (text []rune, at []int) {
	breaks, glued := t.Breaks(runs)
	at = make([]int, len(runs))
	for i, r := range runs {
		if i > 0 {
			prev := runs[i-1]
			switch {
			case sameRow(prev, r):
				if r.Cell && prev.Cell {
					text = append(text, '\t')
				}
			case r.Cell && prev.Cell, r.Pos.Y-(prev.Pos.Y+prev.Size.Height) > 0.5, r.Cell != prev.Cell, isBullet(r.Text), breaks[i]:
				text = append(text, '\n')
			case glued[i]: // a long word wrapped inside it
			case (len(text) == 0 || text[len(text)-1] != ' ') && (len(r.Text) == 0 || r.Text[0] != ' '):
				text = append(text, ' ') // a wrapped line
			}
		}
		at[i] = len(text)
		text = append(text, r.Text...)
	}
	return text, at
}

// MarkCode marks a match's part p in fill, the mark (translucent) laid on
// the code's background. The code's colours (a keyword in the primary
// blue, a string in green) were drawn on it as on the background, "echo"
// at 2.3:1 on the orange of the current match (1.4:1 in the dark theme):
// the part is drawn again over an opaque mark, in black or white,
// whichever stands out more on the mark, as a browser draws its find's
// (the theme's foreground, Fyne's grey #565656, reads at 3.8:1 on the
// orange of the light theme; black at 10:1, and at 5:1 in the dark).
func (s *SelText) MarkCode(p RunPart, fill color.Color) {
	x0, x1 := p.Run.Width(p.From), p.Run.Width(p.To)
	under := theme.Color(theme.ColorNameInputBackground) // the code box's (CodeBox.Bg)
	mark := over(fill, under)
	rect := canvas.NewRectangle(mark)
	rect.Move(p.Run.Pos.AddXY(x0, 0))
	rect.Resize(fyne.NewSize(x1-x0, p.Run.Size.Height))
	var ink color.Color = color.Black
	if Contrast(color.White, mark) > Contrast(ink, mark) {
		ink = color.White
	}
	text := canvas.NewText(string(p.Run.Text[p.From:p.To]), ink)
	text.TextSize, text.TextStyle = p.Run.TextSize, p.Run.Style
	text.Move(rect.Position())
	text.Resize(rect.Size())
	s.Over.Objects = append(s.Over.Objects, rect, text)
}

// InCode reports whether a run is a code block's token drawn in a colour
// of its own, which a mark behind it leaves hard to read (MarkCode).
func (r TextRun) InCode() bool {
	return r.Style.Monospace && !r.Boxed && !r.Cell && r.Color != nil && !sameColor(r.Color, theme.Color(theme.ColorNameForeground))
}

func sameColor(a, b color.Color) bool {
	r1, g1, b1, a1 := a.RGBA()
	r2, g2, b2, a2 := b.RGBA()
	return r1 == r2 && g1 == g2 && b1 == b2 && a1 == a2
}

// over is fill (translucent) laid on the opaque colour under.
func over(fill, under color.Color) color.Color {
	fr, fg, fb, fa := fill.RGBA()
	ur, ug, ub, _ := under.RGBA()
	mix := func(f, u uint32) uint8 { return uint8((f + u*(0xffff-fa)/0xffff) >> 8) } // RGBA's are premultiplied
	return color.NRGBA{R: mix(fr, ur), G: mix(fg, ug), B: mix(fb, ub), A: 0xff}
}

// Contrast is WCAG's contrast ratio of two colours (1 to 21): the
// window's tests measure drawn text with it too.
func Contrast(a, b color.Color) float64 {
	lum := func(c color.Color) float64 {
		r, g, b, _ := c.RGBA()
		ch := func(v uint32) float64 {
			x := float64(v) / 0xffff
			if x <= 0.03928 {
				return x / 12.92
			}
			return math.Pow((x+0.055)/1.055, 2.4)
		}
		return 0.2126*ch(r) + 0.7152*ch(g) + 0.0722*ch(b)
	}
	la, lb := lum(a), lum(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}
