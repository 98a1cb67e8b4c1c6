// Package find is the find bar of a chat (Ctrl+F): what is typed is
// looked for, ignoring case, in the chat's text and code blocks and its
// tool cards; the bar says "N of M", Enter and Shift+Enter step through
// the matches, Escape closes it. Matches are counted in each block's
// text and marked where the block drew them (Draw; a match split between
// two styles, as a word half in bold, is counted but not marked), the
// current one more strongly; a card holding one has its border marked
// (CardMark). A paragraph cut in rows is read as one
// text (GoesOn). Words found only in a version of a message not on show
// are asked of the log (Chat.FindElsewhere) and shown on Enter.
//
// State: the Finder holds the query and the matches; the rows, the list
// and its scrolling are the chat's (package chat's View, the bar's
// Chat), which tells the bar when its rows change (Refresh).
//
// Concurrency: everything here belongs to the UI goroutine.
package find
