// Package transcript is the model behind the window's chat view: a list of
// rows (message headers, blocks of text, code blocks, tool-call cards,
// notices) built from a conversation's events, with the changes since the
// last look kept so that a view can redraw only what changed.
//
// A message is split into blocks (paragraphs, code fences, and pieces of at
// most MaxBlock bytes), a row each: while an answer streams only its last
// row changes, so the cost of a delta does not grow with the message, and a
// long conversation can be shown by a virtualized list that never holds
// every row's widgets.
//
// A Transcript belongs to one goroutine (the window's bridge actor); Rows
// are values, safe to hand to another goroutine.
package transcript

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"deckhand/clean"
	"deckhand/replay"
	"deckhand/tools"
)

// Kind is what a row shows.
type Kind int

const (
	Header Kind = iota // who speaks: "You" or "Deckhand", with a copy of the whole message
	Text               // a block of Markdown
	Code               // a code block, monospace, with a copy button
	Tool               // a tool-call card
	Notice             // a note from Deckhand: a retry, the depth limit, an error
)

// ToolState is where a tool call stands.
type ToolState int

const (
	Asked ToolState = iota // requested, waiting for the gate
	Running
	Succeeded
	Failed
	Denied
)

// Row is one line of the transcript view.
type Row struct {
	Kind Kind
	Role string // "user" or "assistant", for headers and blocks
	// Text is the block's Markdown, the code of a code block, the notice,
	// or, for a header, the whole message (what its copy button copies).
	Text      string
	Lang      string // a code block's language
	Streaming bool   // the last block of a message still arriving
	// Plain: the block is shown as written, line breaks kept, not as
	// Markdown (the person's own words).
	Plain bool
	// Cont: the block goes on with the paragraph of the row before, cut
	// from it at MaxBlock (the chat draws it on with no paragraph's gap);
	// Join is the white space between them in the message.
	Cont  bool
	Join  string
	Time  time.Time
	Error bool // a notice that reports a failure

	// Run is the run a user message's header begins, and Last says it is
	// the conversation's last: the header offers Retry, Edit and Delete.
	// A tool card's Run is the run that made its call (for its view); a
	// notice offering Retry now, the run that waits (RetryWaiting).
	Run  string
	Last bool
	// Version is which of the Versions of its message a header's run
	// is (from 1; it shows ‹ 1/2 ›), Versions 0 when it has one; Prev and
	// Next are the runs of the versions before and after it ("": none).
	Version, Versions int
	Prev, Next        string
	// Info is what an answer's header says on hover: the model that wrote
	// it, its tokens and its speed (AnswerInfo).
	Info string
	// Retrying: a notice that the model request is tried again after an
	// error; the next retry or failure, when it follows at once, takes its
	// place (Retrying, NoteAction), so that the error shows once.
	Retrying bool
	// Try is the try a notice offering Retry now waits for (RetryWaiting):
	// the one its button asks for, and no later one.
	Try int
	// Action is what a notice offers: "retry" (after a failure) or
	// "continue" (after Stop, which also offers Retry). Only the last
	// run's notices keep theirs.
	Action string

	// Tool cards.
	Call     string
	Tool     string // alias.tool
	Args     string // pretty JSON
	State    ToolState
	Progress float64
	Total    float64
	Status   string // progress message
	Output   string
	Elapsed  time.Duration
	// Expanded: the person asked to see all of a long card (Long arguments
	// or output); until then the card shows their Cut.
	Expanded bool
	// Collapsed: the card shows its one-line header alone. The finished
	// cards of a run of CollapseRun calls or more collapse when the run
	// is over (Calls).
	Collapsed bool
	// Cut is what the result limit cut of the result before the model
	// was given Output (the zero Cut: nothing), as Deckhand cut it: a
	// marker in Output alone may be a server's (ToolCut).
	Cut tools.Cut
	// Media is the result's images and resource links (nil: none), their
	// names and URIs cleaned. An image's bytes are dropped, oldest first,
	// once the transcript keeps more than MaxMediaBytes of them.
	Media *tools.Media
	// Structured is the result's structured content as JSON, for the
	// tool's view (an MCP App); "" when none. (A string: rows compare.)
	Structured string
	// Meta is the result's _meta as JSON, for the tool's view; "" when
	// none.
	Meta string
	// Cancelled: the call was cancelled, the person stopped its run (its
	// Output says so; State is Failed): its view is told tool-cancelled,
	// not that result.
	Cancelled bool
	// Unknown: the call was sent and Deckhand stopped before its result
	// came back (Output says so; State is Failed): Elapsed is how long the
	// log saw it running, at least (0: not known).
	Unknown bool
	// NotRun says, in words, why a finished call never ran ("denied",
	// "the run was stopped before it was approved"; NotRunWhy); "" when
	// it ran or has not ended. Its card says so, not how long it took.
	NotRun string
	// Origin is who made the call when not the model: "the view of
	// server.tool" for a call a tool's view made (ViewCall), which no
	// run holds and the model never sees; "" for the model's.
	Origin string
}

