package composer

import (
	"strings"
	"testing"

	"deckhand/testutil"
)

// A text file is told apart by its content, and the limits hold.
func TestAttachCheck(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, data, want string
	}{
		{"a.md", "# hello ✓\n", ""},
		{"empty", "", ""},
		{"latin1.txt", "caf\xe9", "not a text file"},
		{"nul.txt", "a\x00b", "not a text file"},
		{"fake.png", "\x89PNG\r\n\x1a\nnot really", "cannot be read as one"},
		{"big.txt", strings.Repeat("a", maxTextFile+1), "too big"},
	} {
		_, err := checkAttachment(tc.name, []byte(tc.data))
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	huge := testutil.HugePNGHeader(20000, 10)
	if _, err := checkAttachment("huge.png", huge); err == nil || !strings.Contains(err.Error(), "20000×10 pixels") {
		t.Errorf("a huge image: %v", err)
	}
	if at, err := checkAttachment("ok.png", testutil.TestPNG(2, 2)); err != nil || at.Type != "image/png" {
		t.Errorf("a PNG: %v %q", err, at.Type)
	}
	if got := attachName("/tmp/evil\x1b[2Jname\u202e.txt"); got != "evil[2Jname.txt" && strings.ContainsAny(got, "\x1b\u202e") {
		t.Errorf("attachName = %q", got)
	}
}
