// Package actors holds Deckhand's supervised actors (protoactor-go) and the
// messages between them. The tree, as [Start] builds it:
//
//	root
//	├── registry        builds the merged tool catalog and swaps it into the router
//	├── servers         supervisor: one-for-one, restart with backoff
//	│   └── <alias>         one per MCP server; owns one transport/mcp connection
//	├── conversations   supervisor of the open chats
//	│   └── <conversation>  the tool loop of one chat (conversation*.go)
//	│       └── stream      one model request, streaming (one at a time)
//	└── store           the only writer of the log (with one writer goroutine)
//
// The user actor (the window's bridge, or the terminal of `deckhand chat`)
// lives outside this package: it starts conversations, watches their events
// and answers their approval requests, with the same messages either way.
//
// One tool call, end to end: the stream actor reports the model's answer
// (streamText as it arrives, streamDone with the whole turn); the
// conversation resolves each call against the catalog it offered and checks
// its arguments (package toolcall), asks the gate (package approval), and,
// when no rule or grant allows the call, emits ApprovalRequested and waits
// for an ApprovalAnswer (or its timeout). An allowed call goes to the
// router (package servers: the catalog as an immutable value swapped atomically,
// no actor on the way) as CallTool carrying the exact definition that was
// checked and shown; the router refuses it if the server has redefined the
// tool since, else runs it on the server's live connection in a
// worker goroutine (package servers), with the model's argument bytes unchanged and the run's
// context (Stop cancels it), answering the conversation directly with
// ToolProgress and a ToolResult. Only a call that must wait for its server's
// connection goes to the server's actor. The result,
// rendered and capped (toolcall.Output), goes back to the model in the next
// request, built by package request. Every step is an event to the watchers;
// the store actor turns them into rows of the log.
//
// Receive never blocks: connecting, listing, calling, requesting the model
// and writing the log run in goroutines that report back to their actor by
// message, tagged with a generation, sequence or call id so that late
// answers (from a previous connection, a stopped run) are recognised and
// dropped. Expected failures (a server that will not start, a connection
// that dies, a tool that errs, a model that refuses) are messages and
// states, never panics. A conversation that panics anyway (a bug) fails
// visibly: its run fails, its watchers get ConversationFailed, and it stops;
// the log keeps everything recorded before, to reopen it from.
//
// [System] starts the actors and offers blocking helpers for terminal
// commands and tests; the window and the conversation actors talk to the
// same PIDs with the same messages.
package actors