// MaxBlock bounds a text block; longer paragraphs are cut at a line break
// (or after a sentence, or at a space) so that a streaming row stays
// small, the rest going on in the next row (Row.Cont).
const MaxBlock = 2048

// CollapseAfter is how many lines of a tool's output a card shows before it
// is expanded.
const CollapseAfter = 8

// CollapseRun is how many calls make a run long enough for its finished
// cards to collapse when it is over.
const CollapseRun = 4

// MaxMediaBytes bounds the image bytes a transcript keeps.
const MaxMediaBytes = 48 << 20

// noLongerKept is why an image past MaxMediaBytes is not shown.
const noLongerKept = "no longer kept (later images took its place)"

// Transcript is one conversation's rows.
type Transcript struct {
	rows []Row
	// image reads back a tool's image kept beside the log by its SHA-256
	// (FromEventsImages); nil: none is.
	image func(sum string) []byte
	// keep names the images image reads (keptImages); nil: all.
	keep  map[string]bool
	runs  []runStart // where each run's rows begin
	dirty map[int]bool
	calls map[string]int // call id -> row
	// questions are the calls an approval was asked about, with why the
	// question closed unanswered ("" while open, or once a person
	// answered): what NotRunWhy says of a call that then never ran.
	questions map[string]string

	mediaRows  []int // rows whose Media keeps image bytes, oldest first
	mediaBytes int

	// hidden are the rows of the runs of versions not shown, by run.
	hidden map[string][]Row
	// cont is the answer a continuation extends (Continue): what streams
	// next is written after it, in its rows.
	cont  string
	conts map[string]bool // the runs that continued an answer (Continue)

	// The assistant message being streamed.
	streaming bool
	first     time.Time       // when its text (or its continuation's) began
	header    int             // its header row
	text      strings.Builder // all of it so far
	split     splitter
}

// New returns an empty transcript.
func New() *Transcript {
	return &Transcript{dirty: map[int]bool{}, calls: map[string]int{}, questions: map[string]string{}}
}

// Len is the number of rows.
func (t *Transcript) Len() int { return len(t.rows) }

// Row returns row i.
func (t *Transcript) Row(i int) Row { return t.rows[i] }

// Changes returns the row count and copies of the rows changed since the
// last call, and forgets them.
func (t *Transcript) Changes() (n int, changed map[int]Row) {
	if len(t.dirty) == 0 {
		return len(t.rows), nil
	}
	changed = make(map[int]Row, len(t.dirty))
	for i := range t.dirty {
		if i < len(t.rows) {
			changed[i] = t.rows[i]
		}
	}
	clear(t.dirty)
	return len(t.rows), changed
}

func (t *Transcript) add(r Row) int {
	t.rows = append(t.rows, r)
	i := len(t.rows) - 1
	t.dirty[i] = true
	return i
}

func (t *Transcript) set(i int, r Row) {
	t.rows[i] = r
	t.dirty[i] = true
}

// runStart is the first row of a run.
type runStart struct {
	id  string
	row int
}

// Note actions.
const (
	ActionRetry    = "retry"
	ActionContinue = "continue"
	// ActionKey offers the settings at the API key (the model refused the
	// key), besides Retry.
	ActionKey = "key"
	// ActionAddress offers the settings at the model's address (nothing
	// answers there, or not the API: a 404), besides Retry.
	ActionAddress = "address"
	// ActionModel offers the settings at the model's name (the server
	// does not know it), besides Retry.
	ActionModel = "model"
	// ActionRetryNow offers Retry now on a retry's notice while its run
	// waits to ask the model again (RetryWaiting), until the try goes
	// (Retried).
	ActionRetryNow = "retry now"
)

