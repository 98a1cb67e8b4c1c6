// Package mcp owns one connection to one MCP server, built on the official Go
// SDK's client: a child process over stdio, streamable HTTP (with JSON or SSE
// answers and Mcp-Session-Id), the legacy HTTP+SSE transport, and servers that
// answer every POST with plain JSON and close the connection (as lmcp does;
// their GET only announces the endpoint and closes).
//
// What this package adds to the SDK:
//
//   - "auto" for URLs: streamable HTTP first, then legacy SSE when the POST
//     is refused with a 4xx status, as the MCP spec's backwards-compatibility
//     section describes.
//   - Bearer auth through an [http.RoundTripper]; the token is redacted from
//     every error this package returns.
//   - Clear reasons when a connection fails or dies: the HTTP status and body,
//     the process's exit status and the lines of its stderr that say why
//     (its error lines before its last ones).
//   - Prompt failure: when a connection dies, every call in flight returns at
//     once with the reason (the SDK alone would let some wait for their
//     timeout), and [Conn.Done] is closed.
//   - Child processes in their own process group, killed with their children
//     on Close, and (on Linux) killed if Deckhand itself dies.
//   - Commands found on the login shell's PATH when they are not on ours.
//   - Its own JSON-RPC connections under the SDK's sessions for stdio and
//     in-process servers (wire.go): the SDK's stdio reader allocates 66 KB
//     to read one message, which set the tail of every tool round trip;
//     Deckhand's reads the same messages the same way with 1.2 KB, and an
//     in-process server gets the messages as values, changed as the wire
//     would change them.
//   - Tasks (tasks.go): a tools/call the server answers with a task is
//     followed to its result (tasks/get at the server's interval, clamped;
//     tasks/result; tasks/cancel when the caller gives up), for both the
//     2025-11-25 generation and the 2026-07-28 extension: over a wrapper
//     of the SDK's connection that carries requests the SDK does not know
//     (stdio, in-process and legacy SSE), or over streamable HTTP through
//     the SDK's session (custom methods, a sending middleware) with the
//     server's answers read under it, in the HTTP bodies (tap.go).
//
// Files: dial.go makes a connection (Dial: the transports, the handshake);
// conn.go is the live connection (its calls, the wrapper every message of
// a stdio, in-process or legacy SSE server passes through, its death);
// tasks.go follows a call the server makes a task of, and runs only for
// one.
//
// A Conn is safe for concurrent use: any number of calls may run at once.
package mcp
