// Package replay reads a session's event log back into what happened, run by
// run: what the person asked, what the model answered (whole or cut off),
// which tools it called and how each call ended. It is the one reading of
// the log that resuming a conversation (what the model is told) and
// reopening it in the window (what the person sees) share, so that both tell
// the same story, including of a run Deckhand did not live to finish.
//
// Its functions are pure: they read the events they are given and nothing
// else, and are safe anywhere.
package replay

import (
	"encoding/json"
	"slices"
	"strings"
	"time"

	"deckhand/store"
)

// Session is a session's log, read back.
type Session struct {
	// Runs are the runs of the branch shown (Tree.Path): what the model
	// is told and the window shows.
	Runs []Run
	// Other are the runs of the versions not shown, with what followed
	// them, in log order.
	Other []Run
	// Tree is how the runs hang together (versions of a message).
	Tree *Tree
	// Grants are the tools allowed "for this session".
	Grants map[string]bool
	// Loaded are the lazy tools whose schemas the model was given (and
	// not unloaded since).
	Loaded []string
	// Summary is the latest compaction's: it stands in for the turns
	// before run From in the model's view. Nil when never compacted.
	Summary *Summary
	// Views are the calls tools' views made, in log order: no run's, and
	// not the model's to see, but the chat shows them.
	Views []ViewCall
	// Left is how many events were left out because Deckhand did not
	// write them (store.Event.Foreign: edited, inserted, or cut from
	// their chain): what the person and the model read back of a session
	// is only what Deckhand recorded.
	Left int
}

// ViewCall is a call a tool's view made, and how it ended.
type ViewCall struct {
	ID, Tool  string
	Origin    string // "the view of server.tool"
	Arguments json.RawMessage
	Output    string
	IsError   bool
	Denied    bool
	Refused   bool // Deckhand refused it before it could run (not a denial)
	// After is the run whose rows it follows: the last run begun before
	// it ("" when it came before any); Step is how many of that run's
	// steps came before it, or -1 when it came after the run ended.
	After string
	Step  int
	Time  time.Time // when it ended
}

// Summary is a summary of a conversation's first turns (compaction).
type Summary struct{ Text, From string }

// Run is one run: the person's message and what followed.
type Run struct {
	ID    string
	Text  string // the person's message
	Model string // the model asked ("" in logs that did not say)
	// Versions are the runs of the versions of this message (this one
	// among them), oldest first; nil when it has one.
	Versions []string
	Time     time.Time
	Steps    []Step
	End      End
}

// Step is an answer of the model or a notice, in the order they happened;
// exactly one field is set.
type Step struct {
	Answer *Answer
	Notice *Notice
}

// Answer is one answer of the model and the calls it led to.
type Answer struct {
	Text string
	Time time.Time
	// First is when its first streamed text arrived (zero when nothing
	// streamed); the tokens are its request's usage, as the server said
	// (or estimated by Deckhand, when the server sent none: Estimated).
	First                     time.Time
	InputTokens, OutputTokens int
	Estimated                 bool
	// Ended is when a continued answer (Continue after Stop) ended, zero
	// for any other; First and the tokens are then its continuation's,
	// as the live window tells them.
	Ended time.Time
	// Partial: the answer was cut off (the stream broke, the run was
	// stopped, or Deckhand stopped while it streamed); Text is what had
	// arrived, which the person saw.
	Partial bool
	// ToolCalls are the calls as the model sent them (wire names), for its
	// history.
	ToolCalls []ToolCall
	// Calls are the tool calls and shell commands the answer led to, in the
	// order they were requested, with how each ended.
	Calls []*Call
}

// ToolCall is a tool call as the model sent it.
type ToolCall struct{ ID, Name, Arguments string }

