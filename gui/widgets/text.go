package widgets

import (
	"fmt"
	"strings"
	"time"
)

// Text as the widgets show it, in few characters.

// Shorten is s on one line (its blanks collapsed), cut to at most n runes,
// the cut marked with "…".
func Shorten(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// Elapsed is a duration as a person reads it: "<1 ms", "340 ms", "2.3s".
func Elapsed(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return "<1 ms"
	case d < time.Second:
		return fmt.Sprintf("%d ms", d.Milliseconds())
	}
	return d.Round(100 * time.Millisecond).String()
}

// Plural is one when n is 1, else many.
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Sentence is an error said to the person as it is: a whole sentence,
// capitalised and ending in a full stop, unlike an error for a log.
type Sentence string

func (s Sentence) Error() string { return string(s) }
