// Package taskpeer is an MCP server for Deckhand's tests of tasks: a bare
// JSON-RPC peer (the go-sdk server knows no tasks) whose tool research
// answers tools/call with a task and then, as its Mode says, finishes it,
// fails it, asks for input mid-task, or misbehaves: a status no spec knows,
// a status message of a megabyte, an interval of 0 or of ten hours, a task
// that never ends, an id given to two calls, a task it forgets. It speaks
// the 2025-11-25 generation of tasks (as server-everything does) unless
// Mode is V2, the io.modelcontextprotocol/tasks extension of 2026-07-28.
//
// A Peer serves one connection at a time (Serve), or streamable HTTP
// (Handler); its counters are safe to read while it serves.
package taskpeer

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Modes of a Peer.
const (
	Complete   = "complete"     // working for Polls tasks/get, then completed
	Fail       = "fail"         // working, then failed; tasks/result is an isError result
	Input      = "input"        // input_required: tasks/result asks a question (elicitation), then completes with the answer
	Never      = "never"        // working for ever; only tasks/cancel ends it
	BadStatus  = "bad-status"   // tasks/get says status "exploded"
	HugeStatus = "huge-status"  // a status message of a megabyte, with escape sequences
	Interval0  = "interval-0"   // pollInterval 0
	Interval10 = "interval-10h" // pollInterval ten hours
	Reuse      = "reuse"        // every call gets the same task id
	Forget     = "forget"       // tasks/get answers "unknown task" (-32602)
	V2         = "v2"           // the 2026-07-28 extension: result inline in tasks/get
	V2Input    = "v2-input"     // the same, with input_required (inputRequests) until tasks/update answers it
	// V2Born is V2Input with the task created already in input_required:
	// tools/call's answer (resultType "task") carries its inputRequests.
	V2Born = "v2-born"
)

// Peer is the scripted server.
type Peer struct {
	Mode  string
	Polls int // tasks/get answered "working" before the end; default 2, negative: none
	// Crash, if set, is called at the first tasks/get when the file
	// CrashOnce does not exist yet (which it then creates): a server that
	// dies mid-task once, and knows the task again when restarted.
	Crash     func()
	CrashOnce string
	// Interval is the poll interval the peer suggests; default 1s.
	Interval time.Duration
	// JSON: over HTTP (Handler), answer each POST with application/json
	// rather than an event stream (and so ask no questions).
	JSON bool
	// Plain: over HTTP, be a sessionless server in the lmcp style: no
	// Mcp-Session-Id, each POST answered with application/json and the
	// connection closed (implies JSON).
	Plain bool
	// AskRoots: the 2026-07-28 task's input request is roots/list, not a
	// question.
	AskRoots bool

	mu       sync.Mutex
	gets     []time.Time // when each tasks/get came
	cancels  []string
	calls    int
	answered map[string]chan json.RawMessage
	next     int
	out      sdk.Connection
	writeMu  sync.Mutex
	polled   map[string]int
	state    map[string]string // a task's status, once cancelled
	topics   map[string]string // the topic tasks/update gave a task (V2Input)
	updates  int
	confirms int
	declared bool                          // the last initialize declared the tasks extension
	sessions map[string]bool               // live HTTP sessions
	started  int                           // HTTP sessions started
	inflight map[string]context.CancelFunc // HTTP requests being answered, by session and id
}

// Gets is when each tasks/get came, in order.
func (p *Peer) Gets() []time.Time {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]time.Time(nil), p.gets...)
}

// Tasks is how many tasks tools/call created.
func (p *Peer) Tasks() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.calls
}

// Updates is how many tasks/update came.
func (p *Peer) Updates() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.updates
}

// Cancels is the task ids tasks/cancel named, in order.
func (p *Peer) Cancels() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.cancels...)
}

