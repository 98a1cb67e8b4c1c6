// Package gui is Deckhand's window: the chat with its sessions sidebar, tool
// cards and status line, the approval dialog, the servers panel, the
// settings, the tray menu and the quick prompt. It is the only package that
// imports Fyne; the app itself is made in cmd/deckhand (so that this
// package's tests run headless on Fyne's test driver).
//
// Concurrency: the window is a user actor, split in two. The bridge is a
// protoactor actor that receives the conversations', servers' and
// registry's events and keeps the view state (one transcript.Transcript per
// open conversation, server states, the approval queue). Once per frame at
// most, it hands what changed to the UI goroutine in a single fyne.Do: a
// streamed answer of a thousand deltas costs one widget update per frame,
// not one per token. Widgets are touched only on the UI goroutine (Fyne's
// callbacks and those fyne.Do calls); the UI never reads actor state, it
// sends the bridge messages.
//
// Files: the bridge actor's messages, state and Receive are in bridge.go;
// what it does with conversations in conversations.go, with the sidebar in
// sidebar.go (rename, delete and search: sidebar_manage.go and
// sidebar_bridge.go), and the frame it hands the window in frame.go. The
// window is ui.go; its message box, model picker and attachments are
// input.go and composer*.go. The transcript's list is chatview.go (row
// heights estimated in estimate.go, the wheel in wheel.go), drawn by
// rowview.go's rows with the parts of rowparts.go and toolcard.go (images
// and links: toolcard_image.go, toolcard_media.go). Text selection is
// selecttext.go, code highlighting highlight.go, the message controls
// (retry, edit, delete, continue) runactions.go. The servers panel is
// servers.go, connect.go and servers_*.go; settings and the first-run
// panel settings*.go; approvals approval.go; the quick prompt quick*.go;
// captions and the app's look theme.go; the secondary windows' keys
// windows.go.
package gui
