package tray

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"deckhand/clean"
	"deckhand/gui/widgets"
	"deckhand/transcript"
)

// The quick prompt's tool activity: one compact line per tool call of the
// current question (its tool, server, state and a short summary of its
// arguments), above the answer, from the same transcript rows the main
// window's tool cards show.

// Calls returns the text of the last thing the person asked in t and
// the tool calls made since, oldest first. Called by the bridge, on its
// goroutine.
func Calls(t *transcript.Transcript) (asked string, calls []transcript.Row) {
	for i := t.Len() - 1; i >= 0; i-- {
		r := t.Row(i)
		switch {
		case r.Kind == transcript.Tool:
			calls = append(calls, r)
		case r.Kind == transcript.Header && r.Role == "user":
			asked = r.Text
			i = 0
		}
	}
	for i, j := 0, len(calls)-1; i < j; i, j = i+1, j-1 {
		calls[i], calls[j] = calls[j], calls[i]
	}
	return asked, calls
}

// callView is one call's line.
type callView struct {
	obj     fyne.CanvasObject
	icon    *widget.Icon
	spinner *widget.Activity
	name    *widget.Label
	// head is its server and state ("everything · done in 2 ms"), whole;
	// detail the rest (why it failed, its arguments), cut to the width.
	// One label cut at the end showed "done in 2 m…" at 640×480, which
	// read as minutes.
	head   *widget.Label
	detail *widget.Label
	// answer brings up the call's approval while it waits for one: the
	// dialog may be on the main window, where the person took it.
	answer   *widget.Button
	call     string
	spinning bool
}

func newCallView(host Host) *callView {
	v := &callView{icon: widget.NewIcon(nil), spinner: widget.NewActivity()}
	v.answer = widget.NewButton("Approve or deny…", func() { host.Answer(v.call) })
	v.answer.Importance = widget.HighImportance
	v.answer.Hide()
	v.name = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	var head, detail fyne.CanvasObject
	v.head, head = widgets.Subtle("")
	v.detail, detail = widgets.Subtle("")
	v.detail.Truncation = fyne.TextTruncateEllipsis // one line each, however wide
	v.spinner.Hide()
	left := container.NewHBox(container.NewStack(v.icon, v.spinner), v.name)
	v.obj = container.NewBorder(nil, nil, left, v.answer, container.New(&lineLayout{}, head, detail))
	return v
}

// set shows r: its name, then server · state · arguments, on one line (a
// failure's reason, or why it never ran, before the arguments, so that it
// is not the part cut).
func (v *callView) set(r transcript.Row, icons *widgets.StatusIcons) {
	server, name, ok := strings.Cut(r.Tool, ".")
	if !ok {
		server, name = "", r.Tool
	}
	widgets.SetText(v.name, name)
	v.call = r.Call
	widgets.SetVisible(v.answer, r.State == transcript.Asked)
	var icon fyne.Resource
	state, why := "", "" // why: after the state, cut with the arguments
	switch r.State {
	case transcript.Asked:
		icon, state = theme.QuestionIcon(), "waiting for approval"
	case transcript.Running:
		state = "running"
		if r.Total > 0 {
			state += fmt.Sprintf(" (%d%%)", int(100*r.Progress/r.Total))
		}
		if r.Status != "" {
			why = ": " + widgets.Shorten(r.Status, 40)
		}
	case transcript.Succeeded:
		icon, state = icons.Succeeded, "done in "+widgets.Elapsed(r.Elapsed)
	case transcript.Failed:
		icon, state = icons.Failed, "failed after "+widgets.Elapsed(r.Elapsed)
		if r.RefusedByPolicy() {
			icon, state = icons.Denied, "refused by policy (not run)"
		} else if r.Cancelled {
			// The person stopped it, as its card says: not a failure.
			icon, state = theme.MediaStopIcon(), "stopped after "+widgets.Elapsed(r.Elapsed)
		} else if r.Output != "" {
			why = ": " + widgets.Shorten(r.Output, 80)
		}
	case transcript.Denied:
		icon, state = icons.Denied, "denied"
	}
	if r.NotRun != "" && !r.RefusedByPolicy() {
		// It never ran: why, as its card says, not a duration, which
		// would say it ran and failed.
		icon, state, why = icons.Denied, "not run", ": "+r.NotRun
		if w, ok := strings.CutSuffix(why, transcript.SeeBelow); ok && r.Output != "" {
			why = w + ": " + widgets.Shorten(r.Output, 80)
		}
	}
	if server != "" {
		state = widgets.Shorten(server, 24) + " · " + state
	}
	if args := argSummary(r.Args, 90); args != "" {
		why += " · " + args
	}
	widgets.SetText(v.head, state)
	widgets.SetText(v.detail, why)
	widgets.SetVisible(v.detail, why != "")
	if icon != nil {
		widgets.SetIcon(v.icon, icon)
	}
	widgets.SetVisible(v.icon, icon != nil)
	running := r.State == transcript.Running
	widgets.SetVisible(v.spinner, running)
	if running != v.spinning {
		v.spinning = running
		if running {
			v.spinner.Start()
		} else {
			v.spinner.Stop()
		}
	}
}