// Call is one tool call or shell command and its fate.
type Call struct {
	ID        string
	Tool      string // alias.tool, or local.exec for a shell command
	Arguments json.RawMessage
	Outcome   Outcome
	Output    string // what the model was given, when Finished
	// Structured is the result's structured content, when Finished with
	// some: what the tool's view is given with Output.
	Structured json.RawMessage
	Meta       json.RawMessage // the result's _meta, as Structured
	IsError    bool
	Denied     bool
	// Refused: Deckhand refused it before the gate (an unknown or withheld
	// tool, bad arguments, the policy): it never ran. Absent (false) in
	// logs written before it was recorded.
	Refused   bool
	Cancelled bool // the person's Stop ended it (Output says so)
	// CutKept and CutWhole: the result limit cut the result to CutKept
	// bytes of CutWhole before the model was given Output; 0 when not.
	CutKept, CutWhole int
	// CutSaved: the whole result was kept for the person (store.KeepResult).
	CutSaved bool
	// Images are the result's images as the log names them, each with
	// the SHA-256 of its file beside the log when kept.
	Images []store.LoggedImage
	// Elapsed is how long the call took; for an Unknown call whose run
	// has ended, how long the log saw it running (from its sending to the
	// run's last event before Deckhand stopped): at least that, perhaps
	// much more.
	Elapsed time.Duration
	// Asked: an approval was asked about it. Sent: it was sent to its
	// server (or run) at all; a Finished call that was not ended before
	// it ran (denied, stopped while asked, refused).
	Asked, Sent bool
	// Task is the id of the task the server made of the call (tool.task),
	// while it may still be followed: "" once it expired.
	Task string
}

// Command reports whether the call is a shell command the model proposed
// on a CMD: line (not a tool call of its own).
func (c *Call) Command() bool { return c.Tool == CommandTool }

// CommandTool is the name shell commands are logged under.
const CommandTool = "local.exec"

// Outcome is how far a call got.
type Outcome int

const (
	// NeverStarted: the call was requested (and perhaps asked about) but
	// never sent to its server.
	NeverStarted Outcome = iota
	// Unknown: the call was sent, and Deckhand stopped before its result
	// came back: it may have done what it does.
	Unknown
	// Finished: the call ended (done, failed, denied or refused) and Output
	// is what the model was told.
	Finished
)

// Notice is something the person was told during a run; Retry: that the
// model request was tried again after an error (a retry's notice whose
// try went says so, and when, in place of when it would go).
type Notice struct {
	Text  string
	Time  time.Time
	Retry bool
}

// End is how a run ended.
type End struct {
	Status string // a store.Run* status; RunRunning when the log stops mid-run
	Error  string
	// The run's usage, all its requests together, and its cost.
	InputTokens, OutputTokens int
	CostUSD                   float64
}

