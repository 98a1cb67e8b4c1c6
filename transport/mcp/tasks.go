package mcp

// Tasks: a tools/call the server answers with a task handle rather than the
// result, which the client polls (tasks/get), fetches (tasks/result) and
// cancels (tasks/cancel). Two generations are read: the 2025-11-25 one
// (the client asks for a task with params.task when the tool's
// execution.taskSupport allows it, and the server's capabilities say
// tasks.requests.tools.call), which server-everything speaks, and the
// io.modelcontextprotocol/tasks extension of 2026-07-28 (resultType "task",
// the result inline in tasks/get). The go-sdk implements neither, and its
// types drop what says a task is there (the tasks capability, a tool's
// execution.taskSupport, tools/call's task), so Deckhand reads the server's
// answers to initialize, tools/list and its own tools/call as they came:
//
//   - over stdio, in-process and legacy SSE, by wrapping the SDK's
//     connection (taskConn, conn.go, which every message passes through):
//     requests of Deckhand's own go out under ids the SDK never uses, and
//     their answers are taken out of the stream before the SDK reads it;
//   - over streamable HTTP, whose connection cannot be wrapped (the SDK
//     tells it of the session's state through an unexported method: the
//     protocol version header, the server's own stream), through the SDK's
//     session itself: tasks/* are custom methods (CallCustomMethod, in the
//     same session, under the same Mcp-Session-Id), tools/call is the SDK's
//     with params.task added by a sending middleware (askTask), and the
//     answers are seen under the SDK, in the HTTP bodies (answerTap).
//
// Everything the server says about a task is checked: its id, its status,
// its message (cleaned and cut), its interval (clamped to
// [MinPollInterval, MaxPollInterval]).
//
// This file runs only for a call that may become a task: a call of a tool
// the server offers no task for is a plain tools/call (Conn.CallTask).

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/clean"
)

// TasksExtension is the id of the tasks extension of 2026-07-28, declared in
// the client's capabilities.
const TasksExtension = "io.modelcontextprotocol/tasks"

// Bounds on what a server may suggest as the time between two tasks/get.
const (
	MinPollInterval     = 250 * time.Millisecond
	MaxPollInterval     = 30 * time.Second
	DefaultPollInterval = time.Second // when the server suggests none
)

// Bounds on a task's id and status message as the server gives them.
const (
	maxTaskID        = 256
	maxStatusMessage = 1000
)

// TaskStatus is where a task is.
type TaskStatus string

const (
	TaskWorking       TaskStatus = "working"
	TaskInputRequired TaskStatus = "input_required"
	TaskCompleted     TaskStatus = "completed"
	TaskFailed        TaskStatus = "failed"
	TaskCancelled     TaskStatus = "cancelled"
)

// Terminal reports whether the task has ended.
func (s TaskStatus) Terminal() bool {
	return s == TaskCompleted || s == TaskFailed || s == TaskCancelled
}

// Task is what the server last said about a task, checked.
type Task struct {
	ID      string
	Status  TaskStatus
	Message string // the status message, cleaned and cut to a line
	// PollInterval is the server's suggestion, clamped; DefaultPollInterval
	// when it made none.
	PollInterval time.Duration

	// The 2026-07-28 generation carries the outcome in tasks/get, and
	// its questions.
	v2     bool
	result json.RawMessage
	failed *jsonrpc.Error
	inputs map[string]json.RawMessage
}

// ErrTaskExpired: the server no longer knows the task (its ttl ran out, or
// it restarted).
var ErrTaskExpired = errors.New("the server no longer knows the task (expired or forgotten)")

// wireTask is both generations' shapes of a task, as the server sent them.
type wireTask struct {
	Task           *wireTask                  `json:"task"` // 2025-11-25: tools/call's CreateTaskResult
	ResultType     string                     `json:"resultType"`
	TaskID         *string                    `json:"taskId"`
	Status         string                     `json:"status"`
	StatusMessage  string                     `json:"statusMessage"`
	PollInterval   *float64                   `json:"pollInterval"`   // 2025-11-25, ms
	PollIntervalMs *float64                   `json:"pollIntervalMs"` // 2026-07-28
	Result         json.RawMessage            `json:"result"`
	Error          *jsonrpc.Error             `json:"error"`
	InputRequests  map[string]json.RawMessage `json:"inputRequests"`
}

