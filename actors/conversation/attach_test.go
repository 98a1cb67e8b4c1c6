package conversation

import (
	"strings"
	"testing"

	"deckhand/tools"
)

func TestUserMessageFence(t *testing.T) {
	m := userMessage("", []Attachment{{Name: "a.txt", Type: "text/plain", Data: []byte("x ````` y")}})
	if !strings.Contains(m.Content, "\n``````\nx ````` y\n``````") || strings.HasPrefix(m.Content, "\n") {
		t.Errorf("content = %q", m.Content)
	}
	if m := userMessage("hi", nil); m.Content != "hi" || m.Parts != nil {
		t.Errorf("without attachments: %+v", m)
	}
	for n, want := range map[int]string{0: "0 B", 1023: "1023 B", 3277: "3.2 KiB", 3 << 20: "3.0 MiB"} {
		if got := tools.Size(n); got != want {
			t.Errorf("tools.Size(%d) = %q, want %q", n, got, want)
		}
	}
}
