package conversation

import (
	"fmt"

	"deckhand/store"

	"github.com/asynkron/protoactor-go/actor"

	"deckhand/config"
)

// StartConversation asks the conversations supervisor for a new
// conversation; the answer is a *ConversationStarted.
type StartConversation struct{ Options ConversationOptions }

// ConversationStarted answers StartConversation.
type ConversationStarted struct {
	ID  string
	PID *actor.PID
	Err error
}

// ConfigChanged gives every conversation (and those to come) a new config:
// the model, the loop's limits, the approval rules.
type ConfigChanged struct{ Config *config.Config }

// conversationsActor supervises one conversation actor per chat.
type conversationsActor struct {
	deps convDeps
	log  *actor.PID // the store actor, which watches every conversation; nil without a log
	byID map[string]*actor.PID
}

func (a *conversationsActor) Receive(c actor.Context) {
	switch m := c.Message().(type) {
	case *actor.Started:
		a.byID = map[string]*actor.PID{}
	case *StartConversation:
		opts := m.Options
		if opts.ID == "" {
			opts.ID = store.NewID("conv")
		}
		if a.log != nil {
			// The log hears each event first: by the time a watcher has
			// it, it is in the log's mailbox, so SyncLog after an event
			// finds it there (last, a run's end could reach the person,
			// and their SyncLog the log, before the log had the end).
			opts.Watchers = append([]*actor.PID{a.log}, opts.Watchers...)
		}
		if pid, ok := a.byID[opts.ID]; ok {
			c.Respond(&ConversationStarted{ID: opts.ID, PID: pid, Err: fmt.Errorf("conversation %s is already open", opts.ID)})
			return
		}
		deps := a.deps
		pid, err := c.SpawnNamed(actor.PropsFromProducer(func() actor.Actor { return newConversation(opts, deps) }), opts.ID)
		if err != nil {
			c.Respond(&ConversationStarted{ID: opts.ID, Err: err})
			return
		}
		a.byID[opts.ID] = pid
		c.Watch(pid)
		c.Respond(&ConversationStarted{ID: opts.ID, PID: pid})
	case *ConfigChanged:
		a.deps.cfg = m.Config
		a.deps.client = modelClient(m.Config.Model, a.deps.lookupEnv, a.deps.findKey, a.deps.keyRead)
		for _, pid := range a.byID {
			c.Send(pid, m)
		}
	case *actor.Terminated:
		for id, pid := range a.byID {
			if pid.Equal(m.Who) {
				delete(a.byID, id)
			}
		}
	}
}

// NewConversationID makes the id of a new conversation (and its session in
// the log), for a user actor that names it before it starts.
func NewConversationID() string { return store.NewID("conv") }