// parseTask checks a task as the server sent it; where names the message it
// came in, v2 the generation it belongs to.
func parseTask(raw json.RawMessage, where string, v2 bool) (*Task, error) {
	var w wireTask
	if err := json.Unmarshal(raw, &w); err != nil {
		return nil, fmt.Errorf("%s: not a task: %v", where, err)
	}
	if w.Task != nil {
		w = *w.Task
	}
	if w.TaskID == nil {
		return nil, fmt.Errorf("%s: the task has no taskId", where)
	}
	id := *w.TaskID
	switch {
	case id == "":
		return nil, fmt.Errorf("%s: the task's id is empty", where)
	case len(id) > maxTaskID:
		return nil, fmt.Errorf("%s: the task's id is %d bytes long (at most %d)", where, len(id), maxTaskID)
	case clean.Line(id) != id:
		return nil, fmt.Errorf("%s: the task's id %s has control or invisible characters", where, clean.Quote(id))
	}
	t := &Task{ID: id, Status: TaskStatus(w.Status), Message: cut(clean.Line(w.StatusMessage), maxStatusMessage), v2: v2}
	switch t.Status {
	case TaskWorking, TaskInputRequired, TaskCompleted, TaskFailed, TaskCancelled:
	default:
		return nil, fmt.Errorf("%s: task %s has status %s, not one of working, input_required, completed, failed, cancelled", where, id, clean.Quote(cut(w.Status, 64)))
	}
	ms := w.PollInterval
	if w.PollIntervalMs != nil {
		ms = w.PollIntervalMs
	}
	t.PollInterval = clampInterval(ms)
	if v2 {
		t.result, t.failed, t.inputs = w.Result, w.Error, w.InputRequests
	}
	return t, nil
}

// clampInterval turns a suggested interval in milliseconds into one within
// bounds: 0, negative or ten hours are all the server's to suggest, not to
// impose.
func clampInterval(ms *float64) time.Duration {
	if ms == nil {
		return DefaultPollInterval
	}
	switch d := *ms; {
	case d*float64(time.Millisecond) < float64(MinPollInterval):
		return MinPollInterval
	case d*float64(time.Millisecond) > float64(MaxPollInterval):
		return MaxPollInterval
	default:
		return time.Duration(d * float64(time.Millisecond))
	}
}

// cut shortens s to at most n bytes, on a rune boundary, marking the cut.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}

// StartTool calls the server's tool name like CallTool, but when the server
// answers with a task it returns the task at once (res is nil) rather than
// waiting for its end. progress, if not nil, receives the call's progress
// notifications until StartTool returns; AwaitTask takes them over.
func (c *Conn) StartTool(ctx context.Context, name string, args any, progress func(Progress)) (*sdk.CallToolResult, *Task, error) {
	if !c.tasks.offered(name) {
		res, err := c.CallTool(ctx, name, args, progress)
		return res, nil, err
	}
	ctx, done := c.bind(ctx)
	defer done()
	token, release := c.progressToken(progress)
	defer release()
	raw, err := c.startCall(ctx, name, args, token)
	if err != nil {
		return nil, nil, c.callError(ctx, "calling "+name, err)
	}
	var kind struct {
		Task       json.RawMessage `json:"task"`
		ResultType string          `json:"resultType"`
	}
	_ = json.Unmarshal(raw, &kind)
	if kind.Task == nil && kind.ResultType != "task" {
		res := new(sdk.CallToolResult)
		if err := json.Unmarshal(raw, res); err != nil {
			return nil, nil, fmt.Errorf("calling %s: reading the result: %v", name, err)
		}
		return res, nil, nil
	}
	t, err := parseTask(raw, "the answer to tools/call "+name, kind.Task == nil)
	if err != nil {
		return nil, nil, err
	}
	return nil, t, nil
}

