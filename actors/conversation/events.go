package conversation

import (
	"encoding/json"
	"time"

	"deckhand/approval"
	"deckhand/policy"
	"deckhand/tools"
	"deckhand/transport/llm"
	"deckhand/transport/mcp"
)

// Events from a conversation, to its watchers. Every one names the
// conversation; all but ConversationOpened and RunQueued name the run.
type (
	// ConversationOpened is the first event of a conversation: new, or
	// resumed from the log.
	ConversationOpened struct {
		Conversation, Model string
		Resumed             bool
	}
	// PromptBuilt describes a request about to be sent (never its text).
	PromptBuilt struct {
		Conversation, Run string
		Messages          int // sent, after trimming
		Dropped           int // left out to fit the context budget
		Tools             int
		EstimatedTokens   int
	}
	// ToolCallRequested is a call the model asked for, before any check.
	ToolCallRequested struct {
		Conversation, Run, Call, Tool string
		Arguments                     json.RawMessage
		Origin                        string // "": the model's call; else who made it (ByHandOrigin)
	}
	// ApprovalDecided is the gate's decision on a call, however it was
	// reached: a rule, a grant, the person, or a timeout.
	ApprovalDecided struct {
		Conversation, Run, Call, Tool string
		Allowed                       bool
		Scope                         string // once, session, always, rule, grant (or "" when denied)
		By                            string // why: "auto_approve fs.*", "the person", "no answer within 2m"
	}
	// RunStarted begins a run with the person's message, answered by Model.
	// Attachments describe the files attached to it (their contents went
	// to the model, not here).
	// Parent is the run it follows in its branch ("": the first).
	RunStarted struct {
		Conversation, Run, Text, Model string
		Parent                         string
		// Continues is the run whose answer this one continues
		// (ContinueRun): Text is the instruction the model got, and
		// the person sees the answer go on in place.
		Continues   string
		Attachments []AttachmentInfo
	}
	// VersionChosen: the branch the conversation holds changed. Run is the
	// version the person chose ("" when the branch was cut back for a new
	// version by Edit or Retry, and after it began); Path is the runs now
	// held, in order; Versions the versions (runs, oldest first) of each
	// message that has more than one.
	VersionChosen struct {
		Conversation, Run string
		Path              []string
		Versions          map[string][]string
	}
	// AttachmentInfo is what is kept of an attachment: its name, media
	// type, size in bytes and SHA-256 (hex), never its bytes.
	AttachmentInfo struct {
		Name, Type string
		Size       int
		SHA256     string
	}
	// RunRemoved: a finished run was taken out of the conversation (see
	// RemoveRun); Text was its message.
	RunRemoved struct {
		Conversation, Run, Text string
	}
	RunQueued struct {
		Conversation, Text string
		Position           int
	}
	// AssistantDelta is streamed text (or reasoning) as it arrives.
	AssistantDelta struct {
		Conversation, Run, Text, Reasoning string
	}
	// AssistantMessage is one whole answer of the model; Incomplete when
	// the stream broke off. Usage is the request's, Estimated when the
	// server sent none.
	AssistantMessage struct {
		Conversation, Run, Text string
		ToolCalls               []llm.ToolCall
		Incomplete              bool
		Usage                   llm.Usage
		Estimated               bool
	}
	ToolCallStarted struct {
		Conversation, Run, Call, Tool string
		Arguments                     json.RawMessage
		Parallel                      bool   // runs together with other read-only calls
		Origin                        string // as ToolCallRequested's
	}
	ToolCallProgress struct {
		Conversation, Run, Call, Tool string
		Progress                      mcp.Progress
	}
	// ToolCallFinished says how a call ended; Output is what the model gets.
	ToolCallFinished struct {
		Conversation, Run, Call, Tool string
		Arguments                     json.RawMessage
		Output                        string
		IsError                       bool   // the tool failed, or could not be called
		Denied                        bool   // the gate or the person said no
		Refused                       bool   // never reached the gate: unknown tool, bad arguments, depth limit, the policy
		Cancelled                     bool   // the run was stopped before the call ended (Output says so)
		Origin                        string // as ToolCallRequested's
		Elapsed                       time.Duration
		// ServerElapsed is the part of Elapsed the call spent on the
		// server's connection, from its sending to its answer: what the
		// server and the transport took, where the rest is Deckhand's.
		// Zero when it never reached a server.
		ServerElapsed time.Duration
		// Structured is the result's structured content, for the log and
		// the tool's view (an MCP App; see viewcall.go): Deckhand's own
		// where it answered the call itself (tool_search, in the lazy tool
		// surface's shape), else the server's, secrets removed (nil over
		// MaxStructured); nil when none.
		Structured json.RawMessage
		// Meta is the result's _meta, for the log and the tool's view,
		// as Structured (secrets removed, nil over MaxStructured).
		Meta json.RawMessage
		// Media is the result's images and resource links, for the window
		// (the model and the log get Output alone); nil when none.
		Media *tools.Media
		// Cut is what the result limit cut of the result before the
		// model was given Output (the zero Cut: nothing), for a card to
		// say so plainly: Deckhand's own fact, where the marker in Output
		// could be a server's.
		Cut tools.Cut
	}
	// CapabilityDecided is one decision of the capability policy about a
	// call: a path it names, a command it would run.
	CapabilityDecided struct {
		Conversation, Run, Call, Tool string
		Decision                      policy.Decision
	}
	// ApprovalRequested asks a person about a call (Request) before
	// Deadline. Whoever answers (the window's dialog, on the UI
	// goroutine; the terminal) calls Reply: the run that asked waits for
	// it, and no actor stands between them.
	ApprovalRequested struct {
		Conversation, Run, ID string
		Request               approval.Request
		Deadline              time.Time
		// Reply answers the question; reason, if set, says why no person
		// answered ("--approve=auto"; for a deny, the model hears it), ""
		// is a person's answer. It never blocks and may be called from
		// any goroutine: an answer after the first (ErrAnsweredTwice) or
		// after the question closed (ErrQuestionClosed: timed out,
		// stopped) is dropped, and the error says so. ApprovalClosed
		// follows the answer that counted.
		Reply func(ans approval.Answer, reason approval.Reason) error
		// Position is which of its answer's Calls this call is (from 1):
		// the calls of one answer are asked about one after the other,
		// so the dialog says that more follow. Zero for a call made
		// alone (a view's).
		Position, Calls int
	}
	// ApprovalClosed ends an ApprovalRequested: answered (Reason
	// approval.Answered), timed out or cancelled with the run (Reason says
	// why; test it with IsAnswered, not as a string).
	ApprovalClosed struct {
		Conversation, ID string
		Answer           approval.Answer
		Reason           approval.Reason
	}
	// ToolsLoaded says which lazy tools a conversation gets the schemas of
	// from its next request on, and why: found by tool_search, or called by
	// name.
	ToolsLoaded struct {
		Conversation, Run string
		Tools             []string // alias.tool
		By                string   // "tool_search" or "called"
	}
	// ToolsUnloaded says which lazy tools a conversation no longer gets
	// the schemas of, from its next request on, and why: not called for
	// mcp.unload_after requests, or the conversation was compacted.
	ToolsUnloaded struct {
		Conversation, Run string
		Tools             []string // alias.tool
		Why               string
	}
	// ContextCompacted says the model's view of a conversation was
	// compacted: its first Turns turns (Before tokens with them, After
	// with the summary in their place, as estimated) are summarised by
	// Summary, which stands in for every turn before run From. The
	// person's transcript keeps them.
	ContextCompacted struct {
		Conversation, Run string
		Turns             int
		Before, After     int
		Summary, From     string
	}
	// ConversationFailed says a conversation hit an internal error (a bug)
	// and is gone: its run in flight failed with Err, and nothing after
	// what its log holds was kept. It can be reopened from the log.
	ConversationFailed struct {
		Conversation string
		Err          error
	}
	// ToolDefinitionChanged says a call's tool differs from its pinned
	// definition: the person is asked, whatever rules and grants say.
	ToolDefinitionChanged struct {
		Conversation, Run, Call, Tool string
		Change                        string // what changed, for people
	}
	// ModelSilent says the model has sent nothing for For while its
	// answer streams (llm.SilenceAfter, then every llm.SilenceEvery);
	// For 0: it sends again, or the request ended. Not logged.
	ModelSilent struct {
		Conversation, Run string
		For               time.Duration
	}
	// Notice is something the person should see: a retry, the depth limit.
	// Retry: the model request is tried again after Text's error; the
	// run's next notice (a retry again, or the failure) takes its place,
	// so that the error is said once; Try is the try it waits for (the
	// one a RetryNow names).
	Notice struct {
		Conversation, Run, Text string
		Retry                   bool
		Try                     int
	}
	// RetryStarted says the try a retry's Notice announced has gone (its
	// wait is over, or RetryNow cut it short): try Try of Tries; Stopped,
	// that it never will (the run was stopped while it waited). Text says
	// so, the notice's error with it, to take the notice's place, in the
	// window and in the log (a notice marked tried).
	RetryStarted struct {
		Conversation, Run string
		Try, Tries        int
		Stopped           bool
		Text              string
	}
	RunFinished struct {
		Conversation, Run string
		Text              string // the model's last answer
		Err               error
		Stopped           bool
		Usage             llm.Usage
		Estimated         bool // some usage was estimated
		CostUSD           float64
		Requests          int
	}
)
