// Package dialogs is what asks the person in a dialog: tool calls to
// approve (approval.go, with their arguments) and servers'
// questions (MCP elicitation: forms, and pages to open; elicit.go, its
// fields as the keyboard and the wheel meet them in formfields.go), in
// one queue that shows one dialog at a time in arrival order, whatever
// its kind (modal.go), with desktop notifications while Deckhand is not
// in front, withdrawn once answered (notes.go).
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
