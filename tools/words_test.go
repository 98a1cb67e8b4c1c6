package tools

import (
	"regexp"
	"slices"
	"testing"
)

var wordRe = regexp.MustCompile(`[A-Za-z0-9][A-Za-z0-9_-]*`)

// wordSpans finds exactly what the regular expression it stands for finds.
func FuzzWordSpans(f *testing.F) {
	for _, s := range []string{"", "fs.read_file", "the read_text_file tool of the fs server", "__x--y__", "a-b_c d\u200be", "FS/Read:x", "é中x_1", "-_-a"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var got [][]int
		for i, j := range wordSpans(s) {
			got = append(got, []int{i, j})
		}
		want := wordRe.FindAllStringIndex(s, -1)
		if !slices.EqualFunc(got, want, slices.Equal) {
			t.Errorf("wordSpans(%q) = %v, want %v", s, got, want)
		}
	})
}
