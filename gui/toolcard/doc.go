// Package toolcard is a tool call's card in the chat: the tool, its
// arguments and how the call is going (waiting for approval, running with
// its progress, done, failed, denied or refused by policy), its result,
// the images and links the result holds, an image shown large over the
// window and saved (imageview.View), and the button that opens the
// tool's view (an MCP App, package appview). Its arguments and result are
// text of the chat's selection (Cards.Sel, package richtext: a drag runs
// on through a card), and its Copy copies the whole call (CallText).
//
// The chat (package chat) draws a card in a row of its list: it makes a
// window's Cards with the window as Host, a Card for each row view that
// shows a tool call (the card's Row), and hands the card each new version
// of its row (Card.Set). What the person does to a card (fold it, Show
// all) goes back through the Row, which redraws the row at its new
// height and tells the bridge. The card never sees the list, the bridge
// nor the actors.
//
// Files: card.go, the Cards and a Card; header.go, the card's title
// line (name, state and buttons apart at any width); end.go, the controls
// at the end of a long text (Show all, Show less, Copy all); media.go, the images (decoded
// off screen, a few bitmaps per window) and links; image.go, an image
// shown large and saved; host.go, the Host and the Row.
//
// Concurrency: everything here belongs to the UI goroutine, but for the
// decoding of images, which runs on goroutines of its own (two at a time
// per window) and comes back through Host.Post.
package toolcard
