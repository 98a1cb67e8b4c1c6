package transcript

import (
	"encoding/json"

	"deckhand/replay"
	"deckhand/store"
	"deckhand/tools"
)

// FromEvents rebuilds a session's transcript from its logged events, read
// the same way as when the conversation is resumed (package replay).
func FromEvents(events []store.Event) *Transcript { return FromEventsImages(events, nil) }

// FromEventsImages is FromEvents with the images of tools' results the
// log names read back by their SHA-256 (image: store.DB.KeptImage, nil
// when the file is missing or changed), shown as when the call ended; an
// image not read back is named on its card with why.
//
// Only the images the transcript would keep are read: the last ones, up
// to MaxMediaBytes, the versions shown first; the earlier are named "no
// longer kept", as they would have been while the chat went on (a long
// chat read every image file at open, to keep the last 48 MiB).
func FromEventsImages(events []store.Event, image func(sum string) []byte) *Transcript {
	t := New()
	t.image = image
	attached := attachedFiles(events)
	s := replay.Read(events)
	keep := keptImages(s)
	t.keep = keep
	// The views' calls go where they were made: among the steps of the
	// run going on, or after the run begun before them; those after a
	// run not shown (another version's) come last.
	views := map[string][]replay.ViewCall{}
	for _, v := range s.Views {
		views[v.After] = append(views[v.After], v)
	}
	t.viewCalls(views[""], -1)
	delete(views, "")
	for _, run := range s.Runs {
		t.addRun(run, attached[run.ID], views[run.ID])
		delete(views, run.ID)
	}
	for _, v := range s.Views {
		t.viewCalls(views[v.After], -1)
		delete(views, v.After)
	}
	// The runs of the versions not shown wait aside, for ‹ and ›.
	for _, run := range s.Other {
		o := New()
		o.image, o.keep = image, keep
		o.addRun(run, attached[run.ID], nil)
		if t.hidden == nil {
			t.hidden = map[string][]Row{}
		}
		t.hidden[run.ID] = o.rows
	}
	t.Changes() // a fresh view draws everything anyway
	return t
}

// attachedFiles are the files attached to each run's message, as its
// run.started event names them.
func attachedFiles(events []store.Event) map[string][]Attachment {
	out := map[string][]Attachment{}
	for _, e := range events {
		if e.Kind != store.KindRunStarted {
			continue
		}
		var d struct {
			Attachments []Attachment `json:"attachments"`
		}
		if json.Unmarshal(e.Data, &d) == nil && len(d.Attachments) > 0 {
			out[e.RunID] = d.Attachments
		}
	}
	return out
}

// viewCalls adds the cards of the views' calls made at step (-1: any).
func (t *Transcript) viewCalls(views []replay.ViewCall, step int) {
	for _, v := range views {
		if v.Step == step || step == -1 {
			t.ViewCall(v.ID, v.Tool, v.Origin, v.Arguments, v.Output, v.IsError, v.Denied, v.Refused)
		}
	}
}

