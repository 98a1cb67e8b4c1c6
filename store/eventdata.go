package store

import (
	"encoding/json"
	"fmt"
)

// EventData is what an event's Data may hold, for readers of the log (the
// timeline, resuming a conversation, reopening it in the window). Each kind
// fills its own fields; the rest stay zero.
type EventData struct {
	Text string `json:"text"`
	// Parent is the run a run.started follows in its branch ("": the
	// first); nil in logs written before messages had versions.
	Parent *string `json:"parent"`
	// Continues is the run a run.started continues the answer of
	// (Continue): its text is the instruction the model got, not shown.
	Continues  string          `json:"continues"`
	Model      string          `json:"model"`
	Call       string          `json:"call"`
	Tool       string          `json:"tool"`
	Arguments  json.RawMessage `json:"arguments"`
	Output     string          `json:"output"`
	Error      string          `json:"error"`
	By         string          `json:"by"`
	Scope      string          `json:"scope"`
	Denied     bool            `json:"denied"`
	Incomplete bool            `json:"incomplete"`
	Estimated  bool            `json:"estimated"`
	ElapsedMS  int64           `json:"elapsed_ms"`
	Refused    bool            `json:"refused"` // tool.failed: before the gate (unknown tool, bad arguments, the policy)
	// Cancelled: tool.failed of a call the person's Stop ended; absent
	// (false) in logs written before it was recorded.
	Cancelled bool `json:"cancelled"`
	// CutKept and CutWhole: a tool.succeeded or tool.failed's result was
	// cut by the result limit before the model saw it, to CutKept bytes
	// of CutWhole; absent when it was not (or before it was recorded).
	CutKept  int `json:"cut_kept"`
	CutWhole int `json:"cut_whole"`
	// CutSaved: the whole result was kept for the person, beside the
	// log (KeepResult).
	CutSaved bool `json:"cut_saved"`
	// Images are a tool.succeeded's images, each with the SHA-256 of its
	// file beside the log when kept (KeepImage); absent when none.
	Images []LoggedImage `json:"images"`
	// Retry: a notice that the model request is tried again. Tried: a
	// retry's notice saying that the try it announced went (when), which
	// takes the announcement's place.
	Retry bool `json:"retry"`
	Tried bool `json:"tried"`
	// Structured is a tool.succeeded or tool.failed's structured content
	// (the result's, for the tool's view); absent when none.
	Structured json.RawMessage `json:"structured"`
	// Meta is a tool.succeeded or tool.failed's result's _meta (for the
	// tool's view); absent when none.
	Meta json.RawMessage `json:"meta"`
	// Origin says who made a call when not the model: "the view of
	// server.tool", "by hand"; absent for the model's.
	Origin string `json:"origin"`

	// capability.granted and capability.denied
	Capability string `json:"capability"`
	Target     string `json:"target"`
	Rule       string `json:"rule"`

	Messages        int `json:"messages"`
	Dropped         int `json:"dropped"`
	Tools           int `json:"tools"`
	EstimatedTokens int `json:"estimated_tokens"`

	Requests     int     `json:"requests"`
	InputTokens  int     `json:"input_tokens"`
	OutputTokens int     `json:"output_tokens"`
	CostUSD      float64 `json:"cost_usd"`
	Usage        struct {
		InputTokens  int `json:"input_tokens"`
		OutputTokens int `json:"output_tokens"`
	} `json:"usage"`
	Loaded   []string `json:"loaded"`   // tools.loaded
	Unloaded []string `json:"unloaded"` // tools.unloaded (Reason says why)

	// context.compacted
	Turns        int    `json:"turns"`
	TokensBefore int    `json:"tokens_before"`
	TokensAfter  int    `json:"tokens_after"`
	Summary      string `json:"summary"`
	From         string `json:"from"`

	// elicitation.asked and elicitation.answered
	Server  string   `json:"server"`
	Mode    string   `json:"mode"`
	Message string   `json:"message"`
	Host    string   `json:"host"`
	Action  string   `json:"action"`
	Reason  string   `json:"reason"`
	Fields  []string `json:"fields"`
	// tool.task
	Task      string `json:"task"`
	Status    string `json:"status"`
	ToolCalls []struct {
		ID        string `json:"id"`
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"tool_calls"`
}

// Decode reads an event's Data.
func (e Event) Decode() (EventData, error) {
	var d EventData
	err := json.Unmarshal(e.Data, &d)
	return d, err
}

// Count is a count of tokens for people: 950, 1.2k, 34k, 1.5M.
func Count(n int) string {
	switch {
	case n >= 1_000_000:
		return fmt.Sprintf("%.1fM", float64(n)/1e6)
	case n >= 10_000:
		return fmt.Sprintf("%.0fk", float64(n)/1e3)
	case n >= 1_000:
		return fmt.Sprintf("%.1fk", float64(n)/1e3)
	}
	return fmt.Sprint(n)
}
