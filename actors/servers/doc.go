// Package servers owns Deckhand's MCP servers: one actor per server, their
// supervisor, the registry that merges what they list into the tool
// catalog, and the router that sends each call to its server.
//
//	servers        supervisor (servers.go): one-for-one, restart with backoff;
//	│              lists, adds and removes servers, relays elicitations
//	└── <alias>    one per server (server*.go, signin.go, egress.go,
//	               resources.go); owns one transport/mcp connection
//	registry       builds the merged catalog (registry.go) and swaps it into
//	               the Router; pins tool definitions and keeps which
//	               quarantined ones the person has released (Pins, router.go):
//	               a tool with a high-risk flag (tools.Flag) is left out
//	               of what the model is offered, as a disabled one is,
//	               until then
//
// The router (router.go) holds the catalog as an immutable value swapped
// atomically: a call ([Router.Call], from a conversation's run or a
// command; CallTool sent to the registry) is resolved against it without
// passing through an actor, refused if the server has redefined the tool
// since the caller checked it, else run on the server's live connection
// (line.go): on the caller's goroutine for Router.Call, in a worker
// goroutine (workers.go) for a CallTool message, which is answered with
// ToolProgress and a ToolResult. Only a call that must wait for its
// server's connection goes to the server's actor.
//
// Who owns its state: each server actor owns its connection and publishes
// it (serverLine) for calls; the calls in flight on it are a set under a
// mutex, shared by the calls and the actor, which fails them all when the
// connection dies. The registry actor owns the catalog and swaps it whole
// into the Router (immutable once stored); it owns the tools.Builder that
// makes each new catalog from the last by the one server that changed.
// Pins is an immutable book swapped whole: readers (the gate and the run,
// on every call) load it with no lock; its writers, the registry (first
// definitions, reviews) and conversations and the client (a change the
// person accepted), are serialized by a lock of their own and each swaps
// in a new book that copies only the part of the one server it changed,
// before it returns.
//
// Receive never blocks: connecting, listing, calling and signing in run in
// goroutines that report back to their actor by message, tagged with a
// connection generation or call id so that late answers (from a previous
// connection) are recognised and dropped. Every actor here has a mailbox of
// its own: a sender never runs its work (a rebuild of the catalog, say),
// and a sender that must see what it sent applied asks the same actor
// something after it (mailboxes are first in, first out).
// Expected failures (a server that will not start, a connection that dies,
// a tool that errs) are states and results, never panics. Router, Pins
// and the messages' answers are safe for concurrent use.
//
// The messages are the package's API: commands (CallTool, AddServer,
// SignIn, GetPrompt, ...) and events (ServerStatus, CatalogChanged,
// ElicitationRequested, ...), sent as pointers and never changed after.
package servers