// addRun adds a run read back from the log, with the views' calls made
// during and after it.
func (t *Transcript) addRun(run replay.Run, attached []Attachment, views []replay.ViewCall) {
	t.StartRun(run.ID)
	t.User(run.Text, run.Time)
	t.setVersions(run.Versions)
	t.Attached(attached)
	for i, step := range run.Steps {
		t.viewCalls(views, i)
		if n := step.Notice; n != nil {
			if n.Retry {
				t.Retrying(n.Text)
			} else {
				t.Note(n.Text, false)
			}
			continue
		}
		a := step.Answer
		if a.Text != "" {
			t.Assistant(a.Text, a.Time)
			end := a.Time
			if !a.Ended.IsZero() {
				end = a.Ended // a continued answer: its continuation's
			}
			t.SetInfo(run.Model, a.InputTokens, a.OutputTokens, a.Estimated, a.First, end)
		}
		for _, c := range a.Calls {
			t.ToolRequested(c.ID, c.Tool, c.Arguments)
			if c.Asked {
				t.ToolAsked(c.ID)
			}
			ended := run.End.Status != store.RunRunning // else it may still be going, in another process
			switch {
			case c.Outcome == replay.NeverStarted && ended:
				t.ToolFinished(c.ID, c.Tool, nil, c.Result(), true, false, 0)
			case c.Outcome == replay.Unknown:
				t.ToolStarted(c.ID, c.Tool, c.Arguments)
				if ended {
					// How long the log saw it running: at least that.
					t.ToolFinished(c.ID, c.Tool, nil, c.Result(), true, false, c.Elapsed)
					t.ToolUnknown(c.ID)
				}
			case c.Outcome == replay.Finished:
				// Denied, stopped while asked or refused: it never ran, and
				// its card says why. (A success ran, logged as sent or not.)
				if c.Sent || !c.IsError && !c.Denied {
					t.ToolStarted(c.ID, c.Tool, c.Arguments)
				}
				t.ToolFinished(c.ID, c.Tool, nil, c.Output, c.IsError, c.Denied, c.Elapsed)
				t.ToolCut(c.ID, tools.Cut{Kept: c.CutKept, Whole: c.CutWhole, Saved: c.CutSaved})
				t.ToolStructured(c.ID, c.Structured, c.Meta) // its view is given it, as when the call ended
				if m := t.keptMedia(c.Images); m != nil {
					t.ToolMedia(c.ID, m)
				}
				if c.Cancelled {
					t.ToolCancelled(c.ID)
				}
			}
		}
	}
	for _, v := range views {
		if v.Step >= len(run.Steps) {
			t.ViewCall(v.ID, v.Tool, v.Origin, v.Arguments, v.Output, v.IsError, v.Denied, v.Refused)
		}
	}
	switch run.End.Status {
	case store.RunFailed:
		action := ActionRetry
		if n := len(run.Steps); n > 0 {
			// An answer that broke off (the connection dropped, the
			// server stalled) with its text kept can go on, as in the
			// window that saw it break (gui's bridge).
			if a := run.Steps[n-1].Answer; a != nil && a.Partial && a.Text != "" && len(a.Calls) == 0 {
				action = ActionContinue
			}
		}
		t.NoteAction("The run failed: "+run.End.Error, true, action)
	case store.RunStopped:
		t.NoteAction("Stopped.", false, ActionContinue)
	case store.RunInterrupted:
		t.Note("Deckhand stopped while this run was in progress.", true)
	}
	t.Calls()
	for _, v := range views {
		if v.Step < 0 {
			t.ViewCall(v.ID, v.Tool, v.Origin, v.Arguments, v.Output, v.IsError, v.Denied, v.Refused)
		}
	}
}

// keptImages says which logged images a transcript read back from s
// keeps (by the SHA-256 of their files), at most MaxMediaBytes of them
// by their logged sizes: the last calls' first, those of the versions
// shown, then of the others.
func keptImages(s replay.Session) map[string]bool {
	var shown []store.LoggedImage
	calls := func(runs []replay.Run) []store.LoggedImage {
		var out []store.LoggedImage
		for _, run := range runs {
			for _, st := range run.Steps {
				if st.Answer == nil {
					continue
				}
				for _, c := range st.Answer.Calls {
					out = append(out, c.Images...)
				}
			}
		}
		return out
	}
	shown = calls(s.Runs)
	keep, budget := map[string]bool{}, MaxMediaBytes
	take := func(list []store.LoggedImage) {
		for i := len(list) - 1; i >= 0; i-- {
			l := list[i]
			if l.SHA256 == "" || keep[l.SHA256] {
				continue
			}
			if l.Size > budget {
				return
			}
			keep[l.SHA256], budget = true, budget-l.Size
		}
	}
	take(shown)
	take(calls(s.Other))
	return keep
}

// keptMedia is the Media of a call's images as the log names them, their
// bytes read back (t.image) if the transcript keeps them (t.keep); nil
// when none.
func (t *Transcript) keptMedia(logged []store.LoggedImage) *tools.Media {
	if len(logged) == 0 {
		return nil
	}
	m := &tools.Media{Images: make([]tools.Image, len(logged))}
	for i, l := range logged {
		img := tools.Image{MIME: l.MIME, Size: l.Size, SHA256: l.SHA256}
		switch {
		case l.SHA256 == "" || t.image == nil:
			img.Refused = "not kept"
		case t.keep != nil && !t.keep[l.SHA256]:
			img.Refused = noLongerKept
		default:
			if img.Data = t.image(l.SHA256); img.Data == nil {
				img.Refused = "its kept file is missing or was changed"
			}
		}
		m.Images[i] = img
	}
	return m
}
