package toolserver

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/tools"
)

// Await waits this long by default, and at most maxAwait.
const (
	defaultAwait = 60 * time.Second
	maxAwait     = 10 * time.Minute
)

var opID = &jsonschema.Schema{Type: "string", Pattern: `^op-[0-9]+-[0-9a-f]{6}$`, Description: "The operation id a call returned (op-3-1a2b3c)."}

// addOperationTools registers await, status and cancel.
func (s *Server) addOperationTools() {
	closed := &jsonschema.Schema{Not: &jsonschema.Schema{}}
	s.MCP.AddTool(&sdk.Tool{
		Name: "await",
		Description: "Wait for a background operation (a tool call that answered with an operation id) and return its result: " +
			"its output and how it ended. Waits at most timeout_seconds (default 60); if it is still running then, says so with " +
			"its output so far, and you may await again. The output comes as progress while you wait.",
		InputSchema: &jsonschema.Schema{Type: "object", Required: []string{"operation_id"}, AdditionalProperties: closed,
			Properties: map[string]*jsonschema.Schema{
				"operation_id": opID,
				"timeout_seconds": {Type: "integer", Minimum: jsonschema.Ptr(1.0), Maximum: jsonschema.Ptr(maxAwait.Seconds()),
					Description: "The longest to wait, in seconds (default 60, at most 600)."},
			}},
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: new(bool)},
	}, s.awaitTool)
	s.MCP.AddTool(&sdk.Tool{
		Name: "status",
		Description: "Background operations: without operation_id, every one kept (running, or ended in the last 30 minutes) " +
			"with its tool and state; with it, that one's state and its latest output.",
		InputSchema: &jsonschema.Schema{Type: "object", AdditionalProperties: closed,
			Properties: map[string]*jsonschema.Schema{"operation_id": opID}},
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: new(bool)},
	}, s.statusTool)
	s.MCP.AddTool(&sdk.Tool{
		Name:        "cancel",
		Description: "Stop a background operation: its command and everything it started are killed. Returns how it ended.",
		InputSchema: &jsonschema.Schema{Type: "object", Required: []string{"operation_id"}, AdditionalProperties: closed,
			Properties: map[string]*jsonschema.Schema{"operation_id": opID}},
		Annotations: &sdk.ToolAnnotations{DestructiveHint: new(bool), IdempotentHint: true, OpenWorldHint: new(bool)},
	}, s.cancelTool)
}

type opArgs struct {
	OperationID    string `json:"operation_id"`
	TimeoutSeconds int    `json:"timeout_seconds"`
}

func (s *Server) opOf(req *sdk.CallToolRequest, required bool) (*operation, opArgs, *sdk.CallToolResult) {
	var a opArgs
	if len(req.Params.Arguments) > 0 {
		if err := json.Unmarshal(req.Params.Arguments, &a); err != nil {
			return nil, a, errorResult("bad arguments: %v", err)
		}
	}
	if a.OperationID == "" {
		if required {
			return nil, a, errorResult("operation_id is required: the id a call returned (status lists them)")
		}
		return nil, a, nil
	}
	op := s.ops.get(a.OperationID, req.Session)
	if op == nil {
		return nil, a, errorResult("no operation %q here (status lists those kept; ended ones are kept 30 minutes)", a.OperationID)
	}
	return op, a, nil
}

func (s *Server) awaitTool(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	op, a, bad := s.opOf(req, true)
	if bad != nil {
		return bad, nil
	}
	limit := defaultAwait
	if a.TimeoutSeconds > 0 {
		limit = min(time.Duration(a.TimeoutSeconds)*time.Second, maxAwait)
	}
	return s.wait(ctx, req, op, false, limit), nil
}

func (s *Server) statusTool(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	op, _, bad := s.opOf(req, false)
	if bad != nil {
		return bad, nil
	}
	if op != nil {
		state, res, tail, written, ended := op.snapshot()
		var b strings.Builder
		fmt.Fprintf(&b, "%s (%s): %s\n$ %s\n", op.id, op.tool, state, op.display)
		if state == "running" {
			fmt.Fprintf(&b, "running for %v, %s of output so far\n", time.Since(op.started).Round(time.Second), tools.Size(int(written)))
			b.WriteString(strings.ToValidUTF8(tail, "\uFFFD"))
		} else {
			fmt.Fprintf(&b, "ended %v ago: %s\n", time.Since(ended).Round(time.Second), res.Status)
			b.WriteString(res.Text())
		}
		return textResult(b.String(), false), nil
	}
	list := s.ops.list(req.Session)
	if len(list) == 0 {
		return textResult("No operations.", false), nil
	}
	var b strings.Builder
	for _, op := range list {
		state, res, _, _, _ := op.snapshot()
		if state == "running" {
			fmt.Fprintf(&b, "%s  %s  running for %v  $ %s\n", op.id, op.tool, time.Since(op.started).Round(time.Second), op.display)
		} else {
			fmt.Fprintf(&b, "%s  %s  %s (%s)  $ %s\n", op.id, op.tool, state, res.Status, op.display)
		}
	}
	return textResult(b.String(), false), nil
}

func (s *Server) cancelTool(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	op, _, bad := s.opOf(req, true)
	if bad != nil {
		return bad, nil
	}
	op.cancel()
	select {
	case <-op.done:
		return s.result(op), nil
	case <-time.After(5 * time.Second):
		return errorResult("%s was told to stop and has not ended yet", op.id), nil
	case <-ctx.Done():
		return errorResult("cancel was cancelled; %s was told to stop", op.id), nil
	}
}
