package tray

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"github.com/google/go-cmp/cmp"

	"deckhand/gui/guitest"
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

// A failure is said whole under the question, wrapped, and the status
// line short: the window keeps its width (a failure's text on the status
// line made the window 2,309 px wide on a 640 px screen, and so it
// stayed). A question asked while the one before still runs says it
// waits for it, and the run before's retry is offered as that one's.
func TestPromptFailureAndQuestionBehind(t *testing.T) {
	q := New(test.NewTempApp(t), nil, host{})
	t.Cleanup(q.win.Close)
	q.submit("hello")
	width := q.win.Canvas().Size().Width
	failure := "model server: 401 Unauthorized from POST https://api.example.com/v1/chat/completions: Incorrect API key provided; " +
		"Deckhand sent the key of the keyring: check or replace it in Settings"
	q.Update(&Update{Asked: "hello", Status: "Failed.", Failed: failure})
	if q.Status.Text != "Failed." || q.Notice.Text != failure || !q.Notice.Visible() || q.Notice.Importance != widget.DangerImportance {
		t.Errorf("failed: status %q, notice %q (shown %v, %v); want Failed. and the error under the question", q.Status.Text, q.Notice.Text, q.Notice.Visible(), q.Notice.Importance)
	}
	if min := q.win.Content().MinSize().Width; min > width {
		t.Errorf("the prompt needs %v px for its failure, wider than its %v", min, width)
	}
	q.submit("and now?")
	if q.Notice.Visible() {
		t.Errorf("the failure before stays under the new question: %q", q.Notice.Text)
	}
	// "and now?" is asked while the run before waits to try again.
	const notice = "429 Too Many Requests; trying again in 1m0s (try 2 of 3, at 10:01:00)"
	q.Update(&Update{Asked: "hello", Running: true, Behind: true, Retrying: &Retrying{Run: "r1", Text: notice, Try: 2}})
	if !strings.Contains(q.Status.Text, "when the one before is answered") || q.Notice.Text != "The question before waits: "+notice || !q.Now.Visible() {
		t.Errorf("behind: status %q, notice %q, Retry now %v", q.Status.Text, q.Notice.Text, q.Now.Visible())
	}
	q.Update(&Update{Asked: "and now?", Running: true})
	if q.Status.Text != "Answering…" || q.Notice.Visible() || q.Now.Visible() {
		t.Errorf("its own run: status %q, notice shown %v, Retry now %v", q.Status.Text, q.Notice.Visible(), q.Now.Visible())
	}
}

// Retry now, reached with Tab, is pressed by Enter as by Space, as any
// focused button; and Escape there still closes the prompt. Fyne's button
// took Space alone and kept every other key: Enter on the focused Retry
// now did nothing, and Escape did not close the prompt.
func TestPromptRetryNowFromKeys(t *testing.T) {
	var asked []Retrying
	hidden := 0
	q := New(test.NewTempApp(t), nil, retryHost{host: host{}, asked: &asked})
	t.Cleanup(q.win.Close)
	q.host = hiddenHost{q.host, &hidden}
	q.Show()
	q.submit("hello")
	const notice = "429 Too Many Requests; trying again in 1m0s (try 2 of 3, at 10:01:00)"
	waits := func(try int) {
		q.Update(&Update{Asked: "hello", Running: true, Retrying: &Retrying{Run: "r1", Text: notice, Try: try}})
	}
	c := q.win.Canvas()
	// key is a key typed as the driver gives it: to the focused control,
	// else to the window.
	key := func(name fyne.KeyName) {
		if f := c.Focused(); f != nil {
			f.TypedKey(&fyne.KeyEvent{Name: name})
		} else if c.OnTypedKey() != nil {
			c.OnTypedKey()(&fyne.KeyEvent{Name: name})
		}
	}
	tabToNow := func() {
		t.Helper()
		c.Focus(q.Entry)
		for range 20 {
			if c.FocusNext(); c.Focused() == fyne.Focusable(q.Now) {
				return
			}
		}
		t.Fatalf("Tab from the box never reaches Retry now (focus on %T)", c.Focused())
	}
	for i, k := range []fyne.KeyName{fyne.KeyReturn, fyne.KeyEnter, fyne.KeySpace} {
		waits(2 + i)
		tabToNow()
		asked = nil
		key(k)
		if len(asked) != 1 || asked[0] != (Retrying{Run: "r1", Try: 2 + i}) {
			t.Errorf("%s on the focused Retry now: asked %+v, want try %d of r1", k, asked, 2+i)
		}
	}
	waits(5)
	tabToNow()
	key(fyne.KeyEscape)
	if q.Visible() || hidden != 1 {
		t.Errorf("Escape on the focused Retry now: the prompt shown %v, hidden %d times; want it closed", q.Visible(), hidden)
	}
}

// hiddenHost counts the prompt's closings.
type hiddenHost struct {
	Host
	n *int
}

func (h hiddenHost) Hidden() { *h.n++ }

// The status of a question behind another is read whole, wrapped, at the
// prompt's 560 px, and the prompt asks for no more width: it was cut to
// "Your question goes when the one befor…" (a status on one line,
// truncated so that it never widened the window).
func TestPromptBehindStatusWraps(t *testing.T) {
	q := newPrompt(t, "hello")
	q.Update(&Update{Asked: "hello", Running: true, Behind: true, Retrying: &Retrying{Run: "r1", Text: "429 Too Many Requests; trying again in 1m0s", Try: 2}})
	q.win.Resize(fyne.NewSize(560, 340))
	q.win.Canvas().Content().Refresh()
	var drawn []string
	for _, x := range guitest.All[*canvas.Text](q.bottom) {
		drawn = append(drawn, strings.TrimSpace(x.Text))
	}
	if got, want := strings.Join(drawn, " "), q.Status.Text; !strings.Contains(got, want) {
		t.Errorf("the status drawn %q, want %q whole", got, want)
	}
	if min := q.win.Content().MinSize(); min.Width > 560 || min.Height > 340 {
		t.Errorf("the prompt needs %v for its status, more than its 560x340", min)
	}
}
