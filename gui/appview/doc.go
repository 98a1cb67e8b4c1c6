// Package appview shows a tool's view (an MCP App, package apps) in a
// window of its own (the deckhand-view helper), opened from the tool's
// card in the chat and told the card's call: its arguments and result.
// What the view asks goes to the card's conversation: its tool calls
// through the gate (conversation.CallFromView, as ViewCall), the messages
// it proposes (Propose) and the links it would open, to the person first.
//
// The window (package gui) makes the Views and is their Host; the chat
// view's cards open them (package toolcard), and the bridge handles their
// messages and hands them its events (Hear: a call's end or cancel, a
// run taken out; CloseConversation: a chat deleted). A view opening is
// registered before its card is read again through the bridge (ReadCard),
// so a call ending meanwhile reaches it one way or both (its session
// tells it once). A view is told the window's theme when the settings
// change it.
//
// Files: views.go, the views open and what each asks; host.go, the Host
// and the messages to the bridge.
//
// Concurrency: Of and Open run on the UI goroutine, Hear and
// CloseConversation on the bridge's; each view runs on a
// goroutine of its own, which asks the person through Host.Post and the
// bridge through Host.Tell.
package appview
