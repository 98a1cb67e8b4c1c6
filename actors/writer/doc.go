// Package writer is the only writer of the log (package store) in this
// process: the store actor ([Spawn]) watches every conversation and the
// servers supervisor, turns their events into rows, coalesces streamed
// text, removes secrets, and hands batches to one writer goroutine, so
// that recording never holds up a conversation. It also keeps the "always
// allow" grants (approval.Always, the gate's) in step with the log: it
// reads them in at start and at each run start, for what another Deckhand
// process sharing the log changed (nothing polls), writes each grant given
// (SaveGrant) and each revocation (RevokeGrant, which it makes count at
// once), and tells the grants when either is on disk. It owns none of
// their state: they are an immutable value swapped whole, read by the
// runs' gate.
//
// Receive never blocks: writing and reading the grants back run in
// goroutines that report by message. SyncLog is answered once what came
// before it is on disk. While the log cannot be written, rows wait in
// memory (bounded) and watchers get LogFailed, then LogRecovered.
//
// It is a package of its own, not part of store, because it reads the
// messages of packages conversation and servers, which import store.
package writer
