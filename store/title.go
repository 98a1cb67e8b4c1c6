package store

import "strings"

// TitleOf is a session's title made from its first message: one line (every
// run of spaces, tabs and newlines one space), at most 60 characters, cut
// with an ellipsis. A 30 KB paste is a title of one line.
func TitleOf(text string) string {
	if len(text) > 4096 {
		text = text[:4096] // enough for 60 characters of words
	}
	t := strings.Join(strings.Fields(text), " ")
	if r := []rune(t); len(r) > 60 {
		t = strings.TrimSpace(string(r[:59])) + "…"
	}
	return t
}
