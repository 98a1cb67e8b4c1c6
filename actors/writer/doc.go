// Package writer is the only writer of the log (package store) in this
// process: the store actor ([Spawn]) watches every conversation and the
// servers supervisor, turns their events into rows, coalesces streamed
// text, removes secrets, and hands batches to one writer goroutine, so
// that recording never holds up a conversation. It also keeps the "always
// allow" grants of the log in memory ([Always]), for the gate to read
// without waiting for the disk; they change by message (a grant, a
// RevokeGrant) and are read back from the log at each run start, for what
// another Deckhand process sharing it changed: nothing polls. Who owns
// their state: nobody holds it under a lock; it is an immutable value
// swapped whole on each change (see Always), read by the runs' gate.
//
// Receive never blocks: writing and reading the grants back run in
// goroutines that report by message. SyncLog is answered once what came
// before it is on disk. While the log cannot be written, rows wait in
// memory (bounded) and watchers get LogFailed, then LogRecovered.
//
// It is a package of its own, not part of store, because it reads the
// messages of packages conversation and servers, which import store.
package writer
