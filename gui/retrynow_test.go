package gui

import (
	"strings"
	"sync"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"deckhand/testutil"
)

// TestRetryNow: a 429 that asks for a minute shows its notice with Retry
// now (not Retry, which would start another version while the run
// waits), and Tab reaches it. Pressed from the keyboard, the next try
// goes at once: the button is gone as soon as it went, while the model
// still holds the request, and the notice says when it went; then the
// answer comes. (The window's waits give up after 15 s: well before the
// minute asked.)
func TestRetryNow(t *testing.T) {
	release := make(chan struct{})
	var once sync.Once
	h := newHarness(t, harnessOptions{
		responses: []testutil.ModelResponse{
			{Status: 429, Header: map[string]string{"Retry-After": "60"}, Body: `{"error":{"message":"Rate limit reached"}}`},
		},
		fallback: func(map[string]any) testutil.ModelResponse {
			<-release // the second try is held until the test has looked
			return testutil.ModelResponse{Body: testutil.TextChunks("finally")}
		},
	})
	t.Cleanup(func() { once.Do(func() { close(release) }) }) // before the model server closes
	h.say("hello")
	h.until("Retry now", func() bool { return h.chatButton("Retry now") != nil })
	if !h.shows(h.ui.win, "trying again in 1m0s (try 2 of 3, at ") {
		t.Errorf("the notice says %q, want the minute asked", h.texts(h.ui.win))
	}
	if h.chatButton("Retry") != nil {
		t.Error("the waiting run's notice offers Retry, a new version of the message")
	}
	now := h.chatButton("Retry now")
	c := h.ui.win.Canvas()
	c.Unfocus()
	for range 80 {
		if c.FocusNext(); c.Focused() == now {
			break
		}
	}
	if c.Focused() != now {
		t.Fatalf("Tab never reaches Retry now")
	}
	now.TypedKey(&fyne.KeyEvent{Name: fyne.KeySpace})
	h.until("the try gone, Retry now with it", func() bool {
		return h.chatButton("Retry now") == nil && h.shows(h.ui.win, "tried again at ")
	})
	if h.shows(h.ui.win, "finally") || !h.ui.running {
		t.Errorf("the run is over before the model answered the second try: %q", h.texts(h.ui.win))
	}
	if h.shows(h.ui.win, "trying again in") {
		t.Errorf("the notice still says the try waits: %q", h.texts(h.ui.win))
	}
	once.Do(func() { close(release) })
	h.until("the answer", func() bool { return h.shows(h.ui.win, "finally") && !h.ui.running })
	if n := h.model.Count(); n != 2 {
		t.Errorf("the model was asked %d times, want 2", n)
	}
	if h.chatButton("Retry now") != nil {
		t.Error("Retry now is back after the answer")
	}
}

// TestQuickPromptRetryNow: a 429 asking for a minute, in the quick
// prompt: its status says the retry's notice and offers Retry now, which
// sends the try at once through the bridge and the conversation (the
// harness's waits give up after 15 s, well before the minute); the button
// goes as the try goes, and the answer comes.
func TestQuickPromptRetryNow(t *testing.T) {
	h := newHarness(t, harnessOptions{
		responses: []testutil.ModelResponse{
			{Status: 429, Header: map[string]string{"Retry-After": "60"}, Body: `{"error":{"message":"Rate limit reached"}}`},
			{Body: testutil.TextChunks("finally")},
		},
	})
	h.ui.showQuick()
	q := h.ui.quick
	h.quickSay("hello")
	h.until("the retry's notice in the quick prompt", func() bool {
		return q.Now.Visible() && strings.Contains(q.Notice.Text, "trying again in 1m0s (try 2 of 3, at ")
	})
	test.Tap(q.Now)
	h.until("the answer", func() bool { return q.Answer.String() == "finally" && q.Status.Text == "Done." })
	if q.Now.Visible() {
		t.Error("Retry now is still offered after the answer")
	}
	if n := h.model.Count(); n != 2 {
		t.Errorf("the model was asked %d times, want 2", n)
	}
}
