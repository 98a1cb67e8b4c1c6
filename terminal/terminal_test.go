package terminal

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/google/go-cmp/cmp"

	"deckhand/actors/conversation"
	"deckhand/actors/servers"
	"deckhand/approval"
	"deckhand/tools"
	"deckhand/transcript"
	"deckhand/transport/mcp"
)

// fakeContext is the actor.Context that Receive sees in these tests: the
// message, and what the chat sends (it sends nothing else from Receive in
// the paths tested here).
type fakeContext struct {
	actor.Context
	msg  any
	sent []any
}

func (c *fakeContext) Message() any             { return c.msg }
func (c *fakeContext) Send(_ *actor.PID, m any) { c.sent = append(c.sent, m) }
func (c *fakeContext) deliver(t *chat, m any) []any {
	c.msg, c.sent = m, nil
	t.Receive(c)
	return c.sent
}

func newChat(approve Approve, interactive bool) (*chat, *bytes.Buffer) {
	var out bytes.Buffer
	return &chat{
		approve: approve, interactive: interactive,
		stdout: &out, stderr: &out, info: &out,
		done: make(chan struct{}),
	}, &out
}

// answers are the answers the requests of request got, in order.
type answers []approval.Answer

// request is a question whose Reply records its answer in to (nil: none
// is recorded).
func request(id string, to *answers) *conversation.ApprovalRequested {
	return &conversation.ApprovalRequested{ID: id, Request: approval.Request{Display: "fs.write"}, Deadline: time.Now().Add(time.Minute),
		Reply: func(ans approval.Answer, _ approval.Reason) error {
			if to != nil {
				*to = append(*to, ans)
			}
			return nil
		}}
}

// An approval is asked, answered by the typed line, and its closing says
// nothing more when it was answered; one closed otherwise (a timeout) says
// why, and the next pending one is asked.
func TestApprovalAskedAndClosed(t *testing.T) {
	ch, out := newChat(ApproveAsk, true)
	c := &fakeContext{}
	var got answers
	c.deliver(ch, request("a1", &got))
	if !strings.Contains(out.String(), "Allow fs.write?") {
		t.Fatalf("not asked:\n%s", out)
	}
	c.deliver(ch, &inputLine{text: "y"})
	if len(got) != 1 || got[0] != approval.AllowOnce {
		t.Fatalf("y answered %v, want [%v]", got, approval.AllowOnce)
	}
	for _, reason := range []approval.Reason{approval.Answered, ""} {
		out.Reset()
		c.deliver(ch, request("a2", nil))
		c.deliver(ch, &inputLine{text: "n"})
		c.deliver(ch, &conversation.ApprovalClosed{ID: "a2", Answer: approval.Deny, Reason: reason})
		if strings.Contains(out.String(), "closed") {
			t.Errorf("an answered approval (reason %q) is said closed:\n%s", reason, out)
		}
	}

	out.Reset()
	c.deliver(ch, request("a3", nil))
	c.deliver(ch, request("a4", nil))
	c.deliver(ch, &conversation.ApprovalClosed{ID: "a3", Answer: approval.Deny, Reason: approval.TimedOut(time.Minute)})
	if got := out.String(); !strings.Contains(got, "(approval for fs.write closed: ") || strings.Count(got, "Allow fs.write?") != 2 {
		t.Errorf("a timed-out approval, then the next:\n%s", got)
	}
	if len(ch.pending) != 1 || ch.pending[0].ID != "a4" {
		t.Errorf("pending = %v", ch.pending)
	}
}

// An answer the run no longer waits for (its question timed out as the
// person typed) is said to be dropped, with why.
func TestApprovalAnswerDropped(t *testing.T) {
	ch, out := newChat(ApproveAsk, true)
	c := &fakeContext{}
	req := request("a1", nil)
	req.Reply = func(approval.Answer, approval.Reason) error { return conversation.ErrQuestionClosed }
	c.deliver(ch, req)
	c.deliver(ch, &inputLine{text: "y"})
	if got := out.String(); !strings.Contains(got, "fs.write: "+conversation.ErrQuestionClosed.Error()) {
		t.Errorf("a dropped answer is not said so:\n%s", got)
	}
}

