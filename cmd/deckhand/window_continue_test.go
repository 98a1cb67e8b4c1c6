package main

import (
	"encoding/json"
	"testing"
	"time"

	"deckhand/actors/conversation"
	"deckhand/gui"
	"deckhand/testutil"
)

// TestWindowContinueJoins: Continue after Stop goes on in the stopped
// answer, and the two parts read as one text, on screen and reopened from
// the log: a word cut in two is whole again ("bro" + "wn fox"), and the
// sentence the model starts after one that ended is a space apart from it
// ("here." + "Next" ran together as "here.Next"). The model is given the
// stopped text as its own, and asked to go on from its last character.
func TestWindowContinueJoins(t *testing.T) {
	// Each stopped answer's words come at once, then nothing for a long
	// while (empty pieces), so that Stop cuts it exactly there.
	cut := func(words string) testutil.ModelResponse {
		pieces := append([]string{words}, make([]string, 2000)...)
		return testutil.ModelResponse{Body: testutil.TextChunks(pieces...), Pace: 10 * time.Millisecond}
	}
	model := testutil.NewModelServer(t,
		cut("The first sentence ends here."),
		cut("Next comes the quick bro"),
		testutil.ModelResponse{Body: testutil.TextChunks("wn fox.")},
	)
	cfg := scriptedConfig(model.URL)
	w := startRealWindow(t, cfg, nil)
	w.say("tell a story")
	stopAt := func(text string) {
		t.Helper()
		w.waitScreen(text, func(s gui.Screen) bool { return shows(s, text) })
		w.key("Escape")
		w.waitScreen("stopped at "+text, func(s gui.Screen) bool { _, ok := find(s, "button", "Continue"); return ok })
	}
	stopAt("The first sentence ends here.")
	w.clickText("button", "Continue")
	stopAt("Next comes the quick bro")
	w.clickText("button", "Continue")
	const whole = "The first sentence ends here. Next comes the quick brown fox."
	joined := func(s gui.Screen) bool {
		it, ok := find(s, "text", "The first sentence")
		return ok && it.Text == whole && !shows(s, conversation.ContinueText)
	}
	s := w.waitScreen("the answer's end", func(s gui.Screen) bool { return shows(s, "wn fox.") && !shows(s, "Stopped.") })
	if !joined(s) {
		it, _ := find(s, "text", "The first sentence")
		w.keep("continue-joined.png")
		t.Errorf("the continued answer reads %q, want %q", it.Text, whole)
	}

	// What the model was given each time: the stopped text as its own
	// answer, then the request to go on.
	reqs := model.Requests()
	if len(reqs) != 3 {
		t.Fatalf("the model got %d requests, want 3", len(reqs))
	}
	for i, stopped := range []string{"The first sentence ends here.", "Next comes the quick bro"} {
		var body struct {
			Messages []struct{ Role, Content string } `json:"messages"`
		}
		json.Unmarshal(reqs[i+1], &body)
		n := len(body.Messages)
		if n < 2 || body.Messages[n-2].Role != "assistant" || body.Messages[n-2].Content != stopped ||
			body.Messages[n-1].Role != "user" || body.Messages[n-1].Content != conversation.ContinueText {
			t.Errorf("continuation %d: the model got %+v, want its stopped answer %q then the request to go on", i+1, body.Messages, stopped)
		}
	}

	w.restart()
	s = w.waitScreen("the chat in the sidebar", func(s gui.Screen) bool { _, ok := find(s, "row", "tell a story"); return ok })
	row, _ := find(s, "row", "tell a story")
	w.click(row)
	s = w.waitScreen("the continued answer, reopened", func(s gui.Screen) bool { return shows(s, "wn fox.") })
	if !joined(s) {
		it, _ := find(s, "text", "The first sentence")
		w.keep("continue-reopened.png")
		t.Errorf("reopened from the log, the continued answer reads %q, want %q", it.Text, whole)
	}
}
