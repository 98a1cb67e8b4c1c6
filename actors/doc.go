// Package actors holds Deckhand's supervised actors (protoactor-go) and the
// messages between them:
//
//	root
//	├── servers        supervisor: one-for-one, restart with backoff
//	│   └── <alias>        one per MCP server; owns one transport/mcp connection
//	└── registry       the merged tool catalog; resolves and routes tool calls
//
// Receive never blocks: connecting, listing and calling run in goroutines
// that report back to their actor by message, tagged with a generation or
// call id so that late answers from a previous connection are recognised and
// dropped. Expected failures (a server that will not start, a connection
// that dies, a tool that errs) are messages and states, never panics.
//
// [System] starts the actors and offers blocking helpers for terminal
// commands and tests; the window and the conversation actors talk to the
// same PIDs with the same messages.
package actors
