package toolserver

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"sort"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Operations are kept this long after they end, at most keepDone of them;
// at most maxRunning run at once.
const (
	keepFor    = 30 * time.Minute
	keepDone   = 64
	maxRunning = 32
	// tailBytes of an operation's output are kept for status while it runs.
	tailBytes = 8 << 10
)

// operation is one command (or sequence) running in the background.
type operation struct {
	id, tool, display string
	// owner is the client session that started it (nil: none): only it
	// sees the operation, so that over HTTP one client's operations are
	// invisible to another (Ahma's R8.4).
	owner   *sdk.ServerSession
	started time.Time
	cancel  context.CancelFunc
	done    chan struct{}

	mu       sync.Mutex
	written  int64  // bytes of output so far
	tail     []byte // the last tailBytes of it
	subs     map[int]func([]byte)
	nextSub  int
	result   Result
	ended    time.Time
	finished bool
	pushed   map[*sdk.ServerSession]bool // the sessions its end is pushed to (Server.pushEnd)
}

// write records output and hands it to the subscribers.
func (op *operation) write(p []byte) {
	op.mu.Lock()
	op.written += int64(len(p))
	op.tail = append(op.tail, p...)
	if len(op.tail) > tailBytes {
		op.tail = append([]byte(nil), op.tail[len(op.tail)-tailBytes:]...)
	}
	subs := make([]func([]byte), 0, len(op.subs))
	for _, f := range op.subs {
		subs = append(subs, f)
	}
	op.mu.Unlock()
	for _, f := range subs {
		f(p)
	}
}

// subscribe calls f with each piece of output from now on, until the
// returned func is called, and returns what was written before (the tail
// kept, and the count of every byte), so that a command fast enough to
// write before its caller subscribed loses nothing.
func (op *operation) subscribe(f func([]byte)) (unsub func(), before []byte, written int64) {
	op.mu.Lock()
	defer op.mu.Unlock()
	before, written = append([]byte(nil), op.tail...), op.written
	if op.subs == nil {
		op.subs = map[int]func([]byte){}
	}
	id := op.nextSub
	op.nextSub++
	op.subs[id] = f
	return func() {
		op.mu.Lock()
		delete(op.subs, id)
		op.mu.Unlock()
	}, before, written
}

// snapshot is the operation's state for status.
func (op *operation) snapshot() (state string, res Result, tail string, written int64, ended time.Time) {
	op.mu.Lock()
	defer op.mu.Unlock()
	state = "running"
	if op.finished {
		state = "finished"
		if res = op.result; res.Failed {
			state = "failed"
			if res.Cancelled {
				state = "cancelled"
			}
		}
	}
	return state, op.result, string(op.tail), op.written, op.ended
}

// operations are the server's background operations.
type operations struct {
	mu   sync.Mutex
	ops  map[string]*operation
	base context.Context // ends when the server closes
	seq  int
}

func newOperations(base context.Context) *operations {
	return &operations{ops: map[string]*operation{}, base: base}
}

// start runs fn in the background as a new operation.
func (o *operations) start(tool, display string, owner *sdk.ServerSession, fn func(ctx context.Context, output func([]byte)) Result) (*operation, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.sweepLocked()
	running := 0
	for _, op := range o.ops {
		select {
		case <-op.done:
		default:
			running++
		}
	}
	if running >= maxRunning {
		return nil, fmt.Errorf("%d operations are running already: await or cancel some first", running)
	}
	o.seq++
	var r [3]byte
	rand.Read(r[:])
	ctx, cancel := context.WithCancel(o.base)
	op := &operation{id: fmt.Sprintf("op-%d-%s", o.seq, hex.EncodeToString(r[:])), tool: tool, display: display,
		owner: owner, started: time.Now(), cancel: cancel, done: make(chan struct{})}
	o.ops[op.id] = op
	go func() {
		defer cancel()
		res := fn(ctx, op.write)
		op.mu.Lock()
		op.result, op.ended, op.finished = res, time.Now(), true
		op.mu.Unlock()
		close(op.done)
	}()
	return op, nil
}

// get is the operation id of owner's session (nil: another session's, or
// none).
func (o *operations) get(id string, owner *sdk.ServerSession) *operation {
	o.mu.Lock()
	defer o.mu.Unlock()
	if op := o.ops[id]; op != nil && op.owner == owner {
		return op
	}
	return nil
}

// list is every operation of owner's session kept, newest first.
func (o *operations) list(owner *sdk.ServerSession) []*operation {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.sweepLocked()
	out := make([]*operation, 0, len(o.ops))
	for _, op := range o.ops {
		if op.owner == owner {
			out = append(out, op)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].started.After(out[j].started) })
	return out
}

// sweepLocked forgets operations that ended more than keepFor ago, and the
// oldest ended ones beyond keepDone.
func (o *operations) sweepLocked() {
	var done []*operation
	for id, op := range o.ops {
		select {
		case <-op.done:
			_, _, _, _, ended := op.snapshot()
			if time.Since(ended) > keepFor {
				delete(o.ops, id)
				continue
			}
			done = append(done, op)
		default:
		}
	}
	if len(done) > keepDone {
		sort.Slice(done, func(i, j int) bool { return done[i].ended.Before(done[j].ended) })
		for _, op := range done[:len(done)-keepDone] {
			delete(o.ops, op.id)
		}
	}
}

// cancelAll stops every running operation.
func (o *operations) cancelAll() {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, op := range o.ops {
		op.cancel()
	}
}
