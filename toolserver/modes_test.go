package toolserver

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// execution_mode (MTDF's meta parameter, Ahma's R10.1): sync waits for a
// command longer than the inline wait, async answers at once with an
// operation id even for a synchronous tool; neither reaches the program.
// `tools serve --sync` (Options.Sync, R3.4) makes every call wait, whatever
// the definitions and execution_mode say, and the descriptions stop
// promising operation ids.
func TestExecutionModeAndSync(t *testing.T) {
	short := func(o *Options) { o.InlineWait = 200 * time.Millisecond }
	f := newFixture(t, short)
	slow := "sleep 0.6; echo slow-done"
	if text := f.mustCall("shell", map[string]any{"command": slow, "execution_mode": "sync"}, "slow-done", "exit status 0"); strings.Contains(text, "Operation op-") {
		t.Errorf("sync answered with an operation:\n%s", text)
	}
	text := f.mustCall("shell", map[string]any{"command": "echo at-once", "execution_mode": "async"}, "Operation op-")
	id := opIDOf(t, text)
	f.mustCall("await", map[string]any{"operation_id": id}, "at-once")
	if text, failed := f.call("shell", map[string]any{"command": "true", "execution_mode": "later"}, nil); !failed || !strings.Contains(text, `argument "execution_mode": enum`) {
		t.Errorf("a bad execution_mode: failed %v\n%q", failed, text)
	}
	if !strings.Contains(f.tools()["shell"].Description, "operation id") {
		t.Error("without --sync, the shell's description should say it may answer with an operation id")
	}

	g := newFixture(t, short, func(o *Options) { o.Sync = true })
	for _, mode := range []any{nil, "async"} {
		args := map[string]any{"command": slow}
		if mode != nil {
			args["execution_mode"] = mode
		}
		if text := g.mustCall("shell", args, "slow-done", "exit status 0"); strings.Contains(text, "Operation op-") {
			t.Errorf("--sync, execution_mode %v: answered with an operation:\n%s", mode, text)
		}
	}
	for name, tl := range g.tools() {
		if strings.Contains(tl.Description, asyncNote) {
			t.Errorf("--sync: %s still says it may answer with an operation id", name)
		}
	}
}

// An operation that ends after its call answered is pushed to the client
// (Ahma's R3.3 and R17): a logging notification with its id, status and
// output, once, while the session is open, without an await.
func TestFinishedOperationPushed(t *testing.T) {
	f := newFixture(t, func(o *Options) { o.InlineWait = 100 * time.Millisecond })
	if err := f.cs.SetLoggingLevel(context.Background(), &sdk.SetLoggingLevelParams{Level: "info"}); err != nil {
		t.Fatal(err)
	}
	text := f.mustCall("shell", map[string]any{"command": "sleep 0.4; echo pushed-output; exit 3"}, "Operation op-")
	id := opIDOf(t, text)
	f.mustCall("status", map[string]any{"operation_id": id}) // a second look must not push twice
	var got *sdk.LoggingMessageParams
	select {
	case got = <-f.logs:
	case <-time.After(time.Minute):
		t.Fatal("the operation's end was never pushed")
	}
	data, _ := json.Marshal(got.Data)
	var d struct {
		ID     string `json:"operation_id"`
		Status string `json:"status"`
		Output string `json:"output"`
		Result string `json:"result"`
	}
	json.Unmarshal(data, &d)
	if got.Logger != "operations" || got.Level != "error" || d.ID != id || d.Status != "failed" || !strings.Contains(d.Output, "pushed-output") || !strings.Contains(d.Result, "exit status 3") {
		t.Errorf("pushed: %s %s %s", got.Logger, got.Level, data)
	}
	select {
	case more := <-f.logs:
		t.Errorf("pushed twice: %+v", more)
	case <-time.After(300 * time.Millisecond):
	}
}

// One client's operations are invisible to another's (Ahma's R8.4, for the
// HTTP server's many sessions): another session's status lists none of
// them, and its await and cancel of one's id are told there is no such
// operation; the owner's work.
func TestOperationsPerSession(t *testing.T) {
	f := newFixture(t, func(o *Options) { o.InlineWait = 100 * time.Millisecond })
	a := f.cs
	text := f.mustCall("shell", map[string]any{"command": "sleep 0.5; echo mine", "execution_mode": "async"}, "Operation op-")
	id := opIDOf(t, text)
	f.connect() // a second client
	status := f.mustCall("status", nil)
	if strings.Contains(status, id) {
		t.Errorf("another session's status lists the operation:\n%s", status)
	}
	for _, tool := range []string{"await", "cancel"} {
		if text, failed := f.call(tool, map[string]any{"operation_id": id}, nil); !failed || !strings.Contains(text, "no operation") {
			t.Errorf("another session's %s: failed %v\n%s", tool, failed, text)
		}
	}
	f.cs = a
	f.mustCall("await", map[string]any{"operation_id": id, "timeout_seconds": 30}, "mine")
}
