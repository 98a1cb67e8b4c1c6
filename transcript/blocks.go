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
}

func (b block) row() Row {
	if b.code {
		return Row{Kind: Code, Text: strings.TrimSuffix(b.text, "\n"), Lang: b.lang}
	}
	return Row{Kind: Text, Text: strings.TrimSpace(b.text)}
}

// splitter cuts a growing message into blocks, a complete line at a time:
// a blank line ends a paragraph, a fence line opens or closes a code block,
// and a block longer than MaxBlock is cut (at a line break, or a space).
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
}

// feed looks at what full added since the last call and returns the blocks
// that closed. Where blocks are cut depends only on the text, never on how
// it arrived: a block's content grows past MaxBlock only to be cut at once,
// at the last space (or at MaxBlock) of its first MaxBlock bytes.
func (s *splitter) feed(full string) []block {
	var out []block
	emit := func(end int, code bool) {
		text := full[s.blockStart:end]
		if code || strings.TrimSpace(text) != "" {
			out = append(out, block{index: s.index, text: text, code: code, lang: s.lang})
			s.index++
		}
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
			if i := strings.LastIndexByte(full[s.blockStart:cut], ' '); i > 0 && !s.inFence {
				cut = s.blockStart + i + 1
			}
			for cut > s.blockStart+1 && !utf8.RuneStart(full[cut]) {
				cut--
			}
			emit(cut, s.inFence)
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
			s.blockStart = lineEnd
		}
		s.pos = lineEnd
	}
}

// open is the block still growing.
func (s *splitter) open(full string) block {
	return block{index: s.index, text: full[s.blockStart:], code: s.inFence, lang: s.lang}
}

func isFence(line string) bool {
	return strings.HasPrefix(line, "```") || strings.HasPrefix(line, "~~~")
}

// splitAll cuts a whole message into rows.
func splitAll(text string) []Row {
	var s splitter
	full := text + "\n" // the last line is complete (as when a stream ends)
	var rows []Row
	for _, b := range s.feed(full) {
		rows = append(rows, b.row())
	}
	if last := s.open(full); last.code || strings.TrimSpace(last.text) != "" {
		rows = append(rows, last.row())
	}
	return rows
}
