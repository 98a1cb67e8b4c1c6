// Package chat is the chat as a person reads it: the transcript of one
// conversation in a virtualized list (only the rows on screen have
// widgets), its messages with their controls (copy, Retry, Edit, Delete,
// Continue, the versions ‹ ›, an answer's model, tokens and speed on
// hover, Retry now on the notice of a run waiting to ask the model
// again: package notice), its text and code blocks (package block), the
// tool calls' rows (their cards: package toolcard), the find
// bar (Ctrl+F: package find) and the selection of text across messages
// (package richtext's Selection, which the View holds).
//
// The window (package gui) is its Host, and owns the tools' views the
// cards open (appview.Views, handed to New and on to the cards): it hands
// the View the rows the bridge's frame brought (Reset, Update,
// SetRunning) and passes the chat's messages on to the bridge (Expand,
// Collapse, RunAction, through Host.Tell). The chat is the cards' Host in
// turn (the window's, passed on). The chat never sees the bridge nor the
// conversations' actors.
//
// Files:
//   - view.go: the View and its list;
//     recycle.go: which row views it keeps (those near the screen, never
//     those the list let go); estimate.go: row heights guessed before a
//     row is measured; wheel.go: the mouse wheel over the transcript;
//     pagekeys.go: Page Up and Down, the start and the end, for the
//     window's keys;
//     tabedge.go: Tab's stops before and after the list, which take the
//     keyboard on through the rows out of view.
//   - row.go: one row, of any kind: a message's text and code blocks
//     (package block: a paragraph or code block longer than a row's
//     2 KiB, cut in rows, is drawn on from row to row as one, and find
//     and copy read its rows as one text), a note from Deckhand (package
//     notice); rowparts.go: a message's header (with an answer's model,
//     tokens and speed, on hover). flow.go: the widths a paragraph's
//     rows go on after, kept by the View (block.Leads).
//   - card.go: a tool call's row, its card (package toolcard) indented
//     under its message; the row as the card's Row (folded, Show all).
//   - find.go: the View as the find bar's Chat (package find): its
//     rows, scrolling a match into view, the versions of a message.
//   - runactions.go: retry, edit, delete, continue and the versions of a
//     message; retry now.
//   - host.go: the Host and the messages to the bridge.
//
// Concurrency: everything here belongs to the UI goroutine; the cards'
// images decode and a tool view's helper runs on goroutines of their own,
// which come back through Host.Post.
package chat
