// Package actors wires Deckhand's supervised actors (protoactor-go) into
// one tree and offers blocking helpers for terminal commands and tests.
// The tree, as [Start] builds it:
//
//	root
//	├── registry        builds the merged tool catalog and swaps it into the router (package actors/servers)
//	├── servers         supervisor: one-for-one, restart with backoff (package actors/servers)
//	│   └── <alias>         one per MCP server; owns one transport/mcp connection
//	├── conversations   supervisor of the open chats (package actors/conversation)
//	│   └── <conversation>  one chat: its queue of runs; each run is one goroutine that drives the tool loop
//	└── store           the only writer of the log (package actors/writer)
//
// What a panic (a bug) does, decided where each is spawned: a server's
// actor is restarted with backoff and connects again; a conversation fails
// its run visibly and stops (the log keeps it, to reopen), and so does a
// run's goroutine that panics; the registry, the two supervisors and the
// store resume (servers.Resume), dropping the message and keeping what
// they hold, which a restart would lose. Watchers are kept once per PID.
//
// The user actor (the window's bridge in package gui, or the terminal of
// `deckhand chat`) lives outside: it starts conversations, watches their
// events and answers their approval requests (each carries its own
// Reply), with the same messages either way.
//
// One tool call, end to end: the run's goroutine (package
// actors/conversation) resolves and checks the model's call, asks the gate
// (package approval) and, when it asks, waits for the person's answer,
// which the user actor gives straight to the run (ApprovalRequested.Reply:
// no actor between them); allowed, the run calls the router (package actors/servers),
// which runs the call on the server's live connection on the run's
// goroutine; every step is an event to the watchers, and the store actor
// (package actors/writer) writes them to the log.
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
//
// Who owns the state shared between actors: each is either owned by one
// actor, or an immutable value swapped whole (an atomic.Pointer to a value
// never changed once stored), so that no reader holds a lock:
//
//   - the router's catalog and routes (servers.Router): immutable, swapped
//     whole by the registry actor;
//   - a server's live connection: published by its server actor (it makes
//     it and ends it); the calls in flight on it are a set under a mutex,
//     shared by the calls' goroutines and the actor (left so);
//   - the pinned definitions (servers.Pins): immutable, swapped whole (by
//     server) by the registry and by the runs that accept a change, whose
//     writes a lock of their own serializes;
//   - the "always allow" grants (approval.Always, beside the gate that
//     reads them): immutable, swapped whole by a grant (a run) and by the
//     store actor, which loads and saves them;
//   - the secrets (redact.Set): immutable, swapped whole as they grow;
//   - the capability policy (System.policy) and its hooks: immutable,
//     swapped whole by UpdateConfig and OnPolicy;
//   - a conversation's history, grants and loaded tools: its actor's
//     between runs, its run's during one (package actors/conversation).
package actors
