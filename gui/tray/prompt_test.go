package tray

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"github.com/google/go-cmp/cmp"

	"deckhand/approval"
	"deckhand/gui/guitest"
	"deckhand/toolcall"
	"deckhand/transcript"
)

// host is a Host that is set up and sends nowhere.
type host struct{}

func (host) Configured() bool { return true }
func (host) Ask(string)       {}
func (host) ToMain()          {}
func (host) Hidden()          {}
func (host) Answer(string)    {}

// newPrompt is a quick prompt that has asked "asked".
func newPrompt(t *testing.T, asked string) *Prompt {
	t.Helper()
	q := New(test.NewTempApp(t), nil, host{})
	t.Cleanup(q.win.Close)
	q.submit(asked)
	return q
}

// A call that never ran says why on its line, as the main window's card
// does (transcript.Row.NotRun), never a duration: a call stopped while
// its approval was asked said "failed after <1 ms".
func TestPromptSaysWhyACallNeverRan(t *testing.T) {
	tests := []struct {
		name    string
		closed  approval.Reason // how its approval ended (answered: "")
		started bool
		output  string
		isError bool
		denied  bool
		// cancelled: the person stopped it (ToolCallFinished.Cancelled)
		cancelled bool
		want      string // the line's state
	}{
		{name: "stopped while asked", closed: "the run was stopped", output: toolcall.CancelledText, isError: true,
			want: "not run: the run was stopped before it was approved"},
		{name: "denied", closed: approval.Answered, output: toolcall.DeniedText, denied: true,
			want: "not run: denied"},
		{name: "timed out", closed: approval.TimedOut(time.Minute), output: toolcall.DeniedBecause("no answer within 1m0s"), denied: true,
			want: "not run: no answer came in time (no answer within 1m0s)"},
		{name: "refused by the policy", output: transcript.PolicyRefused + ": writes /etc/x, outside the write roots", isError: true,
			want: "refused by policy (not run)"},
		{name: "its server gone (unknown tool)", output: `unknown tool "gone.echo": no server named "gone"`, isError: true,
			want: `not run: Deckhand refused it: unknown tool "gone.echo": no server named "gone"`},
		{name: "ran and failed", started: true, output: "boom", isError: true, want: "failed after 5 ms: boom"},
		{name: "ran and was stopped", started: true, output: toolcall.CancelledText, isError: true, cancelled: true,
			want: "stopped after 5 ms"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := newPrompt(t, "echo hi")
			tr := transcript.New()
			tr.User("echo hi", time.Now())
			tr.StartRun("r1")
			tr.ToolRequested("c1", "t.echo", []byte(`{"text":"hi"}`))
			if tt.closed != "" {
				tr.ToolAsked("c1")
				tr.ToolQuestionClosed("c1", tt.closed)
			}
			if tt.started {
				tr.ToolStarted("c1", "t.echo", nil)
			}
			tr.ToolFinished("c1", "t.echo", nil, tt.output, tt.isError, tt.denied, 5*time.Millisecond)
			if tt.cancelled {
				tr.ToolCancelled("c1")
			}
			asked, calls := Calls(tr)
			q.Update(&Update{Asked: asked, Calls: calls})
			want := "echo | t · " + tt.want + ` · text: "hi"`
			if l := q.Lines(); len(l) != 1 || l[0] != want {
				t.Errorf("the prompt's lines = %q, want [%q]", l, want)
			}
		})
	}
}

// An answer's single line breaks are line breaks in the quick prompt, as
// in the main window (richtext.MarkdownSegments): a poem showed as one line.
func TestPromptKeepsAnswerLineBreaks(t *testing.T) {
	q := newPrompt(t, "a poem")
	q.Update(&Update{Asked: "a poem", Text: "Roses are red,\nthe zebrafinch sings,\nsugar is **sweet**."})
	q.win.Content().Refresh()
	// What is drawn, a string a row (the runs of a row joined).
	var rows []string
	var ys []float32
	guitest.Walk(q.Answer, func(o fyne.CanvasObject) {
		txt, ok := o.(*canvas.Text)
		if !ok || strings.TrimSpace(txt.Text) == "" {
			return
		}
		if n := len(ys); n > 0 && ys[n-1] == txt.Position().Y {
			rows[n-1] += txt.Text
			return
		}
		rows, ys = append(rows, txt.Text), append(ys, txt.Position().Y)
	})
	for i := range rows {
		rows[i] = strings.TrimSpace(rows[i])
	}
	want := []string{"Roses are red,", "the zebrafinch sings,", "sugar is sweet."}
	if diff := cmp.Diff(want, rows); diff != "" {
		t.Errorf("the answer's rows (-want +got):\n%s", diff)
	}
}
