package apps

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/sandbox"
)

// MaxMemory is the default cap on a view's memory (its helper and WebKit's
// processes together, resident).
const MaxMemory = 1 << 30

// Window is one view shown by the helper, served by a Session, until its
// window is closed, Close is called, or it misbehaves.
type Window struct {
	session *Session
	proc    *Process
	cancel  context.CancelFunc
	done    chan struct{}
	err     error
}

// Open starts the helper at helper showing cfg.View in a window titled
// server.tool, and serves it. memory caps the view's resident memory (0:
// MaxMemory), checked every second. confine runs it in Deckhand's own
// sandbox (StartConfined) where the kernel allows one, else its web
// process in WebKit's bubblewrap where that is installed; false runs it
// with neither (tests of what the sandbox adds).
func Open(ctx context.Context, helper string, cfg Config, host Host, memory int64, confine bool) (*Window, error) {
	if memory <= 0 {
		memory = MaxMemory
	}
	c := cfg.Context
	w, h := c.Width, c.Height
	if w <= 0 {
		w = 640
	}
	if h <= 0 {
		h = 480
	}
	open := OpenView{Title: cfg.Server + "." + cfg.Tool, HTML: cfg.View.HTML, CSP: Policy(cfg.View.CSP), Width: w, Height: h}
	var p *Process
	var err error
	switch {
	case confine && sandbox.Available() == nil:
		log := cfg.Logger
		if log == nil {
			log = slog.New(slog.DiscardHandler)
		}
		log = log.With("view", cfg.Server+"."+cfg.Tool)
		p, err = StartConfined(helper, open, cfg.View.CSP, func(target string, allowed bool, rule string) {
			log.Info("view network", "target", target, "allowed", allowed, "rule", rule)
		})
	default:
		open.Sandbox = confine && bubblewrap()
		p, err = Start(helper, open, nil)
	}
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	win := &Window{session: NewSession(cfg, host, p), proc: p, cancel: cancel, done: make(chan struct{})}
	go win.watch(ctx, memory)
	go func() {
		defer close(win.done)
		win.err = win.session.Run(ctx)
		cancel()
		p.Close()
	}()
	return win, nil
}

// watch stops the view when its memory goes over the cap.
func (w *Window) watch(ctx context.Context, limit int64) {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if m := w.proc.Memory(); m > limit {
				w.session.stopWith("it used %d MiB of memory (at most %d MiB)", m>>20, limit>>20)
				return
			}
		}
	}
}

// Initialized is closed once the view is initialized.
func (w *Window) Initialized() <-chan struct{} { return w.session.Initialized() }

// SetResult gives the view the tool's result (see Session.SetResult).
func (w *Window) SetResult(r *sdk.CallToolResult) { w.session.SetResult(r) }

// Cancel tells the view its call was cancelled (see Session.Cancel).
func (w *Window) Cancel(reason string) { w.session.Cancel(reason) }

// SetTheme tells the view the host's theme changed (see Session.SetTheme).
func (w *Window) SetTheme(theme string) { w.session.SetTheme(theme) }

// Raise brings the view's window in front (see Session.Raise).
func (w *Window) Raise() { w.session.Raise() }

// Close ends the view.
func (w *Window) Close() { w.cancel() }

// Done is closed once the view has ended; Err then says why.
func (w *Window) Done() <-chan struct{} { return w.done }

// Err is nil when the person closed the view (or Close was called), a
// *StoppedError when Deckhand stopped it, another error when it failed.
func (w *Window) Err() error {
	<-w.done
	if w.err == context.Canceled {
		return nil
	}
	return w.err
}

// Pid is the helper's process id.
func (w *Window) Pid() int { return w.proc.Pid() }

func (w *Window) String() string {
	return fmt.Sprintf("view %s.%s", w.session.cfg.Server, w.session.cfg.Tool)
}
