package tray

import (
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"deckhand/gui/widgets/richtext"
	"deckhand/transcript"
)

// Answer is the quick prompt's answer, drawn as the main window draws
// one: cut in blocks as the chat cuts it (transcript.Blocks), its
// paragraphs Markdown with their line breaks kept
// (richtext.MarkdownSegments), and each fenced code block the chat's code
// box (richtext.CodeBox): highlighted by its language, on the code
// background, with its language and Copy. The whole answer was one rich
// text, its code plain text with no background.
type Answer struct {
	widget.BaseWidget
	box       *fyne.Container
	blocks    []answerBlock
	clip      func() fyne.Clipboard
	copiedFor time.Duration // how long Copy says Copied
	// later runs f on the UI goroutine after d. Tests run it themselves:
	// Fyne's test driver runs fyne.Do at once on the calling goroutine, and
	// a timer's change of a button raced the next test's drawing.
	later func(d time.Duration, f func())
}

// answerBlock is one block on screen: a paragraph's rich text or a code
// box.
type answerBlock struct {
	text *widget.RichText
	code *richtext.CodeBox
	src  string // the paragraph's Markdown
}

func newAnswer(clip func() fyne.Clipboard) *Answer {
	a := &Answer{box: container.NewVBox(), clip: clip, copiedFor: 2 * time.Second, later: func(d time.Duration, f func()) {
		time.AfterFunc(d, func() { fyne.Do(f) })
	}}
	a.ExtendBaseWidget(a)
	return a
}

func (a *Answer) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(a.box) }

// Refresh redraws the answer, its code boxes in the theme's colours: Fyne
// refreshes every widget when the theme changes, and a box's background
// kept the colour it was made with.
func (a *Answer) Refresh() {
	for _, b := range a.blocks {
		if b.code != nil {
			b.code.Restyle()
		}
	}
	a.BaseWidget.Refresh()
}

// ScreenChildren is what the window's screen dump (package gui) walks in
// the answer: its blocks.
func (a *Answer) ScreenChildren() []fyne.CanvasObject { return []fyne.CanvasObject{a.box} }

// Set shows text (Markdown), reusing the blocks it shows where it can: it
// is called each frame as the answer streams in.
func (a *Answer) Set(text string) {
	rows := joinCuts(transcript.Blocks(text))
	for i, r := range rows {
		code := r.Kind == transcript.Code
		if i == len(a.blocks) || (a.blocks[i].code != nil) != code {
			a.blocks = append(a.blocks[:i], a.newBlock(code))
			a.box.Objects = append(a.box.Objects[:i], a.blocks[i].object())
			a.box.Refresh()
		}
		b := &a.blocks[i]
		if code {
			b.code.Set(r.Text, r.Lang)
			continue
		}
		if r.Text != b.src {
			b.src = r.Text
			b.text.Segments = richtext.MarkdownSegments(r.Text)
			b.text.Refresh()
		}
	}
	if len(rows) < len(a.blocks) {
		a.blocks = a.blocks[:len(rows)]
		a.box.Objects = a.box.Objects[:len(rows)]
		a.box.Refresh()
	}
}

func (a *Answer) newBlock(code bool) answerBlock {
	if !code {
		t := widget.NewRichText()
		t.Wrapping = fyne.TextWrapWord
		return answerBlock{text: t}
	}
	b := richtext.NewCodeBox(richtext.NewMDText(), nil)
	b.Copy.OnTapped = func() { a.copy(b) }
	return answerBlock{code: b}
}

func (b answerBlock) object() fyne.CanvasObject {
	if b.code != nil {
		return b.code.Object()
	}
	return b.text
}

// copy puts a code box's code on the clipboard; its Copy says Copied a
// moment, as the chat's does.
func (a *Answer) copy(b *richtext.CodeBox) {
	a.clip().SetContent(b.Text())
	b.Copy.SetText("Copied")
	b.Copy.SetIcon(theme.ConfirmIcon())
	a.later(a.copiedFor, func() {
		b.Copy.SetText("Copy")
		b.Copy.SetIcon(theme.ContentCopyIcon())
	})
}

// String is the answer as shown: its blocks' text, a line apart.
func (a *Answer) String() string {
	parts := make([]string, len(a.blocks))
	for i, b := range a.blocks {
		if b.code != nil {
			parts[i] = b.code.Text()
		} else {
			parts[i] = b.text.String()
		}
	}
	return strings.Join(parts, "\n")
}

// joinCuts joins the rows a long block was cut in (Row.Cont) back into
// one: the chat draws them as one, and the prompt has no rows to recycle.
func joinCuts(rows []transcript.Row) []transcript.Row {
	out := rows[:0:0]
	for _, r := range rows {
		if n := len(out); r.Cont && n > 0 && out[n-1].Kind == r.Kind {
			out[n-1].Text += r.Join + r.Text
			continue
		}
		r.Cont, r.Join = false, ""
		out = append(out, r)
	}
	return out
}