// StartRun begins run id: the rows added from here to the next run's are
// its own. The run before is no longer the last: its header's Retry and
// Edit, and its notices' actions, go.
func (t *Transcript) StartRun(id string) {
	t.endStream()
	t.unlast()
	t.runs = append(t.runs, runStart{id: id, row: len(t.rows)})
}

// unlast takes the last run's controls away.
func (t *Transcript) unlast() {
	if len(t.runs) == 0 {
		return
	}
	for i := t.runs[len(t.runs)-1].row; i < len(t.rows); i++ {
		if r := t.rows[i]; r.Last || r.Action != "" {
			r.Last, r.Action = false, ""
			t.set(i, r)
		}
	}
}

// RemoveRun takes run id's rows out (retry, edit, delete); false if the
// transcript has no such run. The rows after it move up: the caller
// redraws the whole view.
func (t *Transcript) RemoveRun(id string) bool {
	i := -1
	for j, r := range t.runs {
		if r.id == id {
			i = j
		}
	}
	if i < 0 || t.streaming {
		return false
	}
	start, end := t.runs[i].row, len(t.rows)
	if i+1 < len(t.runs) {
		end = t.runs[i+1].row
	}
	n := end - start
	t.rows = append(t.rows[:start], t.rows[end:]...)
	t.runs = append(t.runs[:i], t.runs[i+1:]...)
	for j := i; j < len(t.runs); j++ {
		t.runs[j].row -= n
	}
	for call, row := range t.calls {
		switch {
		case row >= end:
			t.calls[call] = row - n
		case row >= start:
			delete(t.calls, call)
		}
	}
	media := t.mediaRows[:0]
	t.mediaBytes = 0
	for _, row := range t.mediaRows {
		switch {
		case row >= end:
			row -= n
		case row >= start:
			continue
		}
		media = append(media, row)
		t.mediaBytes += t.rows[row].Media.Bytes()
	}
	t.mediaRows = media
	if i == len(t.runs) && i > 0 { // the last run went: the one before is last now
		if h := t.runs[i-1].row; h < len(t.rows) && t.rows[h].Kind == Header {
			r := t.rows[h]
			r.Last = true
			t.rows[h] = r
		}
	}
	clear(t.dirty)
	for j := range t.rows {
		t.dirty[j] = true
	}
	return true
}

// User adds what the person said; after StartRun, its header begins the
// run.
func (t *Transcript) User(text string, at time.Time) {
	t.endStream()
	h := Row{Kind: Header, Role: "user", Text: text, Time: at}
	if n := len(t.runs); n > 0 && t.runs[n-1].row == len(t.rows) {
		h.Run, h.Last = t.runs[n-1].id, true
	}
	t.add(h)
	for _, b := range Blocks(text) {
		b.Role, b.Plain = "user", b.Kind == Text
		t.add(b)
	}
}

// Delta appends streamed text to the assistant's answer.
func (t *Transcript) Delta(text string, at time.Time) {
	text = clean.Text(text)
	if text == "" {
		return
	}
	if !t.streaming {
		t.streaming = true
		t.first = at
		t.text.Reset()
		t.split = splitter{}
		if t.cont != "" {
			// The first words go on from the stopped text, a space
			// between them where a sentence had ended.
			text = strings.TrimPrefix(replay.Continued(t.cont, text), t.cont)
			t.text.WriteString(t.cont)
		} else {
			t.header = t.add(Row{Kind: Header, Role: "assistant", Time: at})
		}
	}
	t.text.WriteString(text)
	full := t.text.String()
	// Blocks that closed become rows of their own; the open one follows.
	for _, b := range t.split.feed(full) {
		t.placeBlock(b, false)
	}
	t.placeBlock(t.split.open(full), true)
}

// placeBlock writes a block into its row: the open block's row is reused
// until it closes.
func (t *Transcript) placeBlock(b block, streaming bool) {
	r := b.row()
	r.Role, r.Streaming = "assistant", streaming
	idx := t.header + 1 + b.index
	if idx < len(t.rows) {
		t.set(idx, r)
		return
	}
	t.add(r)
}

