// Package toolserver is Deckhand's built-in tools server: command-line
// programs offered as MCP tools, from declarative JSON definition files
// (MTDF; SchemaJSON is their JSON Schema). It owns the definitions
// (parsing and checking them, the built-in ones embedded, a person's in a
// folder that Watch follows), the argv built from a call's arguments
// (separate elements, never a shell line unless a definition says so), the
// one executor every command Deckhand runs for a model goes through
// (Runner: sandboxed, minimal environment, output capped, killed with
// everything it started on cancel or timeout), and the background
// operations (await, status, cancel) of calls that outlast the inline
// wait. The window and `deckhand chat` connect a Server in-process as the
// server "local"; `deckhand tools serve` offers it over stdio or loopback
// HTTP (Listen, Token).
//
// Concurrency: a Server is safe for concurrent use: its tools' handlers run
// on the MCP SDK's goroutines, any number at once, while Watch (on a
// goroutine of the caller's) or Reload swaps the definitions under a lock;
// a call already running keeps the definition it started with. OnReload's
// callbacks run on the goroutine that reloaded, after the swap, and must
// not block. A Runner is safe for concurrent use. Definitions, Files and
// a Catalog are values, not changed once built.
package toolserver