// --approve auto and deny answer at once, as does a chat with no terminal
// to ask on.
func TestApprovalModes(t *testing.T) {
	for _, tt := range []struct {
		approve     Approve
		interactive bool
		want        approval.Answer
		says        string
	}{
		{ApproveAuto, true, approval.AllowOnce, "allowed (--approve=auto)"},
		{ApproveDeny, true, approval.Deny, "denied (--approve=deny)"},
		{ApproveAsk, false, approval.Deny, "no terminal to ask"},
	} {
		ch, out := newChat(tt.approve, tt.interactive)
		var got answers
		(&fakeContext{}).deliver(ch, request("a1", &got))
		if len(got) != 1 || got[0] != tt.want || !strings.Contains(out.String(), tt.says) || len(ch.pending) != 0 {
			t.Errorf("%s (interactive %v): answered %v, printed %q", tt.approve, tt.interactive, got, out)
		}
	}
}

// A server's question that closes unanswered says why; one answered does
// not.
func TestElicitationClosed(t *testing.T) {
	ch, out := newChat(ApproveAsk, true)
	c := &fakeContext{}
	ask := func(id string) {
		c.deliver(ch, &servers.ElicitationRequested{ID: id, Server: "ev", Mode: "form", Message: "Your name?", Form: &mcp.Form{}, Deadline: time.Now().Add(time.Minute)})
	}
	ask("e1")
	c.deliver(ch, &servers.ElicitationClosed{ID: "e1", Server: "ev", Reason: approval.Answered})
	if strings.Contains(out.String(), "closed") {
		t.Errorf("an answered question is said closed:\n%s", out)
	}
	ask("e2")
	c.deliver(ch, &servers.ElicitationClosed{ID: "e2", Server: "ev", Reason: "the call ended"})
	if !strings.Contains(out.String(), "(ev's question closed: the call ended)") {
		t.Errorf("an unanswered question closing is not said:\n%s", out)
	}
}

// A one-shot chat whose run fails says why on stderr and ends with a
// ReportedError.
func TestOneShotFailureIsReported(t *testing.T) {
	ch, out := newChat(ApproveAsk, false)
	ch.oneShot, ch.sent = true, 1
	boom := errors.New("the model is down")
	(&fakeContext{}).deliver(ch, &conversation.RunFinished{Err: boom})
	<-ch.done
	var r *ReportedError
	if !errors.As(ch.result, &r) || !errors.Is(ch.result, boom) || !strings.Contains(out.String(), "deckhand: the model is down") {
		t.Errorf("result %v, printed %q", ch.result, out)
	}
}

func TestParseApprove(t *testing.T) {
	for _, s := range []string{"ask", "auto", "deny"} {
		if a, err := ParseApprove(s); err != nil || string(a) != s {
			t.Errorf("ParseApprove(%q) = %q, %v", s, a, err)
		}
	}
	if _, err := ParseApprove("yes"); err == nil {
		t.Error("ParseApprove(yes) is not refused")
	}
}

func TestConnecting(t *testing.T) {
	list := []servers.ServerStatus{
		{Alias: "up", State: servers.StateReady, Tools: 3},
		{Alias: "cached", State: servers.StateConnecting, Tools: 2},
		{Alias: "fresh", State: servers.StateConnecting},
	}
	got := connectingOf(list)
	if len(got) != 2 || !got["cached"] || got["fresh"] {
		t.Errorf("connectingOf = %v", got)
	}
	line := connectingLine(list)
	if !strings.HasPrefix(line, "connecting: cached (tools offered") || !strings.Contains(line, "; fresh (their tools join") {
		t.Errorf("connectingLine = %q", line)
	}
	if connectingLine(list[:1]) != "" {
		t.Error("no server connecting, yet a line")
	}
}