func (v *callView) stop() {
	if v.spinning {
		v.spinner.Stop()
		v.spinning = false
	}
}

// setCalls shows calls, one line each, reusing the lines it has.
func (q *Prompt) setCalls(calls []transcript.Row) {
	for len(q.callViews) < len(calls) {
		v := newCallView(q.host)
		q.callViews = append(q.callViews, v)
		q.Calls.Add(v.obj)
	}
	for i, v := range q.callViews {
		if i < len(calls) {
			v.set(calls[i], &q.icons)
			widgets.SetVisible(v.obj, true)
		} else {
			v.stop()
			widgets.SetVisible(v.obj, false)
		}
	}
	widgets.SetVisible(q.Calls, len(calls) > 0)
}

// argSummary says in one line what a call's
// arguments (a JSON object, as the card shows them) are, in at most limit
// characters: each key with its value, strings quoted and cut short,
// objects and arrays compacted.
// Arguments that are not an object are shown cut short as they are.
func argSummary(args string, limit int) string {
	args = strings.TrimSpace(args)
	if args == "" || args == "{}" || args == "null" {
		return ""
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal([]byte(args), &fields) != nil {
		return widgets.Shorten(clean.Line(args), limit)
	}
	// The keys in the order the model wrote them.
	dec := json.NewDecoder(strings.NewReader(args))
	dec.Token() // {
	var parts []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		key, _ := tok.(string)
		var raw json.RawMessage
		if dec.Decode(&raw) != nil {
			break
		}
		parts = append(parts, clean.Line(key)+": "+valueSummary(raw))
	}
	return widgets.Shorten(strings.Join(parts, ", "), limit)
}

// valueSummary is one argument's value, short. A path keeps its end (the
// file's name), with the home folder as ~.
func valueSummary(raw json.RawMessage) string {
	const most = 40
	var s string
	if bytes.HasPrefix(raw, []byte{'"'}) && json.Unmarshal(raw, &s) == nil {
		s = clean.Line(s)
		if home := homeDir(); home != "" && (s == home || strings.HasPrefix(s, home+"/")) {
			s = "~" + s[len(home):]
		}
		if r := []rune(s); len(r) > most && looksLikePath(s) {
			return `"…` + string(r[len(r)-most+1:]) + `"`
		}
		return `"` + widgets.Shorten(s, most) + `"`
	}
	var buf bytes.Buffer
	if json.Compact(&buf, raw) == nil {
		return widgets.Shorten(clean.Line(buf.String()), most)
	}
	return widgets.Shorten(clean.Line(string(raw)), most)
}

// looksLikePath: an absolute or home-relative path without spaces.
func looksLikePath(s string) bool {
	return (strings.HasPrefix(s, "/") || strings.HasPrefix(s, "~/")) && !strings.ContainsAny(s, " \t")
}

var homeDir = sync.OnceValue(func() string {
	home, _ := os.UserHomeDir()
	return strings.TrimSuffix(home, "/")
})

// Lines is what the prompt shows of its tool calls, one line each:
// "name | detail".
func (q *Prompt) Lines() []string {
	var out []string
	if !q.Calls.Visible() {
		return nil
	}
	for _, v := range q.callViews {
		if v.obj.Visible() {
			out = append(out, v.name.Text+" | "+v.head.Text+v.detail.Text)
		}
	}
	return out
}

// Spinning reports whether line i's spinner shows, and whether it turns.
func (q *Prompt) Spinning(i int) (shown, turning bool) {
	v := q.callViews[i]
	return v.spinner.Visible(), v.spinning
}

// AnswerButton is line i's Approve or deny…, or nil when there is no line i.
func (q *Prompt) AnswerButton(i int) *widget.Button {
	if i >= len(q.callViews) || !q.callViews[i].obj.Visible() {
		return nil
	}
	return q.callViews[i].answer
}

// lineLayout lays a call's head and the rest of its line side by side:
// the head its whole width, the rest what is left (cut), with no gap
// beyond the labels' own padding between them, so that they read as one
// line.
type lineLayout struct{}

func (lineLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	head, rest := objs[0], objs[1]
	w := min(head.MinSize().Width, size.Width)
	head.Move(fyne.NewPos(0, 0))
	head.Resize(fyne.NewSize(w, size.Height))
	// The labels' padding meet: the rest begins where the head's text ends.
	gap := theme.InnerPadding()
	rest.Move(fyne.NewPos(w-gap, 0))
	rest.Resize(fyne.NewSize(max(size.Width-w+gap, 0), size.Height))
}

func (lineLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	head, rest := objs[0].MinSize(), objs[1].MinSize()
	return fyne.NewSize(head.Width, max(head.Height, rest.Height))
}