// Assistant completes the assistant's answer with its final text (which may
// differ from what streamed, or arrive without streaming at all).
func (t *Transcript) Assistant(text string, at time.Time) {
	text = clean.Text(text)
	if t.cont != "" {
		text = replay.Continued(t.cont, text)
		if !t.streaming {
			// Nothing streamed: the answer it extends is rewritten whole.
			t.streaming = true
			t.text.Reset()
			t.text.WriteString(t.cont)
		}
		t.cont = ""
	}
	if t.streaming && t.text.String() == text {
		// The header's copy button copies the whole message, now complete.
		t.set(t.header, Row{Kind: Header, Role: "assistant", Text: text, Time: t.rows[t.header].Time})
		// Close the last block: the text's last line is complete now.
		full := t.text.String() + "\n"
		for _, b := range t.split.feed(full) {
			t.placeBlock(b, false)
		}
		if last := t.split.open(full); !last.empty() {
			t.placeBlock(last, false)
		} else if n := t.header + 1 + last.index; n == len(t.rows)-1 && t.rows[n].Streaming {
			// The open row turned out empty (the text ended with a blank line).
			t.rows = t.rows[:n]
			delete(t.dirty, n)
		}
		t.streaming = false
		return
	}
	if text == "" {
		t.endStream()
		return
	}
	if t.streaming {
		// Replace what streamed with the final text.
		t.rows = t.rows[:t.header]
		for i := range t.dirty {
			if i >= t.header {
				delete(t.dirty, i)
			}
		}
		t.streaming = false
	}
	t.add(Row{Kind: Header, Role: "assistant", Text: text, Time: at})
	for _, b := range Blocks(text) {
		b.Role = "assistant"
		t.add(b)
	}
}

// endStream closes a stream that ended without a final message (stopped).
func (t *Transcript) endStream() {
	if !t.streaming {
		return
	}
	t.streaming = false
	if n := len(t.rows) - 1; n > t.header && t.rows[n].Streaming {
		r := t.rows[n]
		r.Streaming = false
		t.set(n, r)
	}
}

// ToolRequested adds a card for a call the model asked for.
func (t *Transcript) ToolRequested(call, tool string, args json.RawMessage) {
	tool = clean.Line(tool)
	t.endStream()
	if _, ok := t.calls[call]; ok {
		return
	}
	run := ""
	if n := len(t.runs); n > 0 {
		run = t.runs[n-1].id // the run in progress (or being replayed) made the call
	}
	t.calls[call] = t.add(Row{Kind: Tool, Call: call, Tool: tool, Args: clean.Text(readableJSON(tools.PrettyArgs(args))), State: Asked, Run: run})
}

// ToolStarted marks a call running.
func (t *Transcript) ToolStarted(call, tool string, args json.RawMessage) {
	i, ok := t.calls[call]
	if !ok {
		t.ToolRequested(call, tool, args)
		i = t.calls[call]
	}
	r := t.rows[i]
	r.State = Running
	t.set(i, r)
}

// ToolProgress updates a running call's progress.
func (t *Transcript) ToolProgress(call string, progress, total float64, message string) {
	message = clean.Line(message)
	i, ok := t.calls[call]
	if !ok {
		return
	}
	r := t.rows[i]
	r.Progress, r.Total, r.Status = progress, total, message
	t.set(i, r)
}

// ToolFinished shows how a call ended.
func (t *Transcript) ToolFinished(call, tool string, args json.RawMessage, output string, isError, denied bool, elapsed time.Duration) {
	tool, output = clean.Line(tool), clean.Text(output)
	i, ok := t.calls[call]
	if !ok {
		t.ToolRequested(call, tool, args)
		i = t.calls[call]
	}
	r := t.rows[i]
	r.NotRun = ""
	if r.State == Asked { // never started
		q, asked := t.questions[call]
		r.NotRun = NotRunWhy(output, isError, denied, asked, q)
	}
	delete(t.questions, call)
	switch {
	case denied:
		r.State = Denied
	case isError:
		r.State = Failed
	default:
		r.State = Succeeded
	}
	r.Output, r.Elapsed, r.Unknown = output, elapsed, false
	t.set(i, r)
}

// ToolUnknown marks a finished call's outcome unknown: Deckhand stopped
// before its result came back, and its Elapsed is a lower bound. A later
// ToolFinished (its task followed to its end) clears it.
func (t *Transcript) ToolUnknown(call string) {
	i, ok := t.calls[call]
	if !ok {
		return
	}
	r := t.rows[i]
	r.Unknown = true
	t.set(i, r)
}

