// Package composer is where a person writes: the message box (Enter
// sends, a paste too long for it offered as an attached file), the model
// picker (the current conversation's model, from its next message on),
// the files and servers' resources attached to the next message, as chips
// above the box (a resource kept up to date while it waits there), and
// the servers' prompts as slash commands.
//
// The window (package gui) is its Host: the composer reads the config and
// asks the servers through it, and tells the bridge the model chosen
// (SetModel, through Host.Tell); the window tells it which conversation
// and model to show (ShowModel), takes what is ready to send (Ready,
// Clear) and hands it a resource's updates (ResourceUpdated). Sending
// itself is the window's: it has the conversation.
//
// Files:
//   - composer.go: the Composer, the model picker and the attached files
//     (picker.go: the picker's widget, which says when it is opened);
//     attach.go: limits and names of attachments; paste.go: a paste too
//     long for the message box; resources.go: attached resources and
//     their updates.
//   - prompts.go: servers' prompts as slash commands.
//   - layout.go: the message box with its buttons beside it, or under it
//     in a narrow window.
//   - host.go: the Host.
//
// Concurrency: everything here belongs to the UI goroutine; files,
// resources, prompts and the model server's list are read on goroutines
// of their own and come back through Host.Post.
package composer
