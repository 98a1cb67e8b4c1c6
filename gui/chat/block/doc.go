// Package block is a message's text and code blocks as the chat draws
// them, a block a row of the transcript's list: a text block (Text:
// Markdown, or the person's words as typed, on a tint) and a code block
// (Code, a box with its language and Copy). A paragraph or a code block
// longer than a row's 2 KiB (transcript.MaxBlock), cut in rows, is drawn
// on from row to row as one: a code block as one box whose first row's
// Copy copies the whole (WholeCode); a paragraph's rows wrap as one text,
// each going on on the last line of the one before (Flow, Leads).
//
// Files:
//   - row.go: the Row a block is drawn in (package chat's row view), and
//     the indent under a message's header (Inset, Indented).
//   - text.go: the text block, drawn up over the row before's last line
//     when it goes on from it (goOn, Pull), and a row's segments.
//   - code.go: the code block, and a cut block's text whole.
//   - flow.go: how a paragraph's rows flow (Flow), and the widths of the
//     blanks they begin with, as laid out (Leads).
//
// State: a block holds what it shows of its row; the rows, the list and
// the selection are the chat's (package chat's View), reached through
// Row. Leads is the View's, which clears it when the width, the text
// size or the conversation changes.
//
// Concurrency: everything here belongs to the UI goroutine.
package block
