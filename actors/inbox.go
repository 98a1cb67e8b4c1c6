package actors

import (
	"context"
	"strconv"

	"github.com/asynkron/protoactor-go/actor"
)

// inbox is a PID whose messages land in a Go channel: the blocking helpers
// use it as the sender of a request, so that answers (and progress) reach
// the waiting goroutine directly, without a future's extra goroutine and
// timer on every call.
type inbox struct {
	pid *actor.PID
	ch  chan any
	reg *actor.ProcessRegistryValue
}

type inboxProcess struct{ ch chan any }

var _ actor.Process = inboxProcess{}

func (p inboxProcess) SendUserMessage(_ *actor.PID, message any) {
	select {
	case p.ch <- actor.UnwrapEnvelopeMessage(message):
	default: // nobody is reading any more; drop it
	}
}

func (inboxProcess) SendSystemMessage(*actor.PID, any) {}
func (inboxProcess) Stop(*actor.PID)                   {}

func (s *System) newInbox(size int) *inbox {
	reg := s.as.ProcessRegistry
	ch := make(chan any, size)
	pid, _ := reg.Add(inboxProcess{ch}, "inbox/"+strconv.FormatUint(s.ids.Add(1), 10))
	return &inbox{pid: pid, ch: ch, reg: reg}
}

func (in *inbox) close() { in.reg.Remove(in.pid) }

// receive waits for the next message within ctx.
func (in *inbox) receive(ctx context.Context) (any, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case m := <-in.ch:
		return m, nil
	}
}
