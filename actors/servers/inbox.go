package servers

import (
	"context"
	"sync"

	"github.com/asynkron/protoactor-go/actor"
)

// inbox is a PID whose messages land in a queue that a goroutine reads: the
// blocking helpers use it as the sender of a request, so that answers (and
// progress) reach the waiting goroutine directly, without a future's extra
// goroutine and timer on every call.
//
// Sending never blocks (senders are actors) and never loses an answer: only
// progress is bounded. When the reader is behind, the oldest progress gives
// way to the newest; every other message is kept, however many there are.
type inbox struct {
	pid *actor.PID
	reg *actor.ProcessRegistryValue
	q   *inboxQueue
}

// inboxQueue is the inbox's queue, shared with its process.
type inboxQueue struct {
	mu       sync.Mutex
	items    []any
	progress int // *ToolProgress among items
	limit    int // at most this much progress is kept
	ready    chan struct{}
}

type inboxProcess struct{ q *inboxQueue }

var _ actor.Process = inboxProcess{}

func (p inboxProcess) SendUserMessage(_ *actor.PID, message any) {
	p.q.put(actor.UnwrapEnvelopeMessage(message))
}

func (inboxProcess) SendSystemMessage(*actor.PID, any) {}
func (inboxProcess) Stop(*actor.PID)                   {}

func (q *inboxQueue) put(m any) {
	q.mu.Lock()
	if _, ok := m.(*ToolProgress); ok {
		if q.progress >= q.limit {
			q.dropOldestProgress()
		}
		q.progress++
	}
	q.items = append(q.items, m)
	q.mu.Unlock()
	select {
	case q.ready <- struct{}{}:
	default: // already signalled
	}
}

// dropOldestProgress removes the oldest progress message. Called with mu
// held, when there is one.
func (q *inboxQueue) dropOldestProgress() {
	for i, m := range q.items {
		if _, ok := m.(*ToolProgress); ok {
			q.items = append(q.items[:i], q.items[i+1:]...)
			q.progress--
			return
		}
	}
}

// take removes and returns the first message, if any.
func (q *inboxQueue) take() (any, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.items) == 0 {
		return nil, false
	}
	m := q.items[0]
	q.items[0] = nil
	q.items = q.items[1:]
	if _, ok := m.(*ToolProgress); ok {
		q.progress--
	}
	return m, true
}

func (in *inbox) close() { in.reg.Remove(in.pid) }

// receive waits for the next message within ctx.
func (in *inbox) receive(ctx context.Context) (any, error) {
	for {
		if m, ok := in.q.take(); ok {
			return m, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-in.q.ready:
		}
	}
}

// newInbox makes an inbox, registered in reg, that keeps at most
// progressLimit progress messages the reader has not taken yet.
func newInbox(reg *actor.ProcessRegistryValue, progressLimit int) *inbox {
	q := &inboxQueue{limit: max(progressLimit, 1), ready: make(chan struct{}, 1)}
	pid, _ := reg.Add(inboxProcess{q}, "inbox/"+reg.NextId())
	return &inbox{pid: pid, reg: reg, q: q}
}
