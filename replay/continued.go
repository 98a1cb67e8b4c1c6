package replay

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Continued is an answer that Stop cut (stopped) with what the model wrote
// when asked to go on (more), as one text. The model goes on where it
// stopped, often in the middle of a word ("the quick bro" + "wn fox"), and
// then the two join as they are; but after a sentence or a clause that
// ended ("the end." + "Next"), a model starts the next without the space
// that separated them in one stream, and they ran together. A space goes
// in only there: after a stop, comma, colon, semicolon, ! or ? or a
// closing bracket, before a letter or digit; not in a number cut at its
// point ("3." + "14"). (Scripts written without spaces end their
// sentences in other marks, and are joined as they are.)
func Continued(stopped, more string) string {
	last, n := utf8.DecodeLastRuneInString(stopped)
	before, _ := utf8.DecodeLastRuneInString(stopped[:len(stopped)-n])
	first, _ := utf8.DecodeRuneInString(more)
	inNumber := (last == '.' || last == ',') && unicode.IsDigit(before) && unicode.IsDigit(first)
	if strings.ContainsRune(".,;:!?)]}", last) && (unicode.IsLetter(first) || unicode.IsDigit(first)) && !inNumber {
		return stopped + " " + more
	}
	return stopped + more
}
