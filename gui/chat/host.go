package chat

import (
	"net/url"

	"fyne.io/fyne/v2"
)

// Host is the window the chat is shown in (package gui's UI). The chat
// reaches the bridge and the UI goroutine only through it; its methods
// are called on the UI goroutine, but for Post and Tell.
type Host interface {
	// App is the Fyne app (its clipboard and settings).
	App() fyne.App
	// Window is the main window.
	Window() fyne.Window
	// Post runs f on the UI goroutine.
	Post(f func())
	// Tell sends the bridge a message (the types below, and a tool's
	// view's: package appview).
	Tell(msg any)
	// ShowError tells the person of a problem.
	ShowError(msg string)
	// ShowInfo tells the person something done as they asked (a file
	// saved).
	ShowInfo(msg string)
	// OpenURL opens a link in the browser.
	OpenURL(link *url.URL) error
	// KeepFocus notes where the keyboard is before a dialog takes it; the
	// function returned puts it back.
	KeepFocus() func()
	// FocusInput gives the message box the keyboard.
	FocusInput()
	// Shortcut is the window's Ctrl (Cmd) shortcut on key, or nil.
	Shortcut(key fyne.KeyName) func()
	// ShowKeySettings opens the settings at the API key.
	ShowKeySettings()
	// ShowModelSettings opens the settings at the model's address
	// (transcript.ActionAddress) or name (transcript.ActionModel).
	ShowModelSettings(at string)
	// ServerReady reports whether server alias is connected.
	ServerReady(alias string) bool
	// AttachResource attaches a server's resource to the next message.
	AttachResource(alias, uri string)
	// AnswerCall brings up a waiting call's approval (package toolcard).
	AnswerCall(conv, call string)
	// ResultFile is where a cut result is kept whole (package toolcard).
	ResultFile(conv, run, call string) string
}

// Action is what a message control asks of a run.
type Action string

// Run actions.
const (
	Retry    Action = "retry"
	Remove   Action = "remove" // Delete
	Continue Action = "continue"
	Choose   Action = "choose"    // ‹ or ›: Run is the version to show
	Edit     Action = "edit"      // Text is the message as edited
	RetryNow Action = "retry now" // Run waits to ask the model again: the try goes at once
)

// Messages to the bridge, through Host.Tell.
type (
	// Expand shows a card's arguments and result whole (or previewed):
	// the bridge keeps it in the transcript, for when the conversation is
	// shown again.
	Expand struct {
		Conv     string
		Row      int
		Expanded bool
	}
	// Collapse folds a card to its header (or opens it), kept the same
	// way.
	Collapse struct {
		Conv      string
		Row       int
		Collapsed bool
	}
	// FindElsewhere asks which other version of a message of Conv holds
	// Query as typed, which the find bar found nowhere in the versions
	// shown (the runs Shown); the bridge answers with find.Finder.Elsewhere.
	FindElsewhere struct {
		Conv  string
		Query string
		Shown []string
	}
	// RunAction acts on a run of the current conversation (Run "": the
	// last).
	RunAction struct {
		Action Action
		Run    string
		Text   string
		Try    int // RetryNow: the try the notice announced
	}
)
