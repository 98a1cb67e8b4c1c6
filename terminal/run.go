package terminal

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"deckhand/actors"
	"deckhand/actors/conversation"
	"deckhand/actors/servers"
	"deckhand/actors/writer"
	"deckhand/clean"
)

// Approve is what the chat does when a tool call needs approval.
type Approve string

const (
	// ApproveAsk asks the person on the terminal; with no terminal to ask
	// on (Options.Interactive false), that is a deny.
	ApproveAsk Approve = "ask"
	// ApproveAuto allows every call once.
	ApproveAuto Approve = "auto"
	// ApproveDeny denies every call.
	ApproveDeny Approve = "deny"
)

// ParseApprove reads the --approve flag: ask, auto or deny.
func ParseApprove(s string) (Approve, error) {
	switch a := Approve(s); a {
	case ApproveAsk, ApproveAuto, ApproveDeny:
		return a, nil
	}
	return "", fmt.Errorf("--approve must be ask, auto or deny, not %q", s)
}

// Options is a terminal chat: the actors it talks to and the streams it
// reads and prints on.
type Options struct {
	// System is started, with the servers given their grace; Run does not
	// stop it.
	System *actors.System
	// Statuses are the servers as the chat begins: those still on their
	// first connection are named, and announced when they are ready.
	Statuses []servers.ServerStatus
	// Conversation starts the conversation: a new one, or one resumed
	// (Run adds the chat to its Watchers).
	Conversation conversation.ConversationOptions
	// Recap, for a resumed session, says where it stopped; printed after
	// the banner.
	Recap string

	// Prompt, when not empty, is a one-shot chat (-p): the answer alone is
	// printed on Stdout (the rest goes to Stderr), and the chat ends with
	// its run.
	Prompt  string
	Approve Approve

	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Interactive: Stdin is a terminal, so approvals and servers' questions
	// are asked on it (otherwise they are denied and declined) and a "> "
	// prompt is shown.
	Interactive bool
	// Color: Stdout is a terminal and NO_COLOR is not set.
	Color bool

	// Version and Model name the banner's build and model ("llama3.1 at
	// http://…").
	Version, Model string

	// NoLog is why the log could not be opened (a full disk), when the
	// chat goes on without it: the chat then ends failing, saying that
	// nothing was kept.
	NoLog error
	// HandleInterrupt, when set, makes f the Ctrl+C handler until restore
	// is called; f stops the run in progress, or ends the chat when none
	// runs, and reports true.
	HandleInterrupt func(f func() bool) (restore func())
}

// ReportedError is a chat that failed after saying why on Stderr (a
// one-shot run that failed, a conversation that could not be kept): the
// command exits failing without printing it again.
type ReportedError struct{ Err error }

func (e *ReportedError) Error() string { return e.Err.Error() }
func (e *ReportedError) Unwrap() error { return e.Err }

// Run holds the chat until it ends: the person quits (:quit, Ctrl+D, Ctrl+C
// when nothing runs), the one-shot run finishes, the conversation fails, or
// ctx is done. Before it returns, what the chat recorded is synced to the
// log; when it could not be kept, that is said and the result is a
// ReportedError.
func Run(ctx context.Context, o Options) error {
	sys := o.System
	oneShot := o.Prompt != ""
	t := &chat{
		sys: sys, resultFile: sys.ResultPath, approve: o.Approve, interactive: o.Interactive, oneShot: oneShot, color: o.Color,
		stdout: o.Stdout, stderr: o.Stderr, info: o.Stdout,
		connecting: connectingOf(o.Statuses),
		done:       make(chan struct{}),
	}
	if oneShot {
		t.info = o.Stderr // keep stdout for the answer
	}
	self := sys.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return t }))
	defer sys.Root.Stop(self)
	sys.Root.Send(sys.Servers, &servers.WatchServers{PID: self})
	if sys.Store != nil {
		sys.Root.Send(sys.Store, &writer.WatchLog{Watcher: self})
	}
	opts := o.Conversation
	opts.Watchers = append(slices.Clip(opts.Watchers), self)
	conv, id, err := sys.StartConversation(ctx, opts)
	if err != nil {
		return err
	}
	sys.Root.Send(self, &chatReady{conv: conv, id: id})
	if o.HandleInterrupt != nil {
		restore := o.HandleInterrupt(func() bool {
			sys.Root.Send(self, &interrupted{})
			return true
		})
		defer restore()
	}
	// t.result is read only after done is closed, which the actor does
	// after writing it.
	if oneShot {
		if line := connectingLine(o.Statuses); line != "" {
			fmt.Fprintln(t.info, t.paint(dim, line))
		}
		sys.Root.Send(self, &inputLine{text: o.Prompt}) // counted in sent by input
		select {
		case <-t.done:
		case <-ctx.Done():
			return ctx.Err()
		}
		return kept(o, t.result)
	}

	ready := 0
	for _, s := range o.Statuses {
		if s.State == servers.StateReady || s.State == servers.StateIdle {
			ready++
		}
	}
	fmt.Fprintf(o.Stdout, "Deckhand %s · model %s · %d of %d %s ready · :help for commands\n", o.Version, o.Model, ready, len(o.Statuses), plural(len(o.Statuses), "server", "servers"))
	if line := connectingLine(o.Statuses); line != "" {
		fmt.Fprintln(o.Stdout, t.paint(dim, line))
	}
	if o.Recap != "" {
		fmt.Fprint(o.Stdout, o.Recap)
	}
	// Stdin is read on a goroutine of its own, which only hands lines
	// over: the actor never waits for the person.
	lines, stop := make(chan string), make(chan struct{})
	defer close(stop)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(o.Stdin)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			select {
			case lines <- sc.Text():
			case <-stop:
				return
			}
		}
	}()
	sys.Root.Send(self, &showPrompt{})
	for {
		select {
		case line, ok := <-lines:
			if !ok {
				sys.Root.Send(self, &inputClosed{})
				lines = nil
				continue
			}
			sys.Root.Send(self, &inputLine{text: line})
		case <-t.done:
			return kept(o, t.result)
		case <-ctx.Done():
			return kept(o, nil)
		}
	}
}

// kept makes sure what the chat recorded is on disk before it ends; when
// it cannot be (a full disk), it says so, and the chat fails: it is not
// reported as kept.
func kept(o Options, result error) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err := o.NoLog
	if err == nil {
		err = o.System.SyncLog(ctx)
	}
	if err != nil {
		fmt.Fprintf(o.Stderr, "deckhand: this conversation was NOT kept in the log: %s\n", clean.Text(err.Error()))
		return &ReportedError{Err: err}
	}
	return result
}
