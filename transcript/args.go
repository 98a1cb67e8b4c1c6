package transcript

import "strings"

// readableJSON undoes the escapes Go's encoder writes for <, > and & (a
// shell command's arguments are full of them) inside the strings of an
// indented JSON text, so that a card shows `a > b && c`, not
// `a \u003e b \u0026\u0026 c`. Every other escape stays as it was: the card
// shows the arguments the server gets.
func readableJSON(s string) string {
	if !strings.Contains(s, `\u00`) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	inString := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"':
			inString = !inString
		case c == '\\' && inString && i+1 < len(s):
			if i+6 <= len(s) && s[i+1] == 'u' {
				switch strings.ToLower(s[i+2 : i+6]) {
				case "003c":
					b.WriteByte('<')
					i += 5
					continue
				case "003e":
					b.WriteByte('>')
					i += 5
					continue
				case "0026":
					b.WriteByte('&')
					i += 5
					continue
				}
			}
			b.WriteByte(c)
			b.WriteByte(s[i+1]) // an escaped quote or backslash does not end the string
			i++
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}
