package main

import (
	"testing"

	"deckhand/gui"
	"deckhand/testutil"
)

// A Markdown task list in an answer is selected and copied with its
// words, as a person drags over it or chooses Select all: each task came
// out as a bare "• " (new user report 7, problem 3b), and a task that
// began with code crashed the window.
func TestWindowSelectsTasks(t *testing.T) {
	needPrograms(t, "xdotool", "xclip")
	answer := "Some tasks for today:\n\n- [ ] an open task\n- [x] a done task\n- [x] `go test` passes\n\nThat is all."
	model := testutil.NewModelServer(t, testutil.ModelResponse{Body: testutil.TextChunks(answer)})
	w := startRealWindow(t, scriptedConfig(model.URL), nil)
	w.say("tasks")
	s := w.waitScreen("the answer", func(s gui.Screen) bool { return shows(s, "That is all") && shows(s, "a done task") })
	para, _ := find(s, "text", "Some tasks")
	tasks, _ := find(s, "text", "a done task")
	end, _ := find(s, "text", "That is all")

	want := "Some tasks for today:\n\n• [ ] an open task\n• [x] a done task\n• [x] go test passes\n\nThat is all."

	// A drag from the paragraph's start to the end of the last line.
	w.drag(para.Window, para.X+1, para.Y+para.H/2, end.X+end.W-1, end.Y+end.H/2)
	if got := w.copied("the drag"); got != want {
		t.Errorf("a drag over the tasks copied %q, want %q", got, want)
	}
	if _, ok := find(w.screen(), "highlight", "a done task"); !ok {
		t.Errorf("the tasks are not highlighted after the drag; highlighted:\n%s", highlights(w.screen()))
	}

	// A drag that ends in the list, on the middle task's line.
	w.drag(para.Window, para.X+1, para.Y+para.H/2, tasks.X+tasks.W-1, tasks.Y+tasks.H/2)
	if got, want := w.copied("the drag into the list"), "Some tasks for today:\n\n• [ ] an open task\n• [x] a done task"; got != want {
		t.Errorf("a drag into the tasks copied %q, want %q", got, want)
	}

	// Right-click on a task ▸ Select all: the whole message.
	w.click(tasks, "3")
	w.clickText("menuitem", "Select all")
	if got := w.copied("Select all"); got != want {
		t.Errorf("Select all copied %q, want %q", got, want)
	}
}