// Serve answers conn until it ends.
func (p *Peer) Serve(ctx context.Context, conn sdk.Connection) error {
	p.mu.Lock()
	p.out, p.answered, p.polled, p.state, p.topics = conn, map[string]chan json.RawMessage{}, map[string]int{}, map[string]string{}, map[string]string{}
	p.mu.Unlock()
	var wg sync.WaitGroup
	defer wg.Wait()
	for {
		msg, err := conn.Read(ctx)
		if err != nil {
			return err
		}
		switch m := msg.(type) {
		case *jsonrpc.Response:
			p.mu.Lock()
			ch := p.answered[fmt.Sprint(m.ID.Raw())]
			p.mu.Unlock()
			if ch != nil {
				ch <- m.Result
			}
		case *jsonrpc.Request:
			if !m.IsCall() {
				continue
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				res, err := p.handle(ctx, m)
				p.reply(ctx, m.ID, res, err)
			}()
		}
	}
}

func (p *Peer) write(ctx context.Context, msg jsonrpc.Message) {
	p.writeMu.Lock()
	defer p.writeMu.Unlock()
	_ = p.out.Write(ctx, msg)
}

// sendKey, in a request's context, is where the peer's own messages made
// while answering it go (over HTTP: the POST's event stream).
type sendKey struct{}

// send writes a message the peer makes while answering a request.
func (p *Peer) send(ctx context.Context, msg jsonrpc.Message) {
	if send, ok := ctx.Value(sendKey{}).(func(jsonrpc.Message)); ok {
		send(msg)
		return
	}
	p.write(ctx, msg)
}

func (p *Peer) reply(ctx context.Context, id jsonrpc.ID, res any, err error) {
	resp := &jsonrpc.Response{ID: id}
	if err != nil {
		resp.Error = err
	} else {
		resp.Result, _ = json.Marshal(res)
	}
	p.write(ctx, resp)
}

func errInvalid(format string, args ...any) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf(format, args...)}
}

func (p *Peer) handle(ctx context.Context, req *jsonrpc.Request) (any, error) {
	var params struct {
		Name      string         `json:"name"`
		Arguments map[string]any `json:"arguments"`
		TaskID    string         `json:"taskId"`
		Task      *struct{}      `json:"task"`
	}
	_ = json.Unmarshal(req.Params, &params)
	switch req.Method {
	case "initialize":
		var init struct {
			Capabilities struct {
				Extensions map[string]json.RawMessage `json:"extensions"`
			} `json:"capabilities"`
		}
		_ = json.Unmarshal(req.Params, &init)
		_, declared := init.Capabilities.Extensions["io.modelcontextprotocol/tasks"]
		p.mu.Lock()
		p.declared = declared
		p.mu.Unlock()
		caps := map[string]any{"tools": map[string]any{}}
		if p.v2() {
			caps["extensions"] = map[string]any{"io.modelcontextprotocol/tasks": map[string]any{}}
		} else {
			caps["tasks"] = map[string]any{"cancel": map[string]any{}, "requests": map[string]any{"tools": map[string]any{"call": map[string]any{}}}}
		}
		return map[string]any{"protocolVersion": "2025-11-25", "capabilities": caps, "serverInfo": map[string]any{"name": "taskpeer", "version": "1"}}, nil
	case "ping":
		return map[string]any{}, nil
	case "tools/list":
		schema := map[string]any{"type": "object", "properties": map[string]any{"topic": map[string]any{"type": "string"}}}
		return map[string]any{"tools": []any{
			map[string]any{"name": "research", "description": "Researches a topic, slowly.", "inputSchema": schema, "execution": map[string]any{"taskSupport": "required"}},
			map[string]any{"name": "quick", "description": "Answers at once.", "inputSchema": schema},
			map[string]any{"name": "confirm", "description": "Asks which topic first (a multi-round-trip call, SEP-2322), then answers.", "inputSchema": schema},
		}}, nil
	case "tools/call":
		if params.Name == "quick" {
			return textResult("quick answer", false), nil
		}
		if params.Name == "confirm" {
			return p.confirm(req.Params), nil
		}
		if !p.v2() && params.Task == nil {
			return nil, errInvalid("research must be called as a task")
		}
		p.mu.Lock()
		declared := p.declared
		p.mu.Unlock()
		if p.v2() && !declared {
			// The extension's rule: a task only for a client that
			// declared it.
			return nil, errInvalid("research needs the tasks extension, which the client did not declare")
		}
		p.mu.Lock()
		p.calls++
		id := fmt.Sprintf("task-%d", p.calls)
		if p.Mode == Reuse {
			id = "task-same"
		}
		p.mu.Unlock()
		if p.Mode == V2Born {
			return p.created(p.asking(id)), nil
		}
		return p.created(p.task(id, "working", "started")), nil
	case "tasks/get":
		if p.Crash != nil && p.CrashOnce != "" {
			if f, err := os.OpenFile(p.CrashOnce, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600); err == nil {
				f.Close()
				p.Crash()
			}
		}
		p.mu.Lock()
		p.gets = append(p.gets, time.Now())
		p.polled[params.TaskID]++
		n := p.polled[params.TaskID]
		cancelled := p.state[params.TaskID] == "cancelled"
		topic, answered := p.topics[params.TaskID]
		p.mu.Unlock()
		if p.Mode == V2Born || p.Mode == V2Input && n > p.polls() {
			if !answered {
				return p.asking(params.TaskID), nil
			}
			t := p.task(params.TaskID, "completed", "done")
			t["result"] = textResult("report on "+topic, false)
			return t, nil
		}
		if !strings.HasPrefix(params.TaskID, "task-") || p.Mode == Forget {
			return nil, errInvalid("unknown task %s", params.TaskID)
		}
		return p.get(params.TaskID, n, cancelled), nil
	case "tasks/update":
		var u struct {
			TaskID         string `json:"taskId"`
			InputResponses map[string]struct {
				Action  string         `json:"action"`
				Content map[string]any `json:"content"`
			} `json:"inputResponses"`
		}
		_ = json.Unmarshal(req.Params, &u)
		p.mu.Lock()
		p.updates++
		if r, ok := u.InputResponses["q1"]; ok {
			p.topics[u.TaskID] = fmt.Sprint(r.Content["topic"])
		}
		p.mu.Unlock()
		return map[string]any{"resultType": "complete"}, nil
	case "tasks/result":
		return p.result(ctx, params.TaskID)
	case "tasks/cancel":
		p.mu.Lock()
		p.cancels = append(p.cancels, params.TaskID)
		p.state[params.TaskID] = "cancelled"
		p.mu.Unlock()
		return p.task(params.TaskID, "cancelled", "cancelled at the client's request"), nil
	}
	return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "no method " + req.Method}
}