// AwaitTask follows a task until it ends and returns its result: it polls
// tasks/get at the task's interval, reports each change of status or
// message to progress, and fetches the result. A failed task is a result
// with IsError when the server gives one, else an error. When ctx ends
// before the task does (Stop, the call's timeout), the task is cancelled
// on the server (tasks/cancel). t may be a task known only by its id
// (Status empty), such as one read back from the log.
func (c *Conn) AwaitTask(ctx context.Context, t *Task, progress func(Progress)) (res *sdk.CallToolResult, err error) {
	ctx, done := c.bind(ctx)
	defer done()
	if !c.tasks.follow(t.ID) {
		return nil, fmt.Errorf("task %s: the server gave an id that another call on this connection is already following", t.ID)
	}
	defer c.tasks.unfollow(t.ID)
	ended := false
	defer func() {
		if ended || ctx.Err() == nil || c.Err() != nil {
			return
		}
		// Abandoned: tell the server, within a short time of its own.
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		if _, cerr := c.CancelTask(cctx, t.ID); cerr != nil {
			c.log.Debug("cancelling task", "server", c.alias, "task", t.ID, "err", cerr)
		}
	}()
	var last Task
	answered := map[string]bool{} // a 2026-07-28 task's input requests answered
	for {
		if t.Status == "" {
			if t, err = c.GetTask(ctx, t.ID); err != nil {
				return nil, err
			}
		}
		if progress != nil && (t.Status != last.Status || t.Message != last.Message) {
			msg := "task " + string(t.Status)
			if t.Message != "" {
				msg += ": " + t.Message
			}
			p := Progress{Message: msg}
			if t.Status != last.Status {
				p.Task, p.Status = t.ID, string(t.Status)
			}
			progress(p)
		}
		last = *t
		switch {
		case t.Status.Terminal() && t.v2:
			ended = true
			return c.inlineResult(t)
		case t.Status == TaskCancelled:
			ended = true
			return nil, fmt.Errorf("task %s was cancelled by the server", t.ID)
		case t.Status == TaskInputRequired && t.v2:
			if err := c.answerInputs(ctx, t, answered); err != nil {
				return nil, err
			}
		case t.Status.Terminal(), t.Status == TaskInputRequired && !t.v2:
			// tasks/result waits for the end, and is how the server
			// asks its questions meanwhile (elicitation, answered
			// as any other).
			res, err := c.TaskResult(ctx, t.ID)
			if err != nil {
				if ctx.Err() != nil {
					return nil, c.callError(ctx, "waiting for task "+t.ID, err)
				}
				ended = true
				return nil, err
			}
			ended = true
			return res, nil
		}
		timer := time.NewTimer(t.PollInterval)
		select {
		case <-ctx.Done():
			timer.Stop()
			return nil, c.callError(ctx, "waiting for task "+t.ID, context.Cause(ctx))
		case <-timer.C:
		}
		next, err := c.getTask(ctx, t.ID, t.v2)
		if err != nil {
			if errors.Is(err, ErrTaskExpired) {
				ended = true
			}
			return nil, err
		}
		if next.ID != t.ID {
			return nil, fmt.Errorf("tasks/get %s: the server answered about task %s", t.ID, next.ID)
		}
		t = next
	}
}

// maxInputs bounds the input requests read from one tasks/get: each is a
// question to the person, and the caps on questions apply anyway.
const maxInputs = 8

