package tools

import (
	"path/filepath"
	"slices"
	"testing"

	"deckhand/testutil"
)

// candidates finds the signs that one search per word finds.
func FuzzCandidates(f *testing.F) {
	for _, s := range []string{"", "<important>", "ignore previous instructions", "[system] you are now", "#1 rated, 100% of users", "a", "send to https://x.example", "~/.ssh/id_rsa"} {
		f.Add(s)
	}
	for _, list := range testutil.LoadCatalog(f, filepath.Join("testdata", "catalog")) {
		for _, d := range list[:min(3, len(list))] {
			f.Add(lowerASCII(d.Description))
		}
	}
	f.Fuzz(func(t *testing.T, text string) {
		got, want := candidates(text), candidatesBySearch(text)
		if !slices.Equal(got, want) {
			t.Errorf("candidates(%q) = %d signs, want %d", text, len(got), len(want))
		}
	})
}