// Read reads a session's events (in log order) back into its runs.
func Read(events []store.Event) Session {
	s := Session{Grants: map[string]bool{}}
	var (
		run    *Run
		answer *Answer
		calls  map[string]*Call
		stream strings.Builder // text streamed since the last whole answer
		first  time.Time       // when that text began
		// cont: the run continues the answer before it (Continue): its
		// first answer extends that one.
		cont bool
		// merged: the runs that continued an answer, each to the run
		// whose answer they extend.
		merged map[string]string
		// last is the run begun last (a continuation's: the one it
		// went into).
		last string
	)
	// add adds an answer to the run, or extends the answer it continues.
	add := func(a *Answer) *Answer {
		if cont {
			cont = false
			if n := len(run.Steps); n > 0 {
				if last := run.Steps[n-1].Answer; last != nil && len(last.ToolCalls) == 0 && len(last.Calls) == 0 {
					last.Text = Continued(last.Text, a.Text)
					last.Partial = a.Partial
					last.ToolCalls = a.ToolCalls
					last.First, last.Ended = a.First, a.Time
					last.InputTokens, last.OutputTokens, last.Estimated = a.InputTokens, a.OutputTokens, a.Estimated
					return last
				}
			}
		}
		run.Steps = append(run.Steps, Step{Answer: a})
		return a
	}
	// settle closes the current answer: text that streamed and never became
	// a whole answer is a partial one.
	settle := func() {
		if run == nil {
			return
		}
		if stream.Len() > 0 {
			add(&Answer{Text: stream.String(), Time: first, Partial: true})
			stream.Reset()
		}
		answer, calls = nil, nil
	}
	call := func(id, tool string, args json.RawMessage) *Call {
		if answer == nil {
			// A call with no answer before it in this run (a log older than
			// this reader, or written out of order): give it one.
			answer = &Answer{}
			calls = map[string]*Call{}
			run.Steps = append(run.Steps, Step{Answer: answer})
		}
		c := calls[id]
		if c == nil {
			c = &Call{ID: id, Tool: tool, Arguments: args}
			calls[id] = c
			answer.Calls = append(answer.Calls, c)
		}
		return c
	}
	// sentAt: when each call of the run was sent; seen: the time of the
	// run's last event logged while it ran (run.interrupted is written
	// when Deckhand next starts, and is not one of them).
	sentAt := map[*Call]time.Time{}
	var seen time.Time
	removed := map[string]bool{}
	s.Tree = NewTree()
	for _, e := range events {
		if e.Foreign {
			s.Left++
			continue
		}
		if e.Kind == store.KindRunRemoved {
			removed[e.RunID] = true
			s.Tree.Remove(e.RunID)
			continue
		}
		if e.Kind == store.KindRunChosen {
			s.Tree.Choose(e.RunID)
			continue
		}
		d, err := e.Decode()
		if err != nil {
			continue
		}
		if e.RunID == "" && d.Origin != "" && (e.Kind == store.KindToolSucceeded || e.Kind == store.KindToolFailed) {
			// A view's call: no run made it, whether one was going on
			// or not.
			step := -1
			if run != nil {
				step = len(run.Steps) // an answer streaming then comes after it
			}
			s.Views = append(s.Views, ViewCall{ID: d.Call, Tool: d.Tool, Origin: d.Origin, Arguments: d.Arguments,
				Output: d.Output, IsError: e.Kind != store.KindToolSucceeded, Denied: d.Denied, Refused: d.Refused, After: last, Step: step, Time: e.Time})
			continue
		}
		if e.RunID == "" && d.Origin != "" && e.Kind == store.KindApprovalAsked {
			continue // a view's call asked about: no call of the run going on
		}
		if run == nil && (e.Kind == store.KindToolSucceeded || e.Kind == store.KindToolFailed || e.Kind == store.KindToolTask) {
			// A task's result that came after its run ended (followed
			// when the session was reopened), or its expiry.
			s.late(e, d)
			continue
		}
		if run == nil && e.Kind != store.KindRunStarted {
			s.tools(e.Kind, d)
			continue
		}
		if e.Kind != store.KindRunInterrupted {
			seen = e.Time
		}
		switch e.Kind {
		case store.KindRunStarted:
			settle()
			clear(sentAt) // a run the log left running: nothing says how long its calls ran
			parent := ""
			if d.Parent != nil {
				parent = *d.Parent
			} else if path := s.Tree.Path(); len(path) > 0 {
				// Written before versions: a run followed the one shown.
				parent = path[len(path)-1]
			}
			s.Tree.Add(e.RunID, parent)
			last = e.RunID
			// A continuation of a continuation goes on in the run the
			// first went into: it has no run of its own here.
			into := d.Continues
			if id, ok := merged[into]; ok {
				into = id
			}
			if i := slices.IndexFunc(s.Runs, func(r Run) bool { return r.ID == into }); d.Continues != "" && i >= 0 && d.Continues == parent {
				// Continue: the answer goes on in the run it continues.
				if merged == nil {
					merged = map[string]string{}
				}
				merged[e.RunID] = into
				last = into
				run, cont = &s.Runs[i], true
				run.End.Status = store.RunRunning
				break
			}
			s.Runs = append(s.Runs, Run{ID: e.RunID, Text: d.Text, Model: d.Model, Time: e.Time, End: End{Status: store.RunRunning}})
			run = &s.Runs[len(s.Runs)-1]
		case store.KindAssistantDelta:
			if stream.Len() == 0 {
				first = e.Time
			}
			stream.WriteString(d.Text)
		case store.KindPromptBuilt:
			// A new request: whatever streamed before it was answered whole.
			stream.Reset()
		case store.KindAssistantMessage:
			var began time.Time
			if stream.Len() > 0 {
				began = first
			}
			stream.Reset()
			settle()
			answer = &Answer{Text: d.Text, Time: e.Time, Partial: d.Incomplete, First: began,
				InputTokens: d.Usage.InputTokens, OutputTokens: d.Usage.OutputTokens, Estimated: d.Estimated}
			for _, tc := range d.ToolCalls {
				answer.ToolCalls = append(answer.ToolCalls, ToolCall{ID: tc.ID, Name: tc.Name, Arguments: tc.Arguments})
			}
			calls = map[string]*Call{}
			answer = add(answer)
		case store.KindToolRequested:
			call(d.Call, d.Tool, d.Arguments)
		case store.KindApprovalAsked:
			call(d.Call, d.Tool, d.Arguments).Asked = true
		case store.KindToolTask:
			taskOf(call(d.Call, d.Tool, nil), d)
		case store.KindToolInvoked:
			c := call(d.Call, d.Tool, d.Arguments)
			c.Sent = true
			if c.Outcome == NeverStarted {
				c.Outcome = Unknown
				sentAt[c] = e.Time
			}
		case store.KindCapabilityDenied:
			if d.Capability != "" {
				break // a policy decision; the call's tool.failed follows
			}
			fallthrough // before schema 5: the refused call itself
		case store.KindToolSucceeded, store.KindToolFailed:
			c := call(d.Call, d.Tool, nil)
			c.finish(e.Kind, d)
		case store.KindApprovalGranted:
			if d.Scope == "session" {
				s.Grants[d.Tool] = true
			}
		case store.KindToolsLoaded, store.KindToolsUnloaded, store.KindContextCompacted:
			s.tools(e.Kind, d)
		case store.KindNotice:
			n := &Notice{Text: d.Text, Time: e.Time, Retry: d.Retry}
			if last := len(run.Steps) - 1; d.Tried && last >= 0 && run.Steps[last].Notice != nil && run.Steps[last].Notice.Retry {
				run.Steps[last].Notice = n // the try it announced went: said in its place
				break
			}
			run.Steps = append(run.Steps, Step{Notice: n})
		case store.KindRunSucceeded, store.KindRunFailed, store.KindRunStopped, store.KindRunInterrupted:
			settle()
			in, out, cost := d.InputTokens, d.OutputTokens, d.CostUSD
			if cont {
				cont = false
			}
			if run.End.Status == store.RunRunning && run.ID != e.RunID {
				// A continuation: its usage adds to the run it continues.
				in, out, cost = in+run.End.InputTokens, out+run.End.OutputTokens, cost+run.End.CostUSD
			}
			run.End = End{Status: endStatus(e.Kind), Error: d.Error, InputTokens: in, OutputTokens: out, CostUSD: cost}
			for c, at := range sentAt {
				if c.Outcome == Unknown && seen.After(at) {
					c.Elapsed = seen.Sub(at)
				}
			}
			clear(sentAt)
			run = nil
		}
	}
	settle()
	if len(removed) > 0 {
		s.Runs = slices.DeleteFunc(s.Runs, func(r Run) bool { return removed[r.ID] })
	}
	byID := map[string]Run{}
	for _, r := range s.Runs {
		r.Versions = s.Tree.Versions(r.ID)
		byID[r.ID] = r
	}
	path := s.Tree.Path()
	shown := map[string]bool{}
	var runs []Run
	for _, id := range path {
		if r, ok := byID[id]; ok {
			runs = append(runs, r)
			shown[id] = true
		}
	}
	for _, r := range s.Runs {
		if !shown[r.ID] {
			s.Other = append(s.Other, byID[r.ID])
		}
	}
	s.Runs = runs
	return s
}

