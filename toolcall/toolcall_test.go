package toolcall

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestExtractCommands(t *testing.T) {
	text := "I'll check.\nCMD: ls -la ~\n  CMD:   `df -h`  \nNot a CMD: line\n```sh\nCMD: rm -rf /\n```\nCMD:\nCMD: echo 'a: b'"
	want := []string{"ls -la ~", "df -h", "echo 'a: b'"}
	if diff := cmp.Diff(want, Commands(text)); diff != "" {
		t.Errorf("Commands (-want +got):\n%s", diff)
	}
}

func FuzzExtractCommands(f *testing.F) {
	f.Add("CMD: ls\n```\nCMD: x\n```")
	f.Fuzz(func(t *testing.T, text string) {
		for _, c := range Commands(text) {
			if c == "" || strings.Contains(c, "\n") {
				t.Fatalf("bad command %q", c)
			}
		}
	})
}
