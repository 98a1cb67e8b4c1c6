package replay

import "testing"

func TestContinued(t *testing.T) {
	for _, tt := range []struct{ name, stopped, more, want string }{
		{"mid-word", "the quick bro", "wn fox", "the quick brown fox"},
		{"after a sentence", "the end of the sentence.", "Next one.", "the end of the sentence. Next one."},
		{"after a comma", "first,", "then", "first, then"},
		{"after a question", "Why?", "Because.", "Why? Because."},
		{"after a bracket", "(aside)", "and on", "(aside) and on"},
		{"space kept", "the end. ", "Next", "the end. Next"},
		{"space sent", "the end.", " Next", "the end. Next"},
		{"new paragraph", "the end.", "\n\nNext", "the end.\n\nNext"},
		{"mid-number", "pi is 3.", "14", "pi is 3.14"},
		{"thousands", "about 1,", "000 of them", "about 1,000 of them"},
		{"a number after a sentence", "It was cold.", "20 degrees", "It was cold. 20 degrees"},
		{"after a word", "the quick", " brown", "the quick brown"},
		{"punctuation goes on", "wait", "...", "wait..."},
		{"code goes on", "x := f(", "a)", "x := f(a)"},
		{"no spaces in the script", "終わり。", "次に", "終わり。次に"},
		{"nothing stopped", "", "Hello", "Hello"},
		{"nothing more", "the end.", "", "the end."},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := Continued(tt.stopped, tt.more); got != tt.want {
				t.Errorf("Continued(%q, %q) = %q, want %q", tt.stopped, tt.more, got, tt.want)
			}
		})
	}
}
