package transcript

import (
	"strings"
	"unicode/utf8"
)

// block is a piece of a message shown as one row.
type block struct {
	index int // the block's number in its message
	text  string
	code  bool
	lang  string
	// cont: the block goes on with the paragraph of the one before, cut
	// from it at MaxBlock; join is the white space the cut fell in (the
	// end of the block before).
	cont bool
	join string
}

// empty: the block shows nothing, and makes no row. A code block shows
// its box though empty, but not the rest of one cut just before its end.
func (b block) empty() bool {
	if b.code {
		return b.cont && b.text == ""
	}
	return strings.TrimSpace(b.text) == ""
}

func (b block) row() Row {
	if b.code {
		r := Row{Kind: Code, Text: strings.TrimSuffix(b.text, "\n"), Lang: b.lang}
		r.Cont, r.Join = b.cont, b.join
		return r
	}
	r := Row{Kind: Text, Text: strings.TrimSpace(b.text)}
	if b.cont {
		r.Cont = true
		r.Join = strings.ReplaceAll(b.join+b.text[:len(b.text)-len(strings.TrimLeft(b.text, " \t\r\n"))], "\r", "")
	}
	return r
}

// splitter cuts a growing message into blocks, a complete line at a time:
// a blank line ends a paragraph, a fence line opens or closes a code block,
// and a block longer than MaxBlock is cut (at a line break, else after a
// sentence, else at a space): the rest of a paragraph so cut goes on in
// the next block (block.cont), which the chat draws on with no gap.
// Text already cut is never looked at again, so feeding a message that grows
// by a delta costs the delta, not the message.
type splitter struct {
	pos        int // the next byte to look at: complete lines before it are done
	scanned    int // no newline between pos and here: a delta costs its own bytes
	blockStart int // where the open block starts
	index      int // the open block's number
	inFence    bool
	fence      string // the fence that opened the code block (``` or ~~~)
	lang       string
	// cont, join: the open block goes on from a paragraph cut at
	// MaxBlock, in join (block.cont).
	cont bool
	join string
}

// feed looks at what full added since the last call and returns the blocks
// that closed. Where blocks are cut depends only on the text, never on how
// it arrived: a block's content grows past MaxBlock only to be cut at once,
// in its first MaxBlock bytes (cutAt).
func (s *splitter) feed(full string) []block {
	var out []block
	emit := func(end int, code bool) {
		b := block{text: full[s.blockStart:end], code: code, cont: s.cont}
		if !b.empty() {
			out = append(out, block{index: s.index, text: b.text, code: code, lang: s.lang, cont: s.cont, join: s.join})
			s.index++
		}
		s.cont, s.join = false, ""
	}
	// goOn: the next block goes on with the paragraph (or code) just
	// cut at end; a code block's rows are joined by the line break they
	// were cut after, if any.
	goOn := func(end int) {
		text := full[s.blockStart:end]
		if s.inFence {
			s.cont, s.join = true, text[len(strings.TrimSuffix(text, "\n")):]
			return
		}
		s.cont, s.join = true, text[len(strings.TrimRight(text, " \t\r\n")):]
	}
	for {
		from := max(s.pos, s.scanned)
		nl := strings.IndexByte(full[from:], '\n')
		contentEnd := len(full)
		if nl >= 0 {
			contentEnd = from + nl
			nl = contentEnd - s.pos
		} else {
			s.scanned = len(full)
		}
		// Too long: cut before looking at the line.
		if contentEnd-s.blockStart > MaxBlock {
			cut := s.blockStart + MaxBlock
			if s.inFence {
				// Code is cut after a line, unless one line fills it.
				if i := strings.LastIndexByte(full[s.blockStart:cut], '\n'); i >= 0 {
					cut = s.blockStart + i + 1
				}
			} else {
				cut = s.blockStart + cutAt(full[s.blockStart:cut])
			}
			for cut > s.blockStart+1 && !utf8.RuneStart(full[cut]) {
				cut--
			}
			emit(cut, s.inFence)
			goOn(cut)
			s.blockStart = cut
			s.pos = max(s.pos, cut)
			continue
		}
		if nl < 0 {
			return out
		}
		lineStart, lineEnd := s.pos, contentEnd+1
		line := strings.TrimRight(full[lineStart:contentEnd], "\r")
		trimmed := strings.TrimSpace(line)
		switch {
		case !s.inFence && isFence(trimmed):
			emit(lineStart, false)
			s.inFence, s.fence = true, trimmed[:3]
			s.lang = strings.TrimSpace(strings.TrimLeft(trimmed, "`~"))
			s.blockStart = lineEnd
		case s.inFence && strings.HasPrefix(trimmed, s.fence) && strings.Trim(trimmed, s.fence[:1]) == "":
			emit(lineStart, true)
			s.inFence, s.lang = false, ""
			s.blockStart = lineEnd
		case !s.inFence && trimmed == "":
			emit(lineStart, false)
			s.blockStart = lineEnd
		case lineEnd-s.blockStart > MaxBlock:
			emit(lineEnd, s.inFence)
			goOn(lineEnd)
			s.blockStart = lineEnd
		}
		s.pos = lineEnd
	}
}

// open is the block still growing.
func (s *splitter) open(full string) block {
	return block{index: s.index, text: full[s.blockStart:], code: s.inFence, lang: s.lang, cont: s.cont, join: s.join}
}

// cutAt is where a paragraph's first MaxBlock bytes, text, are cut: after
// the last line in their second half, else after the last sentence
// there, so that the next block begins a line or a sentence (the chat
// draws it on a line of its own); else after the last space; else (one
// long word) at their end.
func cutAt(text string) int {
	if i := strings.LastIndexByte(text, '\n'); i >= len(text)/2 {
		return i + 1
	}
	for i := len(text) - 2; i >= len(text)/2; i-- {
		if text[i+1] == ' ' && strings.IndexByte(".!?", text[i]) >= 0 {
			return i + 2
		}
	}
	if i := strings.LastIndexByte(text, ' '); i > 0 {
		return i + 1
	}
	return len(text)
}

func isFence(line string) bool {
	return strings.HasPrefix(line, "```") || strings.HasPrefix(line, "~~~")
}

// Blocks cuts a whole message into the rows the chat shows it in:
// paragraphs (Text) and fenced code blocks (Code, with their language),
// a block longer than MaxBlock cut in rows that go on (Row.Cont). The
// quick prompt draws an answer by them too.
func Blocks(text string) []Row {
	var s splitter
	full := text + "\n" // the last line is complete (as when a stream ends)
	var rows []Row
	for _, b := range s.feed(full) {
		rows = append(rows, b.row())
	}
	if last := s.open(full); !last.empty() {
		rows = append(rows, last.row())
	}
	return rows
}