// v2 reports whether the peer speaks the 2026-07-28 extension.
func (p *Peer) v2() bool {
	return p.Mode == V2 || p.Mode == V2Input || p.Mode == V2Born
}

// asking is a 2026-07-28 task in input_required, asking its one question
// (or the client's roots).
func (p *Peer) asking(id string) map[string]any {
	t := p.task(id, "input_required", "which topic?")
	if p.AskRoots {
		t["inputRequests"] = map[string]any{"r1": map[string]any{"method": "roots/list", "params": map[string]any{}}}
		return t
	}
	t["inputRequests"] = map[string]any{"q1": map[string]any{"method": "elicitation/create", "params": map[string]any{
		"mode": "form", "message": "Which topic?",
		"requestedSchema": map[string]any{"type": "object", "properties": map[string]any{"topic": map[string]any{"type": "string"}}}}}}
	return t
}

func (p *Peer) polls() int {
	if p.Polls < 0 {
		return 0
	}
	if p.Polls > 0 {
		return p.Polls
	}
	return 2
}

// task is a task in the mode's generation, with the mode's interval.
func (p *Peer) task(id, status, message string) map[string]any {
	t := map[string]any{"taskId": id, "status": status, "statusMessage": message, "createdAt": "2026-11-26T00:00:00Z", "lastUpdatedAt": "2026-11-26T00:00:00Z"}
	interval := 1000.0
	if p.Interval > 0 {
		interval = float64(p.Interval / time.Millisecond)
	}
	switch p.Mode {
	case Interval0:
		interval = 0
	case Interval10:
		interval = float64(10 * time.Hour / time.Millisecond)
	}
	if p.v2() {
		t["pollIntervalMs"], t["ttlMs"] = interval, 60000
	} else {
		t["pollInterval"], t["ttl"] = interval, 60000
	}
	return t
}

func (p *Peer) created(t map[string]any) map[string]any {
	if p.v2() {
		t["resultType"] = "task"
		return t
	}
	return map[string]any{"task": t}
}