// FailedState is what a failed call's card says of its end, its duration
// written by elapsed: "failed after 1.2 s"; for a call whose outcome is
// unknown, how long it was seen running, "outcome unknown · ran at least
// 5.2 s", or no duration when the log saw none.
func (r Row) FailedState(elapsed func(time.Duration) string) string {
	switch {
	case !r.Unknown:
		return "failed after " + elapsed(r.Elapsed)
	case r.Elapsed < time.Millisecond:
		return "outcome unknown"
	}
	return "outcome unknown · ran at least " + elapsed(r.Elapsed)
}

// ToolCut records what the result limit cut of a finished call's result
// before the model saw it.
func (t *Transcript) ToolCut(call string, c tools.Cut) {
	i, ok := t.calls[call]
	if !ok || t.rows[i].Cut == c {
		return
	}
	r := t.rows[i]
	r.Cut = c
	t.set(i, r)
}

// ToolMedia gives a finished call's card the images and links of its
// result. Names and URIs are cleaned; image bytes past MaxMediaBytes in the
// whole transcript are dropped from the oldest cards first.
func (t *Transcript) ToolMedia(call string, m *tools.Media) {
	i, ok := t.calls[call]
	if !ok || m == nil {
		return
	}
	m = m.Map(clean.Line)
	r := t.rows[i]
	if r.Media != nil {
		t.mediaBytes -= r.Media.Bytes()
		t.mediaRows = slices.DeleteFunc(t.mediaRows, func(j int) bool { return j == i })
	}
	r.Media = m
	t.set(i, r)
	if n := m.Bytes(); n > 0 {
		t.mediaBytes += n
		t.mediaRows = append(t.mediaRows, i)
	}
	for t.mediaBytes > MaxMediaBytes && len(t.mediaRows) > 0 {
		j := t.mediaRows[0]
		t.mediaRows = t.mediaRows[1:]
		if j >= len(t.rows) || t.rows[j].Media == nil {
			continue
		}
		old := t.rows[j]
		t.mediaBytes -= old.Media.Bytes()
		dropped := &tools.Media{Images: slices.Clone(old.Media.Images), Links: old.Media.Links}
		for k := range dropped.Images {
			if dropped.Images[k].Data != nil {
				dropped.Images[k].Data = nil
				dropped.Images[k].Refused = noLongerKept
			}
		}
		old.Media = dropped
		t.set(j, old)
	}
}

// Expand shows (or hides again) the whole of a card; either way the card
// is open (not Collapsed).
func (t *Transcript) Expand(i int, expanded bool) {
	if i < 0 || i >= len(t.rows) || t.rows[i].Kind != Tool {
		return
	}
	r := t.rows[i]
	r.Expanded, r.Collapsed = expanded, false
	t.set(i, r)
}

// Collapse folds a card to its header, or opens it again.
func (t *Transcript) Collapse(i int, collapsed bool) {
	if i < 0 || i >= len(t.rows) || t.rows[i].Kind != Tool || t.rows[i].Collapsed == collapsed {
		return
	}
	r := t.rows[i]
	r.Collapsed = collapsed
	t.set(i, r)
}

// Long reports whether a card's text (arguments or output) is long enough
// to show only its Cut until expanded.
func Long(s string) bool {
	return (len(s) > previewBytes || strings.Count(s, "\n") >= CollapseAfter) && len(s)-len(previewHead(s)) >= minHidden
}

// Note adds a notice; isError marks a failure.
func (t *Transcript) Note(text string, isError bool) {
	t.NoteAction(text, isError, "")
}

// NoteAction adds a notice that offers an action (ActionRetry,
// ActionContinue) until the next run starts. It takes the place of a
// retry's notice just before it: the failure says the same error.
func (t *Transcript) NoteAction(text string, isError bool, action string) {
	t.notice(Row{Kind: Notice, Text: clean.Text(text), Error: isError, Action: action})
}

// Retrying says that the model request is tried again after an error
// (text says which, and when): one notice, updated in place while the
// retries follow one another.
func (t *Transcript) Retrying(text string) {
	t.notice(Row{Kind: Notice, Text: clean.Text(text), Retrying: true})
}

