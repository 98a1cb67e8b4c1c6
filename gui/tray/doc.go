// Package tray is Deckhand's tray menu (Show Deckhand, Quick prompt…,
// Quit) and the quick prompt it opens: a small window with one line to
// ask, the answer streaming below with a line for each tool call, in a
// session of its own, a retry's notice and Retry now while its run waits to
// ask the model again. The window (package gui) is its Host: it sends the
// question to the bridge, and hands the answer back once per frame as an
// Update, made on the bridge's goroutine by Calls and the bridge's state.
//
// Concurrency: a Prompt belongs to the UI goroutine; Calls runs on the
// bridge's, reading only the transcript it is given.
package tray