// answerInputs answers a 2026-07-28 task's input requests (tasks/update):
// its questions (elicitation/create) through OnElicit, as any server's
// question, each at most once. Requests of other kinds (sampling, roots)
// are not answered; a task that asks only those ends the call.
func (c *Conn) answerInputs(ctx context.Context, t *Task, answered map[string]bool) error {
	if len(t.inputs) > maxInputs {
		return fmt.Errorf("task %s asks %d questions at once (at most %d)", t.ID, len(t.inputs), maxInputs)
	}
	answers, pending := c.askInputs(ctx, t.inputs, answered)
	if pending == 0 {
		return nil // answered already; the server has not caught up
	}
	if len(answers) == 0 {
		return fmt.Errorf("task %s asks for input Deckhand does not give (only questions are answered)", t.ID)
	}
	responses := map[string]any{}
	for key, a := range answers {
		responses[key] = a
	}
	ctx, done := c.bind(ctx)
	defer done()
	if _, err := c.request(ctx, "tasks/update", &taskParams{TaskID: t.ID, InputResponses: responses}); err != nil {
		return c.taskError(ctx, "tasks/update "+t.ID, err)
	}
	return nil
}

// askInputs asks the questions (elicitation/create) among input requests
// (SEP-2322's inputRequests) through OnElicit, those not answered yet,
// and returns their answers; pending is how many were not answered before.
// A question that fails is declined.
func (c *Conn) askInputs(ctx context.Context, inputs map[string]json.RawMessage, answered map[string]bool) (answers map[string]*sdk.ElicitResult, pending int) {
	answers = map[string]*sdk.ElicitResult{}
	for key, raw := range inputs {
		if answered[key] {
			continue
		}
		pending++
		var req struct {
			Method string            `json:"method"`
			Params *sdk.ElicitParams `json:"params"`
		}
		if err := json.Unmarshal(raw, &req); err != nil || req.Method != "elicitation/create" || req.Params == nil || c.onElicit == nil {
			continue
		}
		res, err := c.onElicit(ctx, &sdk.ElicitRequest{Params: req.Params})
		if err != nil || res == nil {
			res = &sdk.ElicitResult{Action: "decline"}
		}
		answered[key] = true
		answers[key] = res
	}
	return answers, pending
}

// maxRounds bounds the rounds of a tools/call whose server asks for input
// first (SEP-2322), as the SDK's middleware does its own.
const maxRounds = 10

// callRounds sends a tools/call of Deckhand's own over a wrapped
// connection and, while the server answers that it needs input first
// (resultType input_required, SEP-2322: not a task), asks its questions
// through OnElicit and sends the call again with the answers and the
// server's request state: what the SDK's multi-round-trip middleware does
// for the calls it sends, which this one does not go through.
func (c *Conn) callRounds(ctx context.Context, tc *taskConn, name string, p *taskCallParams) (json.RawMessage, error) {
	for round := 1; ; round++ {
		raw, err := tc.call(ctx, "tools/call", p)
		if err != nil {
			return nil, err
		}
		var more struct {
			ResultType    string                     `json:"resultType"`
			InputRequests map[string]json.RawMessage `json:"inputRequests"`
			RequestState  string                     `json:"requestState"`
		}
		if json.Unmarshal(raw, &more) != nil || more.ResultType != "input_required" {
			return raw, nil
		}
		switch {
		case round >= maxRounds:
			return nil, fmt.Errorf("calling %s: the server still asks for input after %d rounds", name, maxRounds)
		case len(more.InputRequests) > maxInputs:
			return nil, fmt.Errorf("calling %s: the server asks %d questions at once (at most %d)", name, len(more.InputRequests), maxInputs)
		}
		answers, _ := c.askInputs(ctx, more.InputRequests, map[string]bool{})
		if len(answers) < len(more.InputRequests) {
			return nil, fmt.Errorf("calling %s: the server asks for input Deckhand does not give (only questions are answered)", name)
		}
		p.InputResponses = sdk.InputResponseMap{}
		for key, a := range answers {
			p.InputResponses[key] = a
		}
		p.RequestState = more.RequestState
	}
}