// RetryWaiting is Retrying for run, which waits to ask the model again
// (try try): the notice offers Retry now (ActionRetryNow) until the try
// goes or the run ends (Retried).
func (t *Transcript) RetryWaiting(run, text string, try int) {
	t.notice(Row{Kind: Notice, Text: clean.Text(text), Retrying: true, Action: ActionRetryNow, Run: run, Try: try})
}

// Retried says that run no longer waits to try again (the try went, or
// the run ended): its notice offers Retry now no more, and says text
// instead of what it said, unless text is "".
func (t *Transcript) Retried(run, text string) {
	from := 0 // the last run's rows: a run in progress is the last
	if n := len(t.runs); n > 0 {
		from = t.runs[n-1].row
	}
	for i := len(t.rows) - 1; i >= from; i-- {
		r := t.rows[i]
		if r.Kind != Notice || r.Action != ActionRetryNow || r.Run != run {
			continue
		}
		r.Action, r.Try = "", 0
		if text != "" {
			r.Text = clean.Text(text)
		}
		t.set(i, r)
		return
	}
}

func (t *Transcript) notice(r Row) {
	t.endStream()
	// A Stop or a note of another kind keeps the retry's error above it.
	if n := len(t.rows); n > 0 && t.rows[n-1].Retrying && (r.Retrying || r.Error) && (len(t.runs) == 0 || t.runs[len(t.runs)-1].row < n) {
		t.set(n-1, r)
		return
	}
	t.add(r)
}

// Calls resets the call ids seen, at the end of a run: ids are the model's
// and may repeat in the next run. The finished cards of a run of
// CollapseRun calls or more collapse: the answer is what is read then.
func (t *Transcript) Calls() {
	if len(t.calls) >= CollapseRun {
		for _, i := range t.calls {
			switch t.rows[i].State {
			case Succeeded, Failed, Denied:
				t.Collapse(i, true)
			}
		}
	}
	clear(t.calls)
	clear(t.questions)
}

// previewBytes bounds a Cut's head.
const previewBytes = 1500

// minHidden is the least a Cut hides: a text with less beyond its
// head is shown whole ("… 2 B more" hid a line end and a character behind
// an ellipsis, and saved nothing).
const minHidden = 120

// Cut is what a card shows of a long text until the person asks for all
// of it: its head (its first CollapseAfter lines, at most previewBytes)
// and how many bytes are hidden after it; a text that is not Long, whole,
// with none hidden (a rest under minHidden is not worth a control).
func Cut(s string) (head string, hidden int) {
	if !Long(s) {
		return s, 0
	}
	head = previewHead(s)
	return head, len(s) - len(head)
}

// What a card draws of a text shown whole: Fyne lays out every line of
// it in the UI goroutine, the window frozen meanwhile. Measured (a card
// shown whole in Fyne's test window, on a busy 2-core machine): one line
// of 32 KiB 0.09 s to lay out, of 64 KiB 0.9 s; 1000 lines of 40 bytes
// 0.5 s; 9000 lines of 7 bytes 9.5 s; 256 KiB (the default
// mcp.max_output_bytes) of short lines 88 s.
const (
	WholeLines = 1000
	WholeBytes = 32 << 10
)

// Whole is what a card draws of a text the person asked to see all of:
// at most WholeLines lines and WholeBytes bytes, ending at a line's end
// when one is near, and how many bytes are not drawn (0: all are).
func Whole(s string) (shown string, hidden int) {
	end := len(s)
	if n := strings.Count(s, "\n"); n >= WholeLines {
		end = 0
		for range WholeLines {
			end += strings.IndexByte(s[end:], '\n') + 1
		}
	}
	if end > WholeBytes {
		end = WholeBytes
		if i := strings.LastIndexByte(s[:end], '\n'); i >= WholeBytes/2 {
			end = i + 1
		}
		for end > 0 && !utf8.RuneStart(s[end]) {
			end--
		}
	}
	if end == len(s) {
		return s, 0
	}
	return strings.TrimSuffix(s[:end], "\n"), len(s) - end
}

// previewHead is what a Cut shows of a long text.
func previewHead(output string) string {
	lines := strings.SplitN(output, "\n", CollapseAfter+1)
	head := strings.Join(lines[:min(len(lines), CollapseAfter)], "\n")
	if len(head) > previewBytes {
		head = head[:previewBytes]
		for len(head) > 0 && !utf8.RuneStart(output[len(head)]) {
			head = head[:len(head)-1]
		}
	}
	return head
}