// TaskExpired is the status logged for a task the server no longer knew
// when a reopened session asked after it.
const TaskExpired = "expired"

// taskOf notes a call's task from a tool.task event.
func taskOf(c *Call, d store.EventData) {
	switch {
	case d.Status == TaskExpired:
		c.Task = ""
	case d.Task != "":
		c.Task = d.Task
	}
}

// late applies an event about a call of a run that had already ended.
func (s *Session) late(e store.Event, d store.EventData) {
	for i := range s.Runs {
		if s.Runs[i].ID != e.RunID {
			continue
		}
		for _, st := range s.Runs[i].Steps {
			if st.Answer == nil {
				continue
			}
			for _, c := range st.Answer.Calls {
				if c.ID != d.Call {
					continue
				}
				if e.Kind == store.KindToolTask {
					taskOf(c, d)
					return
				}
				c.finish(e.Kind, d)
				return
			}
		}
	}
}

// finish notes how a call ended, from its tool.succeeded or tool.failed.
func (c *Call) finish(kind string, d store.EventData) {
	c.Outcome, c.Output, c.Denied, c.Cancelled, c.Refused = Finished, d.Output, d.Denied, d.Cancelled, d.Refused
	c.IsError = kind != store.KindToolSucceeded
	c.Elapsed = time.Duration(d.ElapsedMS) * time.Millisecond
	c.Structured, c.Meta = object(d.Structured), object(d.Meta)
	c.CutKept, c.CutWhole, c.CutSaved = d.CutKept, d.CutWhole, d.CutSaved
	c.Images = d.Images
}

