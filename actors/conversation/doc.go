// Package conversation owns the tool loop of one chat: one actor per open
// conversation (conversation*.go) under a one-for-one supervisor
// (conversations.go, started by [Spawn]), each with at most one stream
// actor (stream.go) running one model request at a time. It keeps the
// chat's history (history.go rebuilds it from the log), checks attachments
// (attach.go; prompts.go and resources_attach.go turn a server's prompt or
// resource into a message), and runs the CMD: route (shell.go).
//
// One tool call: the stream actor reports the model's answer (streamText
// as it arrives, streamDone with the whole turn); the conversation resolves
// each call against the catalog it offered and checks its arguments
// (package toolcall), asks the gate (package approval), and, when no rule
// or grant allows the call, emits ApprovalRequested and waits for an
// ApprovalAnswer (or its timeout). An allowed call goes to the router
// (package servers) as servers.CallTool carrying the exact definition that
// was checked and shown, with the run's context (Stop cancels it); the
// ToolProgress and ToolResult come back to the conversation directly. The
// result, rendered and capped (toolcall.Output), goes back to the model in
// the next request, built by package request. Every step is an event
// (conversation_events.go) to the watchers: the user actor and the store
// actor, which writes the log.
//
// Receive never blocks: requesting the model and running commands happen
// in goroutines that report back by message, tagged with a run or call id
// so that late answers (from a stopped run) are recognised and dropped.
// Expected failures (a tool that errs, a model that refuses) are messages
// and states, never panics. A conversation that panics anyway (a bug) fails
// visibly: its run fails, its watchers get ConversationFailed, and it stops;
// the log keeps everything recorded before, to reopen it from.
package conversation