// inlineResult is a 2026-07-28 task's outcome, carried in tasks/get.
func (c *Conn) inlineResult(t *Task) (*sdk.CallToolResult, error) {
	switch {
	case t.Status == TaskCancelled:
		return nil, fmt.Errorf("task %s was cancelled by the server", t.ID)
	case t.Status == TaskFailed && t.failed != nil:
		return nil, fmt.Errorf("task %s failed: %s", t.ID, cut(clean.Line(t.failed.Message), maxStatusMessage))
	case t.Status == TaskFailed:
		return nil, fmt.Errorf("task %s failed without saying why", t.ID)
	case len(t.result) == 0:
		return nil, fmt.Errorf("task %s completed without a result", t.ID)
	}
	res := new(sdk.CallToolResult)
	if err := json.Unmarshal(t.result, res); err != nil {
		return nil, fmt.Errorf("task %s: reading its result: %v", t.ID, err)
	}
	return res, nil
}

// GetTask asks the server where a task is (tasks/get).
func (c *Conn) GetTask(ctx context.Context, id string) (*Task, error) {
	return c.getTask(ctx, id, c.tasksV2())
}

// tasksV2 reports whether a task known only by its id is of the 2026-07-28
// generation: the server offers it and not the older one.
func (c *Conn) tasksV2() bool {
	return c.tasks.v2.Load() && !c.tasks.v1.Load()
}

func (c *Conn) getTask(ctx context.Context, id string, v2 bool) (*Task, error) {
	ctx, done := c.bind(ctx)
	defer done()
	raw, err := c.request(ctx, "tasks/get", &taskParams{TaskID: id})
	if err != nil {
		return nil, c.taskError(ctx, "tasks/get "+id, err)
	}
	return parseTask(raw, "the answer to tasks/get "+id, v2)
}

// TaskResult fetches a task's result (tasks/result, 2025-11-25), which
// waits until the task ends.
func (c *Conn) TaskResult(ctx context.Context, id string) (*sdk.CallToolResult, error) {
	ctx, done := c.bind(ctx)
	defer done()
	raw, err := c.request(ctx, "tasks/result", &taskParams{TaskID: id})
	if err != nil {
		return nil, c.taskError(ctx, "tasks/result "+id, err)
	}
	res := new(sdk.CallToolResult)
	if err := json.Unmarshal(raw, res); err != nil {
		return nil, fmt.Errorf("tasks/result %s: not a tool's result: %v", id, err)
	}
	return res, nil
}

// CancelTask asks the server to cancel a task (tasks/cancel). The task it
// returns is nil when the server's answer does not describe it (2026-07-28
// answers with an empty result).
func (c *Conn) CancelTask(ctx context.Context, id string) (*Task, error) {
	ctx, done := c.bind(ctx)
	defer done()
	raw, err := c.request(ctx, "tasks/cancel", &taskParams{TaskID: id})
	if err != nil {
		return nil, c.taskError(ctx, "tasks/cancel "+id, err)
	}
	t, err := parseTask(raw, "the answer to tasks/cancel "+id, c.tasksV2())
	if err != nil {
		return nil, nil // cancelled; the answer said nothing we need
	}
	return t, nil
}

// taskError is callError, with an unknown task said as ErrTaskExpired.
func (c *Conn) taskError(ctx context.Context, what string, err error) error {
	var wire *jsonrpc.Error
	if errors.As(err, &wire) && wire.Code == jsonrpc.CodeInvalidParams && ctx.Err() == nil && c.Err() == nil {
		return fmt.Errorf("%s: %w (%s)", what, ErrTaskExpired, cut(clean.Line(wire.Message), 200))
	}
	return c.callError(ctx, what, err)
}

