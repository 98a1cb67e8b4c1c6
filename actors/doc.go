// Package actors wires Deckhand's supervised actors (protoactor-go) into
// one tree and offers blocking helpers for terminal commands and tests.
// The tree, as [Start] builds it:
//
//	root
//	├── registry        builds the merged tool catalog and swaps it into the router (package actors/servers)
//	├── servers         supervisor: one-for-one, restart with backoff (package actors/servers)
//	│   └── <alias>         one per MCP server; owns one transport/mcp connection
//	├── conversations   supervisor of the open chats (package actors/conversation)
//	│   └── <conversation>  the tool loop of one chat
//	│       └── stream      one model request, streaming (one at a time)
//	└── store           the only writer of the log (package actors/writer)
//
// What a panic (a bug) does, decided where each is spawned: a server's
// actor is restarted with backoff and connects again; a conversation fails
// its run visibly and stops (the log keeps it, to reopen), its stream ends
// the request with the error; the registry, the two supervisors and the
// store resume (servers.Resume), dropping the message and keeping what
// they hold, which a restart would lose. Watchers are kept once per PID.
//
// The user actor (the window's bridge in package gui, or the terminal of
// `deckhand chat`) lives outside: it starts conversations, watches their
// events and answers their approval requests, with the same messages
// either way.
//
// One tool call, end to end: the conversation (package actors/conversation)
// resolves and checks the model's call, asks the gate (package approval)
// and, allowed, sends servers.CallTool to the router (package actors/servers),
// which runs it on the server's live connection and answers the
// conversation directly; every step is an event to the watchers, and the
// store actor (package actors/writer) writes them to the log.
//
// Each package's doc says what its actors own and guarantee; across all of
// them, Receive never blocks and expected failures are messages and
// states, never panics.
//
// [System] holds the PIDs of the long-lived actors; its methods (client.go,
// servers.go, grants.go) send the same messages the window sends and wait
// for the answer within a context. They block, so they are for terminal
// commands and tests, never for an actor's Receive. Package actors keeps no
// state of its own besides what System holds: the shared secrets, pins,
// router and policy, built once by Start and handed down.
package actors
