// Package notice is a note from Deckhand in the chat's transcript, an
// error in the error colour, with the buttons its row's action asks for: Continue after Stop, Retry, Settings
// at the API key or the model's address or name, and Retry now while a
// run waits to ask the model again. Where the buttons would leave the
// text a narrow column, they go under it.
//
// Files:
//   - notice.go: the Notice, what its buttons do (Actions, the chat's),
//     and its layout (noticeLayout).
//
// State: a Notice holds what it shows of its row; what its buttons do is
// the chat's (package chat), handed to New.
//
// Concurrency: everything here belongs to the UI goroutine.
package notice
