package tray

import (
	"testing"

	"fyne.io/fyne/v2/test"
	"github.com/google/go-cmp/cmp"
)

// retryHost is a Host that keeps what Retry now asked for.
type retryHost struct {
	host
	asked *[]Retrying
}

func (h retryHost) RetryNow(run string, try int) {
	*h.asked = append(*h.asked, Retrying{Run: run, Try: try})
}

// While the quick prompt's run waits to ask the model again, the prompt
// says the retry's notice (the error, the try, when) under the question
// and offers Retry now, which asks for that run's try; once the try went, or
// the run ended, the button goes and the status says so.
func TestPromptRetryNow(t *testing.T) {
	var asked []Retrying
	q := New(test.NewTempApp(t), nil, retryHost{asked: &asked})
	t.Cleanup(q.win.Close)
	q.submit("hello")
	const notice = "429 Too Many Requests; trying again in 1m0s (try 2 of 3, at 10:01:00)"
	q.Update(&Update{Asked: "hello", Running: true, Retrying: &Retrying{Run: "r1", Text: notice, Try: 2}})
	if q.Notice.Text != notice || !q.Notice.Visible() || !q.Now.Visible() {
		t.Fatalf("while the run waits: notice %q (shown %v), Retry now shown %v; want the notice and the button", q.Notice.Text, q.Notice.Visible(), q.Now.Visible())
	}
	// Laid out when shown: the notice under the question, the button
	// with room (both took none until their containers were laid out
	// again; the notice was drawn over the question).
	if qb := q.Question.Position().Y + q.Question.Size().Height; q.Notice.Position().Y < qb || q.Now.Size().Width == 0 {
		t.Errorf("the notice at y %v, under a question ending at %v; Retry now %v wide", q.Notice.Position().Y, qb, q.Now.Size().Width)
	}
	test.Tap(q.Now)
	if diff := cmp.Diff([]Retrying{{Run: "r1", Try: 2}}, asked); diff != "" {
		t.Errorf("Retry now asked (-want +got):\n%s", diff)
	}
	q.Update(&Update{Asked: "hello", Running: true})
	if q.Status.Text != "Answering…" || q.Now.Visible() || q.Notice.Visible() {
		t.Errorf("after the try went: status %q, Retry now shown %v, notice shown %v; want Answering… and neither", q.Status.Text, q.Now.Visible(), q.Notice.Visible())
	}
	test.Tap(q.Now) // hidden: a stale press asks for nothing
	q.Update(&Update{Asked: "hello", Running: true, Retrying: &Retrying{Run: "r1", Text: notice, Try: 3}})
	q.Update(&Update{Asked: "hello", Status: "Failed: 429 Too Many Requests"})
	if q.Status.Text != "Failed: 429 Too Many Requests" || q.Now.Visible() {
		t.Errorf("after the run ended: status %q, Retry now shown %v", q.Status.Text, q.Now.Visible())
	}
	if len(asked) != 1 {
		t.Errorf("Retry now asked %d times, want once: %+v", len(asked), asked)
	}
}