// startCall sends tools/call, asking for a task where the 2025-11-25
// generation wants it asked, and returns the answer as the server wrote it.
func (c *Conn) startCall(ctx context.Context, name string, args any, token string) (json.RawMessage, error) {
	if args == nil {
		args = map[string]any{} // as the SDK sends it
	}
	params := sdk.CallToolParams{Name: name, Arguments: args}
	params.SetProgressToken(token)
	ask := c.tasks.v1.Load()
	if tc := c.wrapped.Load(); tc != nil {
		p := &taskCallParams{CallToolParams: params}
		if ask {
			p.Task = &struct{}{}
		}
		return c.callRounds(ctx, tc, name, p)
	}
	// Streamable HTTP: the SDK's own call, with params.task added by
	// askTask, whose answer the tap keeps as it came (the SDK's reading of
	// it drops the task).
	release := hold(&c.mu, c.answers, token, nil)
	defer func() {
		release()
		if c.http != nil {
			c.http.tap.forgetCall(token)
		}
	}()
	ctx = context.WithValue(ctx, askTaskKey{}, ask)
	res, err := c.session.CallTool(context.WithValue(ctx, startCallKey{}, token), &params)
	c.mu.Lock()
	raw := c.answers[token]
	c.mu.Unlock()
	if err != nil {
		if isTaskAnswer(raw) {
			// The SDK took the task's inputRequests for its own
			// multi-round-trip and was stopped (startedTask): the
			// task is the answer, its questions AwaitTask's.
			return raw, nil
		}
		return nil, err
	}
	if raw == nil {
		// Not seen (it came where the tap does not look): the SDK's
		// reading of it is what there is.
		return json.Marshal(res)
	}
	return raw, nil
}

// startCallKey, in the context of StartTool's tools/call through the SDK,
// is the call's progress token: the SDK passes that context on to the
// handlers it calls to answer a result's inputRequests (elicit).
type startCallKey struct{}

// errTaskInputs stops the SDK answering a task's inputRequests itself.
var errTaskInputs = errors.New("the answer is a task: its input requests are answered with tasks/update, not by calling the tool again")

// isTaskAnswer reports whether raw, an answer to tools/call, is a
// 2026-07-28 task (resultType "task").
func isTaskAnswer(raw json.RawMessage) bool {
	if raw == nil {
		return false
	}
	var kind struct {
		ResultType string `json:"resultType"`
	}
	return json.Unmarshal(raw, &kind) == nil && kind.ResultType == "task"
}

// startedTask reports whether the StartTool call with progress token
// token has been answered with a 2026-07-28 task.
func (c *Conn) startedTask(token string) bool {
	c.mu.Lock()
	raw := c.answers[token]
	c.mu.Unlock()
	return isTaskAnswer(raw)
}

// elicit is the SDK's elicitation handler: OnElicit, except for a task's
// questions. The SDK's multi-round-trip middleware (SEP-2322) answers
// the inputRequests of any tools/call result, whatever its resultType, and
// sends the call again with the answers: for a task created in
// input_required, the questions would be answered to no task and the
// server would start a second one (ten, until the SDK gives up: 9
// questions asked). Those questions are refused here, before anyone is
// asked, and the call's second sending by refuseRepeat (for the kinds of
// input the SDK answers without a handler, roots); StartTool then takes
// the task from the tap, and AwaitTask asks its questions once.
func (c *Conn) elicit(ctx context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
	if token, ok := ctx.Value(startCallKey{}).(string); ok && c.startedTask(token) {
		return nil, errTaskInputs
	}
	return c.onElicit(ctx, req)
}

// refuseRepeat stops a tools/call of StartTool's going out again once the
// server answered it with a task (elicit).
func (c *Conn) refuseRepeat(method, token string) error {
	if method == "tools/call" && token != "" && c.startedTask(token) {
		return errTaskInputs
	}
	return nil
}

// wantAnswer says which answers the tap keeps: initialize's and
// tools/list's (what the server offers of tasks), and those of StartTool's
// calls.
func (c *Conn) wantAnswer(method, token string) bool {
	switch method {
	case "initialize", "tools/list":
		return true
	case "tools/call":
		c.mu.Lock()
		defer c.mu.Unlock()
		_, ok := c.answers[token]
		return ok
	}
	return false
}

// tapped takes an answer the tap kept.
func (c *Conn) tapped(method, token string, result json.RawMessage) {
	if method != "tools/call" {
		c.tasks.look(method, result)
		return
	}
	c.mu.Lock()
	if _, ok := c.answers[token]; ok {
		c.answers[token] = result
	}
	c.mu.Unlock()
}

