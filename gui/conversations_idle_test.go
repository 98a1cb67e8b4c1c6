package gui

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
	"weak"

	"github.com/asynkron/protoactor-go/actor"

	"deckhand/testutil"
	"deckhand/transcript"
)

// answerEcho answers each request with "Answer to" and the person's last
// message.
func answerEcho(req map[string]any) testutil.ModelResponse {
	msgs, _ := req["messages"].([]any)
	last := ""
	for _, m := range msgs {
		if m, _ := m.(map[string]any); m["role"] == "user" {
			last = fmt.Sprint(m["content"])
		}
	}
	return testutil.ModelResponse{Body: testutil.TextChunks("Answer to " + last + ".")}
}

// openConv is what the bridge holds of an open conversation, read in the
// bridge.
type openConv struct {
	pid *actor.PID
	tr  weak.Pointer[transcript.Transcript]
}

func (h *harness) openConvs() map[string]openConv {
	h.t.Helper()
	out := map[string]openConv{}
	done := make(chan struct{})
	h.ui.tell(bridgeDo(func(b *bridge, _ actor.Context) {
		for id, cs := range b.convs {
			out[id] = openConv{pid: cs.pid, tr: weak.Make(cs.tr)}
		}
		close(done)
	}))
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		h.t.Fatal("the bridge did not answer")
	}
	return out
}

// Past chats opened one after another from the sidebar do not all stay
// open: beyond keepIdle idle ones besides the one shown, the least
// recently shown are closed, their actors stopped and their transcripts
// released. Opened again, one shows its whole history from the log and
// goes on from it.
func TestIdleConversationsClose(t *testing.T) {
	dbPath := filepath.Join(t.TempDir(), "deckhand.db")
	const chats = keepIdle + 3
	var ids []string
	{
		h := newHarness(t, harnessOptions{dbPath: dbPath, fallback: answerEcho})
		for i := range chats {
			if i > 0 {
				prev := h.ui.conv
				h.ui.tell(&uiNewChat{})
				h.until("a new chat", func() bool { return h.ui.conv != prev && h.ui.conv != "" })
			}
			h.say(fmt.Sprintf("chat %d", i))
			h.until("the answer", func() bool { return h.shows(h.ui.win, fmt.Sprintf("Answer to chat %d.", i)) && !h.ui.running })
			ids = append(ids, h.ui.conv)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := h.sys.SyncLog(ctx); err != nil {
			t.Fatal(err)
		}
		h.ui.Stop()
	}

	h := newHarness(t, harnessOptions{dbPath: dbPath, fallback: answerEcho})
	h.until("the sessions", func() bool { return len(h.ui.side.Items) >= chats })
	seen := map[string]openConv{}
	for i, id := range ids {
		h.ui.tell(&uiOpenSession{id: id})
		h.until("the session "+id, func() bool {
			return h.ui.conv == id && h.shows(h.ui.win, fmt.Sprintf("Answer to chat %d.", i))
		})
		testutil.Eventually(t, 10*time.Second, func() bool { return h.openConvs()[id].pid != nil }, "the actor of %s", id)
		seen[id] = h.openConvs()[id]
	}

	// The shown one and the keepIdle shown before it stay; the others
	// (and the new chat the window started with) are closed.
	keep := ids[len(ids)-keepIdle-1:]
	var open []string
	testutil.Eventually(t, 10*time.Second, func() bool {
		open = open[:0]
		for id := range h.openConvs() {
			open = append(open, id)
		}
		slices.Sort(open)
		return slices.Equal(open, keep)
	}, "open: %v, want %v", &open, keep)
	registry := h.sys.Root.ActorSystem().ProcessRegistry
	for _, id := range ids {
		_, alive := registry.GetLocal(seen[id].pid.Id)
		if want := slices.Contains(keep, id); alive != want {
			t.Errorf("the actor of %s alive = %v, want %v", id, alive, want)
		}
	}
	testutil.Eventually(t, 10*time.Second, func() bool {
		runtime.GC()
		for _, id := range ids[:len(ids)-len(keep)] {
			if seen[id].tr.Value() != nil {
				return false
			}
		}
		return true
	}, "the closed conversations' transcripts released")

	// Back to the first: its history, from the log, and it goes on.
	first := ids[0]
	h.ui.tell(&uiOpenSession{id: first})
	h.until("the first session again", func() bool {
		return h.ui.conv == first && h.shows(h.ui.win, "chat 0") && h.shows(h.ui.win, "Answer to chat 0.")
	})
	testutil.Eventually(t, 10*time.Second, func() bool { return h.openConvs()[first].pid != nil }, "the first one's actor")
	n := len(h.model.Requests())
	h.say("and more")
	h.until("the answer", func() bool { return h.shows(h.ui.win, "Answer to and more.") && !h.ui.running })
	reqs := h.model.Requests()
	if len(reqs) != n+1 {
		t.Fatalf("%d requests, want %d", len(reqs), n+1)
	}
	msgs := string(reqs[n])
	for _, want := range []string{"chat 0", "Answer to chat 0.", "and more"} {
		if !strings.Contains(msgs, want) {
			t.Errorf("the request after reopening lacks %q: %s", want, msgs)
		}
	}
	if got := len(h.openConvs()); got > keepIdle+1 {
		t.Errorf("%d conversations open, want at most %d", got, keepIdle+1)
	}
}
