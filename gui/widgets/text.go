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

// Elapsed is a duration as a person reads it, its unit a word of its
// own that cannot be taken for another: "<1 ms", "340 ms", "2.3 s",
// "12 s", "2 min 5 s", "1 h 3 min". (Go's "2m5.3s" and a cut "2 m…"
// read as minutes what were milliseconds.)
func Elapsed(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return "<1 ms"
	case d < time.Second:
		return fmt.Sprintf("%d ms", d.Milliseconds())
	case d < 10*time.Second:
		return fmt.Sprintf("%.1f s", d.Round(100*time.Millisecond).Seconds())
	case d < time.Minute:
		return fmt.Sprintf("%d s", int(d.Round(time.Second).Seconds()))
	case d < time.Hour:
		d = d.Round(time.Second)
		return strings.TrimSuffix(fmt.Sprintf("%d min %d s", int(d.Minutes()), int(d.Seconds())%60), " 0 s")
	}
	d = d.Round(time.Minute)
	return strings.TrimSuffix(fmt.Sprintf("%d h %d min", int(d.Hours()), int(d.Minutes())%60), " 0 min")
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

// hairSpace is where a name may break: a space to Fyne's word wrap
// (unicode.IsSpace), all but invisible.
const hairSpace = "\u200a"

// Breakable is a tool's name with a place to break after each separator
// (. - _ /): wrapped at a word's end, "basic-vanillajs.get-time" broke as
// "get-tim" over "e", since it has no spaces; now it breaks as
// "basic-vanillajs." over "get-time" (the tool card's title, the
// servers' Tools page).
func Breakable(name string) string {
	var b strings.Builder
	for i, r := range name {
		b.WriteRune(r)
		if strings.ContainsRune(".-_/", r) && i+1 < len(name) {
			b.WriteString(hairSpace)
		}
	}
	return b.String()
}
