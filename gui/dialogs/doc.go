// Package dialogs is what asks the person in a dialog: tool calls to
// approve (with their arguments) and servers' questions (MCP
// elicitation: forms, and pages to open), in one queue that shows one
// dialog at a time in arrival order, whatever its kind, with desktop
// notifications while Deckhand is not in front, withdrawn once answered.
// A question's form is its subpackage form.
//
// Files:
//   - dialogs.go: the Dialogs, their Host, and the messages to the bridge.
//   - modal.go: the one queue, one dialog at a time, of either kind.
//   - approval.go: a tool call to approve, with its arguments.
//   - elicit.go: a server's question: its form (package form) or the
//     page it asks to open, and its answers.
//   - form.go: a question's form for other screens (Form: the servers
//     panel's Run).
//   - notes.go: the desktop notifications, withdrawn once answered.
//
// The window (package gui) is the Host: it hands in the bridge's list of
// approvals once per frame (Approvals.Set) and each question as it comes
// (Questions.Add). An approval's answer goes from the UI goroutine
// straight to the run that asked, through the request's own Reply (which
// never blocks); the bridge hears of it from the run (ApprovalClosed). A
// question's answer goes to the bridge (QuestionAnswer, through Host.Tell),
// which passes it to the server's actor.
//
// Concurrency: everything here belongs to the UI goroutine, but for the
// notifications' bus, which a goroutine of its own talks to; a choice made
// in a notification comes back through Host.Post.
package dialogs
