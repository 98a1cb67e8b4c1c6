package llm

import (
	"fmt"
	"strings"
)

// Turn is one complete assistant answer.
type Turn struct {
	Text         string
	Reasoning    string
	ToolCalls    []ToolCall
	Usage        *Usage
	FinishReason string
}

// Accumulator joins deltas into a Turn. Tool calls are joined by index; a
// server that sends no index (some do) starts a new call whenever a fragment
// brings a new id, or a name when the current call has one.
type Accumulator struct {
	text, reasoning strings.Builder
	calls           []*callBuilder
	byIndex         map[int]*callBuilder
	usage           *Usage
	finish          string
}

type callBuilder struct {
	id, name string
	args     strings.Builder
}

// Add takes one delta.
func (a *Accumulator) Add(d Delta) {
	a.text.WriteString(d.Text)
	a.reasoning.WriteString(d.Reasoning)
	for _, f := range d.ToolCalls {
		b := a.target(f)
		if b.id == "" {
			b.id = f.ID
		}
		if b.name == "" {
			b.name = f.Name
		}
		b.args.WriteString(f.Arguments)
	}
	if d.Usage != nil {
		a.usage = d.Usage
	}
	if d.FinishReason != "" {
		a.finish = d.FinishReason
	}
}

func (a *Accumulator) target(f ToolCallFragment) *callBuilder {
	if f.Index >= 0 {
		if b, ok := a.byIndex[f.Index]; ok {
			return b
		}
		if a.byIndex == nil {
			a.byIndex = map[int]*callBuilder{}
		}
		b := &callBuilder{}
		a.byIndex[f.Index] = b
		a.calls = append(a.calls, b)
		return b
	}
	var last *callBuilder
	if n := len(a.calls); n > 0 {
		last = a.calls[n-1]
	}
	startsNew := last == nil ||
		(f.ID != "" && last.id != "" && f.ID != last.id) ||
		(f.ID == "" && f.Name != "" && last.name != "")
	if startsNew {
		b := &callBuilder{}
		a.calls = append(a.calls, b)
		return b
	}
	return last
}

// Text is the text received so far.
func (a *Accumulator) Text() string { return a.text.String() }

// Turn returns what was received. Calls without an id get one
// ("call_<n>"), so that every call can be answered. Without a finish_reason
// the error is ErrIncomplete, and the Turn holds what arrived.
func (a *Accumulator) Turn() (Turn, error) {
	t := Turn{Text: a.text.String(), Reasoning: a.reasoning.String(), Usage: a.usage, FinishReason: a.finish}
	seen := map[string]bool{}
	for i, b := range a.calls {
		id := b.id
		if id == "" || seen[id] {
			id = fmt.Sprintf("call_%d", i)
		}
		seen[id] = true
		t.ToolCalls = append(t.ToolCalls, ToolCall{ID: id, Name: b.name, Arguments: b.args.String()})
	}
	if a.finish == "" {
		return t, ErrIncomplete
	}
	return t, nil
}