// object is raw if it is a JSON object, else nil.
func object(raw json.RawMessage) json.RawMessage {
	var m map[string]json.RawMessage
	if len(raw) == 0 || json.Unmarshal(raw, &m) != nil || m == nil {
		return nil
	}
	return raw
}

// tools follows the loaded tools and the summary.
func (s *Session) tools(kind string, d store.EventData) {
	switch kind {
	case store.KindToolsLoaded:
		for _, n := range d.Loaded {
			if !slices.Contains(s.Loaded, n) {
				s.Loaded = append(s.Loaded, n)
			}
		}
	case store.KindToolsUnloaded:
		s.Loaded = slices.DeleteFunc(s.Loaded, func(n string) bool { return slices.Contains(d.Unloaded, n) })
	case store.KindContextCompacted:
		if d.Summary != "" && d.From != "" {
			s.Summary = &Summary{Text: d.Summary, From: d.From}
		}
	}
}

func endStatus(kind string) string {
	switch kind {
	case store.KindRunSucceeded:
		return store.RunSucceeded
	case store.KindRunFailed:
		return store.RunFailed
	case store.KindRunStopped:
		return store.RunStopped
	}
	return store.RunInterrupted
}

// Outcome texts: what the model and the person are told of a call whose
// result never reached the log.
const (
	NeverStartedText = "Not run: Deckhand stopped before this call was made."
	UnknownText      = "Outcome unknown: the call was sent to its server, and Deckhand stopped before the result came back. " +
		"It may have done what it does; check before calling it again."
)

// Result is what the model is told of a call: its output, or the truth
// about a call whose result never arrived.
func (c *Call) Result() string {
	switch c.Outcome {
	case Finished:
		return c.Output
	case Unknown:
		return UnknownText
	}
	return NeverStartedText
}

// CallFor finds the call the answer made with the model's call id; a call
// the log never saw requested was never started.
func (a *Answer) CallFor(id string) *Call {
	for _, c := range a.Calls {
		if c.ID == id {
			return c
		}
	}
	return &Call{ID: id}
}