func TestProgressGate(t *testing.T) {
	var g ProgressGate
	if !g.Due("r/c1") || g.Due("r/c1") || !g.Due("r/c2") {
		t.Error("the gate lets a call's progress through more than once per ProgressEvery, or not the first time")
	}
}

// A result the result limit cut before the model saw it says so, as its
// card in the window does: how much the model saw of how much, and the
// marker where it was cut (past the first lines shown); a whole result
// says nothing of it.
func TestCutResultSaysSo(t *testing.T) {
	ch, out := newChat(ApproveAuto, false)
	c := &fakeContext{}
	whole := strings.Repeat("a line of the result\n", 2000)
	kept, cut := tools.CapCut(whole, 4<<10)
	c.deliver(ch, &conversation.ToolCallFinished{Call: "a", Tool: "fs.read", Output: kept, Cut: cut})
	got := out.String()
	for _, want := range []string{"✓ fs.read · cut for the model", transcript.CutNote(cut),
		"The model saw " + tools.Size(cut.Kept) + " of this " + tools.Size(len(whole)) + " result", " cut: the output was " + tools.Size(len(whole))} {
		if !strings.Contains(got, want) {
			t.Errorf("a cut result does not say %q:\n%s", want, got)
		}
	}
	// Kept whole for the person, it says where.
	ch.resultFile = func(conv, run, call string) string { return "/data/results/" + conv + "/" + run + "-" + call + ".txt" }
	out.Reset()
	cut.Saved = true
	c.deliver(ch, &conversation.ToolCallFinished{Conversation: "c1", Run: "r1", Call: "k", Tool: "fs.read", Output: kept, Cut: cut})
	if got := out.String(); !strings.Contains(got, "kept the whole result") || !strings.Contains(got, "The whole result: /data/results/c1/r1-k.txt") {
		t.Errorf("a result kept whole does not say where:\n%s", got)
	}
	out.Reset()
	c.deliver(ch, &conversation.ToolCallFinished{Call: "b", Tool: "fs.read", Output: whole})
	if got := out.String(); strings.Contains(got, "cut") {
		t.Errorf("a whole result is said to be cut:\n%s", got)
	}
}

// While a refused model request waits to be tried again, Enter on an
// empty line tries it now, once; after the try went, or in a chat not
// typed into (-p), an empty line sends nothing.
func TestEnterRetriesNow(t *testing.T) {
	notice := &conversation.Notice{Conversation: "conv-1", Run: "r1", Text: "429 Too Many Requests; trying again in 1m0s", Retry: true, Try: 2}
	enter := &inputLine{text: ""}
	tests := []struct {
		name        string
		interactive bool
		before      []any // after the notice, before Enter
		want        []any
	}{
		{name: "waiting", interactive: true, want: []any{&conversation.RetryNow{Conversation: "conv-1", Run: "r1", Try: 2}}},
		{name: "pressed twice", interactive: true, before: []any{enter}},
		{name: "the try went", interactive: true, before: []any{&conversation.RetryStarted{Conversation: "conv-1", Run: "r1", Try: 2, Tries: 3}}},
		{name: "another run's try", interactive: true, before: []any{&conversation.RetryStarted{Conversation: "conv-1", Run: "r0", Try: 2, Tries: 3}},
			want: []any{&conversation.RetryNow{Conversation: "conv-1", Run: "r1", Try: 2}}},
		{name: "not typed into", interactive: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ch, out := newChat(ApproveDeny, tt.interactive)
			ch.convID = "conv-1"
			c := &fakeContext{}
			c.deliver(ch, notice)
			if hint := strings.Contains(out.String(), "(Enter: try now)"); hint != tt.interactive {
				t.Errorf("the notice %q offers Enter: %v, want %v", out, hint, tt.interactive)
			}
			for _, m := range tt.before {
				c.deliver(ch, m)
			}
			got := c.deliver(ch, enter)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("sent on Enter (-want +got):\n%s", diff)
			}
		})
	}
}