// Attachment is a file attached to the person's message, as the
// transcript names it.
type Attachment struct {
	Name string
	Size int // bytes
}

// Attached names the files attached to the person's last message, under
// it, one line each: "📎 notes.txt (3.2 KiB)".
func (t *Transcript) Attached(files []Attachment) {
	if len(files) == 0 {
		return
	}
	lines := make([]string, len(files))
	for i, f := range files {
		lines[i] = "📎 " + codeSpan(clean.Line(f.Name)) + " (" + tools.Size(f.Size) + ")"
	}
	t.add(Row{Kind: Text, Role: "user", Text: strings.Join(lines, "\n\n")})
}

// codeSpan is text as a Markdown code span, shown as it is: its fence is
// longer than any run of backticks in it.
func codeSpan(s string) string {
	fence := tools.Fence(s, 1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return fence + s + fence
}

// Card is the tool card of call made by run, as it stands.
func (t *Transcript) Card(run, call string) (Row, bool) {
	for _, r := range t.rows {
		if r.Kind == Tool && r.Run == run && r.Call == call {
			return r, true
		}
	}
	return Row{}, false
}

// ToolCancelled marks a finished call as cancelled (the person stopped
// its run), for its tool's view.
func (t *Transcript) ToolCancelled(call string) {
	i, ok := t.calls[call]
	if !ok {
		return
	}
	r := t.rows[i]
	r.Cancelled = true
	t.set(i, r)
}

// ToolStructured keeps a call's structured result and its _meta for its
// tool's view.
func (t *Transcript) ToolStructured(call string, s, meta json.RawMessage) {
	i, ok := t.calls[call]
	if !ok || s == nil && meta == nil {
		return
	}
	r := t.rows[i]
	r.Structured, r.Meta = string(s), string(meta)
	t.set(i, r)
}

// ViewCall adds the card of a call a tool's view made (origin: "the view
// of server.tool"), once it ended: it is no part of any run (Run is "")
// and the model does not see it, but the chat shows what was done in it.
// While an answer streams, the card goes before it (the streaming rows
// are placed by their place after the answer's header), and moved says
// the rows after it moved: the caller redraws the whole view.
func (t *Transcript) ViewCall(call, tool, origin string, args json.RawMessage, output string, isError, denied, refused bool) (moved bool) {
	r := Row{Kind: Tool, Call: call, Tool: clean.Line(tool), Origin: clean.Line(origin),
		Args: clean.Text(readableJSON(tools.PrettyArgs(args))), Output: clean.Text(output), State: Succeeded}
	switch {
	case denied:
		r.State, r.NotRun = Denied, "denied"
	case refused:
		// As a model's call Deckhand refused: why, in the person's words.
		r.State, r.NotRun = Failed, NotRunWhy(output, true, false, false, "")
	case isError:
		r.State = Failed
	}
	if !t.streaming {
		t.add(r)
		return false
	}
	at := t.header // a continuation's too: its rows follow the answer it extends
	t.rows = slices.Insert(t.rows, at, r)
	t.header++
	for i := range t.runs {
		if t.runs[i].row > at {
			t.runs[i].row++
		}
	}
	for c, i := range t.calls {
		if i >= at {
			t.calls[c] = i + 1
		}
	}
	for k, i := range t.mediaRows {
		if i >= at {
			t.mediaRows[k] = i + 1
		}
	}
	for i := at; i < len(t.rows); i++ {
		t.dirty[i] = true
	}
	return true
}

// CutNote is what a card says of a result the limit cut before the model
// saw it (Row.Cut); "" when nothing was cut.
func CutNote(c tools.Cut) string {
	if c.Whole <= c.Kept || c.Kept <= 0 {
		return ""
	}
	kept := "The rest was not kept."
	if c.Saved {
		kept = "Deckhand kept the whole result for you (not for the model) until the chat is deleted."
	}
	return fmt.Sprintf("The model saw %s of this %s result: the rest was cut from its middle, where the marker below is, by the result limit "+
		"(mcp.max_output_bytes in the config file, and at most a quarter of the model's context). %s",
		tools.Size(c.Kept), tools.Size(c.Whole), kept)
}
