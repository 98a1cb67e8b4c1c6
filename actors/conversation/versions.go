package conversation

import (
	"slices"

	"github.com/asynkron/protoactor-go/actor"

	"deckhand/replay"
	"deckhand/transport/llm"
)

// Versions of a message. Edit and Retry do not throw a run away: they start
// a new version of its message beside it (replay.Tree), and the old one
// keeps its answers and the runs that followed it. The history holds the
// branch shown (marks); the messages of the runs of other branches wait in
// stash until the person chooses one of them again (ChooseVersion).

// Commands about versions, from the user actor.
type (
	// NewVersion starts a new version of run Run's message ("": the last
	// run's): Text, or the same text again when Text is "" (Retry). The
	// runs after it stay with the old version. Refused (a Notice) while a
	// run is in progress.
	NewVersion struct{ Run, Text string }
	// ChooseVersion shows run Run's version of its message, and the runs
	// that followed it: from the next request on, the model sees that
	// branch. Refused while a run is in progress.
	ChooseVersion struct{ Run string }
	// ContinueRun asks the model to go on with the last answer (after
	// Stop): the answer is extended in place (RunStarted.Continues).
	ContinueRun struct{}
)

// RunMessages are one run's messages, as sent to the model.
type RunMessages struct {
	Text     string
	Messages []llm.Message
}

// tree is the conversation's tree of runs, made from its marks when it
// was resumed without one.
func (a *conversationActor) versions() *replay.Tree {
	if a.tree == nil {
		a.tree = replay.NewTree()
		parent := ""
		for _, m := range a.marks {
			a.tree.Add(m.Run, parent)
			parent = m.Run
		}
	}
	return a.tree
}

// relay puts the runs of path in the history, in order, and the messages
// of the runs it held before that are not on path in the stash.
func (a *conversationActor) relay(path []string) {
	if a.stash == nil {
		a.stash = map[string]RunMessages{}
	}
	var head []llm.Message
	if len(a.marks) > 0 {
		head = a.history[:min(a.marks[0].At, len(a.history))]
	} else {
		head = a.history
	}
	for i, m := range a.marks {
		end := len(a.history)
		if i+1 < len(a.marks) {
			end = a.marks[i+1].At
		}
		a.stash[m.Run] = RunMessages{Text: m.Text, Messages: slices.Clone(a.history[min(m.At, len(a.history)):min(end, len(a.history))])}
	}
	history := slices.Clone(head)
	var marks []RunMark
	for _, id := range path {
		rm, ok := a.stash[id]
		if !ok {
			continue
		}
		marks = append(marks, RunMark{Run: id, Text: rm.Text, At: len(history)})
		history = append(history, rm.Messages...)
		delete(a.stash, id)
	}
	a.history, a.marks = history, marks
}

// busy refuses a change of versions while a run is in progress.
func (a *conversationActor) busy(c actor.Context) bool {
	if a.run != nil || len(a.queue) > 0 {
		a.emit(c, &Notice{Conversation: a.id, Text: "Versions of a message cannot change while an answer is being written: stop it first."})
		return true
	}
	return false
}

// newVersion is Edit and Retry.
func (a *conversationActor) newVersion(c actor.Context, id, text string) {
	if a.busy(c) {
		return
	}
	i, ok := a.markOf(c, id)
	if !ok {
		return
	}
	m := a.marks[i]
	if text == "" {
		text = m.Text
	}
	t := a.versions()
	path := t.Path()
	if j := slices.Index(path, m.Run); j >= 0 {
		path = path[:j]
	}
	a.relay(path)
	a.emit(c, &VersionChosen{Conversation: a.id, Path: slices.Clone(path), Versions: t.AllVersions()})
	attached := a.attached[m.Run]
	if text != m.Text {
		attached = nil // an edited message is sent as written
	}
	a.startRun(c, text, attached)
	a.emit(c, &VersionChosen{Conversation: a.id, Path: t.Path(), Versions: t.AllVersions()})
}

// chooseVersion is ‹ and › on a message.
func (a *conversationActor) chooseVersion(c actor.Context, id string) {
	if a.busy(c) {
		return
	}
	t := a.versions()
	if !t.Has(id) {
		a.emit(c, &Notice{Conversation: a.id, Text: "That version is no longer in this conversation."})
		return
	}
	t.Choose(id)
	path := t.Path()
	a.relay(path)
	a.emit(c, &VersionChosen{Conversation: a.id, Run: id, Path: path, Versions: t.AllVersions()})
}