func (p *Peer) get(id string, n int, cancelled bool) map[string]any {
	switch {
	case cancelled:
		return p.task(id, "cancelled", "cancelled")
	case p.Mode == BadStatus:
		return p.task(id, "exploded", "")
	case p.Mode == HugeStatus:
		return p.task(id, "working", "\x1b[31m"+strings.Repeat("progress ", 1<<20/9))
	case p.Mode == Never || p.Mode == Interval0 || p.Mode == Interval10 || p.Mode == Reuse:
		return p.task(id, "working", fmt.Sprintf("step %d", n))
	case n <= p.polls():
		return p.task(id, "working", fmt.Sprintf("step %d of %d", n, p.polls()))
	case p.Mode == Input:
		return p.task(id, "input_required", "which topic?")
	case p.Mode == Fail:
		return p.task(id, "failed", "it broke")
	case p.Mode == V2:
		t := p.task(id, "completed", "done")
		t["resultType"] = "complete"
		t["result"] = textResult("report on "+id, false)
		return t
	}
	return p.task(id, "completed", "done")
}

// result is tasks/result: it waits for the end, asking its question first
// in Input mode.
func (p *Peer) result(ctx context.Context, id string) (any, error) {
	switch p.Mode {
	case Fail:
		return textResult("research failed: it broke", true), nil
	case Input:
		answer, err := p.ask(ctx, id)
		if err != nil {
			return nil, err
		}
		return textResult("report on "+answer, false), nil
	case Complete:
		return textResult("report on "+id, false), nil
	}
	<-ctx.Done()
	return nil, ctx.Err()
}

// ask sends elicitation/create to the client and returns its answer's
// topic, or its action when it did not accept.
func (p *Peer) ask(ctx context.Context, id string) (string, error) {
	p.mu.Lock()
	p.next++
	key := fmt.Sprintf("peer-%d", p.next)
	ch := make(chan json.RawMessage, 1)
	p.answered[key] = ch
	p.mu.Unlock()
	rid, _ := jsonrpc.MakeID(key)
	params, _ := json.Marshal(map[string]any{
		"mode":            "form",
		"message":         "Which topic?",
		"requestedSchema": map[string]any{"type": "object", "properties": map[string]any{"topic": map[string]any{"type": "string"}}, "required": []string{"topic"}},
		"_meta":           map[string]any{"io.modelcontextprotocol/related-task": map[string]any{"taskId": id}},
	})
	p.send(ctx, &jsonrpc.Request{ID: rid, Method: "elicitation/create", Params: params})
	select {
	case <-ctx.Done():
		return "", ctx.Err()
	case raw := <-ch:
		var r struct {
			Action  string         `json:"action"`
			Content map[string]any `json:"content"`
		}
		_ = json.Unmarshal(raw, &r)
		if r.Action != "accept" {
			return r.Action, nil
		}
		return fmt.Sprint(r.Content["topic"]), nil
	}
}

// confirm is tools/call of confirm: input_required with a question and a
// request state, until the call comes again with the answer and the state.
func (p *Peer) confirm(raw json.RawMessage) map[string]any {
	var params struct {
		InputResponses map[string]struct {
			Action  string         `json:"action"`
			Content map[string]any `json:"content"`
		} `json:"inputResponses"`
		RequestState string `json:"requestState"`
	}
	_ = json.Unmarshal(raw, &params)
	p.mu.Lock()
	p.confirms++
	p.mu.Unlock()
	if r, ok := params.InputResponses["c1"]; ok && params.RequestState == "state-1" {
		return textResult("confirmed "+fmt.Sprint(r.Content["topic"]), false)
	}
	return map[string]any{"resultType": "input_required", "requestState": "state-1", "inputRequests": map[string]any{
		"c1": map[string]any{"method": "elicitation/create", "params": map[string]any{
			"mode": "form", "message": "Which topic?",
			"requestedSchema": map[string]any{"type": "object", "properties": map[string]any{"topic": map[string]any{"type": "string"}}}}}}}
}

// Confirms is how many tools/call of confirm came.
func (p *Peer) Confirms() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.confirms
}

func textResult(text string, isError bool) map[string]any {
	return map[string]any{"content": []any{map[string]any{"type": "text", "text": text}}, "isError": isError}
}
