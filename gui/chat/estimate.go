package chat

import (
	"strings"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"deckhand/gui/chat/block"
	"deckhand/transcript"
)

// estimator guesses a row's height from its text, with sizes calibrated by
// measuring sample rows once per width: good enough to place rows that are
// not on screen, and corrected when they are.
type estimator struct {
	width                          float32
	header, text, code, notice     float32 // one-line rows
	codeTop                        float32 // what a code row's cont lacks: its header line, and pull
	line, charW, monoW, textInnerW float32
}

func (e *estimator) calibrate(cv *View, w float32) {
	e.width = w
	e.header = cv.measureRow(transcript.Row{Kind: transcript.Header, Role: "assistant", Text: "x"}, block.Flow{})
	e.text = cv.measureRow(transcript.Row{Kind: transcript.Text, Text: "x"}, block.Flow{})
	e.code = cv.measureRow(transcript.Row{Kind: transcript.Code, Text: "x"}, block.Flow{})
	e.notice = cv.measureRow(transcript.Row{Kind: transcript.Notice, Text: "x"}, block.Flow{})
	e.codeTop = e.code - cv.measureRow(transcript.Row{Kind: transcript.Code, Text: "x", Cont: true}, block.Flow{})
	e.line = cv.measureRow(transcript.Row{Kind: transcript.Code, Text: "x\nx"}, block.Flow{}) - e.code
	const sample = "The quick brown fox jumps over the lazy dog, then rests."
	size := theme.TextSize()
	e.charW = fyne.MeasureText(sample, size, fyne.TextStyle{}).Width / float32(len(sample))
	e.monoW = fyne.MeasureText("M", size, fyne.TextStyle{Monospace: true}).Width
	e.textInnerW = w - block.Inset - 4*theme.Padding() - 2*theme.InnerPadding()
}

// lines is how many lines text takes at charW per character.
func (e *estimator) lines(text string, charW float32) float32 {
	per := max(int(e.textInnerW/charW), 10)
	n := 0
	for line := range strings.SplitSeq(text, "\n") {
		n += max(1, (utf8.RuneCountInString(line)+per-1)/per)
	}
	return float32(n)
}

func (e *estimator) height(cv *View, r transcript.Row, w float32) float32 {
	if e.width != w {
		e.calibrate(cv, w)
	}
	switch r.Kind {
	case transcript.Header:
		return e.header
	case transcript.Text:
		h := e.text + (e.lines(r.Text, e.charW)-1)*e.line
		if r.Cont {
			h -= block.Pull() // drawn on from the row before (block.Text)
		}
		return h
	case transcript.Code:
		h := e.code + (e.lines(r.Text, e.monoW)-1)*e.line
		if r.Cont {
			h -= e.codeTop // drawn on from the row before (codeLayout)
		}
		return h
	case transcript.Notice:
		return e.notice + (e.lines(r.Text, e.charW)-1)*e.line
	}
	return cv.measureRow(r, block.Flow{}) // tool cards are few, and too varied to guess
}
