package transcript

import "slices"

// Show shows the runs of path, in order (a version of a message was
// chosen, or a new one begins): the rows of the runs shown before and not
// on path are kept aside, and those of path's runs kept aside come back.
// versions are the versions of each message that has more than one (see
// Row.Versions). The caller redraws the whole view.
func (t *Transcript) Show(path []string, versions map[string][]string) {
	t.endStream()
	t.cont = ""
	k := 0
	for k < len(t.runs) && k < len(path) && t.runs[k].id == path[k] {
		k++
	}
	if t.hidden == nil {
		t.hidden = map[string][]Row{}
	}
	for j := k; j < len(t.runs); j++ {
		end := len(t.rows)
		if j+1 < len(t.runs) {
			end = t.runs[j+1].row
		}
		t.hidden[t.runs[j].id] = slices.Clone(t.rows[t.runs[j].row:end])
	}
	if k < len(t.runs) {
		t.rows = t.rows[:t.runs[k].row]
		t.runs = t.runs[:k]
	}
	for _, id := range path[k:] {
		rows, ok := t.hidden[id]
		if !ok {
			continue
		}
		delete(t.hidden, id)
		t.runs = append(t.runs, runStart{id: id, row: len(t.rows)})
		t.rows = append(t.rows, rows...)
	}
	last := "" // the last run that shows a message (not a continuation)
	for j := len(t.runs) - 1; j >= 0 && last == ""; j-- {
		if !t.conts[t.runs[j].id] {
			last = t.runs[j].id
		}
	}
	clear(t.calls)
	clear(t.questions)
	t.mediaRows, t.mediaBytes = t.mediaRows[:0], 0
	for i, r := range t.rows {
		if r.Kind == Header && r.Run != "" {
			r.Version, r.Versions, r.Prev, r.Next = versionOf(r.Run, versions[r.Run])
			r.Last = r.Run == last
			t.rows[i] = r
		}
		if r.Media != nil && r.Media.Bytes() > 0 {
			t.mediaRows = append(t.mediaRows, i)
			t.mediaBytes += r.Media.Bytes()
		}
	}
	clear(t.dirty)
	for j := range t.rows {
		t.dirty[j] = true
	}
}

// Continue begins run id, which continues the answer before it (Continue
// after Stop): no message of the person shows, and what the model writes
// next extends that answer in its rows. The notices after the answer
// ("Stopped.") go. When the run before did not end on an answer's text
// (a tool call followed it), the continuation is an answer of its own.
func (t *Transcript) Continue(id string) {
	t.endStream()
	if t.conts == nil {
		t.conts = map[string]bool{}
	}
	t.conts[id] = true
	h := -1
	for i := len(t.rows) - 1; i >= 0; i-- {
		r := t.rows[i]
		if r.Kind == Header {
			if r.Role == "assistant" {
				h = i
			}
			break
		}
		if r.Kind != Notice && r.Kind != Text && r.Kind != Code {
			break
		}
	}
	if h >= 0 {
		end := len(t.rows)
		for end > h+1 && t.rows[end-1].Kind == Notice {
			end--
		}
		for i := end; i < len(t.rows); i++ {
			delete(t.dirty, i)
		}
		t.rows = t.rows[:end]
		t.header, t.cont = h, t.rows[h].Text
	}
	t.runs = append(t.runs, runStart{id: id, row: len(t.rows)})
}

// setVersions sets the versions of the last run's message.
func (t *Transcript) setVersions(versions []string) {
	if n := len(t.runs); n > 0 && t.runs[n-1].row < len(t.rows) {
		r := t.rows[t.runs[n-1].row]
		if r.Kind == Header {
			r.Version, r.Versions, r.Prev, r.Next = versionOf(r.Run, versions)
			t.set(t.runs[n-1].row, r)
		}
	}
}

// versionOf is where run stands among versions.
func versionOf(run string, versions []string) (i, n int, prev, next string) {
	i = slices.Index(versions, run)
	if i < 0 {
		return 0, 0, "", ""
	}
	if i > 0 {
		prev = versions[i-1]
	}
	if i+1 < len(versions) {
		next = versions[i+1]
	}
	return i + 1, len(versions), prev, next
}