// request sends a request the SDK does not know and returns its result:
// over a wrapped connection under an id of Deckhand's own, else through the
// SDK's session as a custom method.
func (c *Conn) request(ctx context.Context, method string, params *taskParams) (json.RawMessage, error) {
	if tc := c.wrapped.Load(); tc != nil {
		return tc.call(ctx, method, params)
	}
	if c.session == nil {
		return nil, errors.New("no connection")
	}
	res, err := sdk.CallCustomMethod[*taskParams, *rawResult](ctx, c.session, method, params)
	if err != nil {
		return nil, err
	}
	return res.raw, nil
}

// taskMethods are the requests of tasks the SDK does not know, sent as its
// custom methods.
var taskMethods = []string{"tasks/get", "tasks/result", "tasks/cancel", "tasks/update"}

// allowTasks lets client send tasks/* through its session (request, over
// streamable HTTP; dialHTTP also adds askTask there, the one kind of
// connection whose tools/call asks for a task through the SDK).
func allowTasks(client *sdk.Client) error {
	for _, m := range taskMethods {
		if err := sdk.AddSendingCustomMethod[*taskParams, *rawResult](client, m); err != nil {
			return err
		}
	}
	return nil
}

// taskParams are the params of tasks/*.
type taskParams struct {
	sdk.ParamsBase
	TaskID         string         `json:"taskId"`
	InputResponses map[string]any `json:"inputResponses,omitempty"` // tasks/update
}

// taskCallParams are tools/call's, with params.task (2025-11-25).
type taskCallParams struct {
	sdk.CallToolParams
	Task *struct{} `json:"task,omitempty"`
}

// rawResult is an answer kept as the server wrote it.
type rawResult struct {
	sdk.ResultBase
	raw json.RawMessage
}

func (r *rawResult) UnmarshalJSON(data []byte) error {
	r.raw = append(json.RawMessage(nil), data...)
	return nil
}

// askTaskKey, in a tools/call's context, says whether askTask adds
// params.task.
type askTaskKey struct{}

// askTask is the SDK's sending middleware that asks for a task in a
// tools/call of StartTool's (2025-11-25: params.task), which the SDK's
// CallToolParams cannot say.
func askTask(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		if ask, _ := ctx.Value(askTaskKey{}).(bool); ask && method == "tools/call" {
			cs, _ := req.GetSession().(*sdk.ClientSession)
			if p, ok := req.GetParams().(*sdk.CallToolParams); ok && p != nil && cs != nil {
				req = &sdk.ClientRequest[*taskCallParams]{Session: cs, Params: &taskCallParams{CallToolParams: *p, Task: &struct{}{}}}
			}
		}
		return next(ctx, method, req)
	}
}

// follow claims a task id for one caller; false when another follows it.
func (o *taskOffers) follow(id string) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	if _, ok := o.following[id]; ok {
		return false
	}
	o.following[id] = struct{}{}
	return true
}

func (o *taskOffers) unfollow(id string) {
	o.mu.Lock()
	delete(o.following, id)
	o.mu.Unlock()
}

// call sends one request of Deckhand's own and waits for its answer.
func (tc *taskConn) call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	data, err := json.Marshal(params)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	key := fmt.Sprintf("%s%d", ownPrefix, tc.seq.Add(1))
	id, err := jsonrpc.MakeID(key)
	if err != nil {
		return nil, err
	}
	ch := make(chan *jsonrpc.Response, 1)
	defer hold(&tc.mu, tc.pending, key, ch)()
	if err := tc.Write(ctx, &jsonrpc.Request{ID: id, Method: method, Params: data}); err != nil {
		return nil, err
	}
	select {
	case <-ctx.Done():
		// Tell the server we stopped waiting, as the SDK does.
		cancelled, _ := json.Marshal(map[string]any{"requestId": key, "reason": "cancelled"})
		_ = tc.Write(context.WithoutCancel(ctx), &jsonrpc.Request{Method: "notifications/cancelled", Params: cancelled})
		return nil, context.Cause(ctx)
	case resp := <-ch:
		if resp.Error != nil {
			return nil, resp.Error
		}
		return resp.Result, nil
	}
}
