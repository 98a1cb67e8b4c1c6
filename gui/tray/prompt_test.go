package tray

import (
	"image/color"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/google/go-cmp/cmp"

	"deckhand/approval"
	"deckhand/gui/guitest"
	"deckhand/gui/widgets"
	"deckhand/toolcall"
	"deckhand/transcript"
)

// host is a Host that is set up and sends nowhere.
type host struct{}

func (host) Configured() bool     { return true }
func (host) Ask(string)           {}
func (host) ToMain()              {}
func (host) Hidden()              {}
func (host) Answer(string)        {}
func (host) RetryNow(string, int) {}
func (host) Quit()                {}

// newPrompt is a quick prompt that has asked "asked".
func newPrompt(t *testing.T, asked string) *Prompt {
	t.Helper()
	q := New(test.NewTempApp(t), nil, host{})
	t.Cleanup(q.win.Close)
	q.Answer.later = func(time.Duration, func()) {} // never after the test; a test that needs it sets its own
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

// An answer's fenced code block is drawn in the quick prompt as the main
// window draws it (richtext.CodeBox): its tokens in more than one colour,
// on the code background, under its language and a Copy that copies the
// code as written. It was plain text in one colour with no background.
func TestPromptDrawsCodeAsTheChatDoes(t *testing.T) {
	code := "func main() {\n\tfmt.Println(\"hi\", 42) // greet\n}"
	q := newPrompt(t, "some go")
	var later []func()
	q.Answer.later = func(_ time.Duration, f func()) { later = append(later, f) }
	q.win.Resize(fyne.NewSize(560, 400))
	q.Update(&Update{Asked: "some go", Text: "Here it is:\n\n```go\n" + code + "\n```\n\nRun it."})
	q.win.Content().Refresh()

	d := fyne.CurrentApp().Driver()
	colours := map[color.Color]bool{}
	var codeTexts []*canvas.Text
	var bgs []*canvas.Rectangle
	var lang, copyButton bool
	guitest.Walk(q.Answer, func(o fyne.CanvasObject) {
		switch o := o.(type) {
		case *canvas.Text:
			if o.TextStyle.Monospace && strings.TrimSpace(o.Text) != "" {
				codeTexts = append(codeTexts, o)
				colours[o.Color] = true
			}
			lang = lang || o.Text == "go"
		case *canvas.Rectangle:
			if o.FillColor == theme.Color(theme.ColorNameInputBackground) {
				bgs = append(bgs, o)
			}
		case *widget.Button:
			if o.Text == "Copy" {
				copyButton = true
				test.Tap(o)
				if o.Text != "Copied" || len(later) != 1 {
					t.Errorf("after a tap Copy says %q with %d changes to come, want Copied and one", o.Text, len(later))
				} else if later[0](); o.Text != "Copy" {
					t.Errorf("a moment after Copied, Copy says %q", o.Text)
				}
			}
		}
	})
	var drawn strings.Builder
	for _, txt := range codeTexts {
		drawn.WriteString(txt.Text)
	}
	for _, word := range []string{"func", "main", `"hi"`, "42", "// greet"} {
		if !strings.Contains(drawn.String(), word) {
			t.Errorf("the code's %q is not drawn in monospace; drawn: %q", word, drawn.String())
		}
	}
	if len(colours) < 3 {
		t.Errorf("the code is drawn in %d colours, want its tokens highlighted (3 or more)", len(colours))
	}
	// One background behind every line of the code.
	behind := func(bg *canvas.Rectangle) bool {
		p, s := d.AbsolutePositionForObject(bg), bg.Size()
		for _, txt := range codeTexts {
			tp := d.AbsolutePositionForObject(txt)
			if tp.X < p.X || tp.Y < p.Y || tp.X+txt.Size().Width > p.X+s.Width || tp.Y+txt.Size().Height > p.Y+s.Height {
				return false
			}
		}
		return len(codeTexts) > 0
	}
	if !slices.ContainsFunc(bgs, behind) {
		t.Errorf("no code background behind the code (%d rectangles of its colour)", len(bgs))
	}
	if !lang || !copyButton {
		t.Errorf("the code's header: its language shown %v, Copy shown %v; want both", lang, copyButton)
	}
	if got := fyne.CurrentApp().Clipboard().Content(); got != code {
		t.Errorf("Copy put %q on the clipboard, want the code %q", got, code)
	}
	if got, want := q.Answer.String(), "Here it is:\n"+code+"\nRun it."; got != want {
		t.Errorf("the answer reads %q, want %q", got, want)
	}
}

// A code box in the quick prompt takes the new theme's background when
// the theme changes while it shows (the chat makes its rows anew).
func TestPromptCodeFollowsTheme(t *testing.T) {
	q := newPrompt(t, "some go")
	q.Update(&Update{Asked: "some go", Text: "```go\nx := 1\n```"})
	box := q.Answer.blocks[0].code
	before := box.Bg.FillColor
	fyne.CurrentApp().Settings().SetTheme(test.NewTheme())
	want := theme.Color(theme.ColorNameInputBackground)
	if want == before {
		t.Fatalf("the new theme's code background is the old one's, %v: the test shows nothing", want)
	}
	if got := box.Bg.FillColor; got != want {
		t.Errorf("after the theme changed the code background is %v, want the new theme's %v", got, want)
	}
}

// bigText is the default theme with the text at 128%, as Settings sets it.
type bigText struct{ fyne.Theme }

func (b bigText) Size(n fyne.ThemeSizeName) float32 {
	s := b.Theme.Size(n)
	if n == theme.SizeNameText || n == theme.SizeNameCaptionText {
		s *= 1.28
	}
	return s
}

// TestPromptShowsTheDurationWhole: a call's line keeps its state whole
// ("done in 2 ms"), on screen, in the quick prompt at its size with the
// text at 128% and a long tool name and arguments: only what comes after
// it (the arguments) is cut. It showed "everything · done in 2 m…",
// which read as minutes.
func TestPromptShowsTheDurationWhole(t *testing.T) {
	q := newPrompt(t, "what time is it")
	fyne.CurrentApp().Settings().SetTheme(bigText{theme.DefaultTheme()})
	tr := transcript.New()
	tr.User("what time is it", time.Now())
	tr.StartRun("r1")
	args := []byte(`{"zone":"Europe/Amsterdam","format":"a long format string that cannot fit on the line"}`)
	tr.ToolRequested("c1", "everything.get-the-time-of-the-server", args)
	tr.ToolStarted("c1", "everything.get-the-time-of-the-server", args)
	tr.ToolFinished("c1", "everything.get-the-time-of-the-server", nil, "12:00", false, false, 2*time.Millisecond)
	asked, calls := Calls(tr)
	q.Update(&Update{Asked: asked, Calls: calls})
	q.win.Content().Refresh()
	var state *widget.Label
	for _, l := range guitest.All[*widgets.DimLabel](q.win.Content()) {
		if strings.Contains(l.Text, "done in") {
			state = &l.Label
		}
	}
	if state == nil {
		t.Fatal("no label says done in")
	}
	if !strings.HasSuffix(state.Text, "done in 2 ms") {
		t.Errorf("the state's label is %q, want it to end with the duration", state.Text)
	}
	size := fyne.CurrentApp().Settings().Theme().Size(theme.SizeNameText)
	need := fyne.MeasureText(state.Text, size, state.TextStyle).Width + 2*theme.InnerPadding()
	at := fyne.CurrentApp().Driver().AbsolutePositionForObject(state)
	if state.Size().Width+0.5 < need {
		t.Errorf("%q is cut: %.0f px shown of %.0f", state.Text, state.Size().Width, need)
	}
	if right, win := at.X+need, q.win.Canvas().Size().Width; right > win+0.5 {
		t.Errorf("%q ends at x=%.0f, past the window's %.0f", state.Text, right, win)
	}
	if l := q.Lines(); len(l) != 1 || !strings.Contains(l[0], "done in 2 ms · zone: ") {
		t.Errorf("the line reads %q", l)
	}
}
