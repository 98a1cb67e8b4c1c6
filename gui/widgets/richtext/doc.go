// Package richtext is text a person reads, selects, searches and copies
// in the chat's transcript, knowing nothing of Deckhand: Markdown shown
// as Fyne's rich text with its line breaks kept, its tasks as text and
// its images as links, never fetched (MarkdownSegments: Markdown is
// untrusted input, the model's), code with its tokens coloured
// (Highlight) in a box with its language and Copy (CodeBox), Markdown tables that scroll sideways only when they must
// (FitTables, TableBox), and over them a
// selection that runs across blocks and rows (MDText, SelText,
// Selection: a drag, a double click, Select all, Copy, and the primary
// selection a middle click pastes), the search of
// what a block drew (MDText.Find, FoldRunes, FindRunes), and a block that
// goes on on the last line of the one before (WithLead).
//
// Fyne's rich text cannot be selected; this package reads what its
// renderer laid out (MDText.Runs) to map the pointer to characters, to
// draw the highlight and a search's marks behind them, and to copy the
// selection as the text reads (a list's bullets, a task's box, a table's
// cells a tab apart).
//
// State: the window's one Selection is kept by its user (package chat
// holds it in its View) and told which blocks are on screen through its
// hooks (Shown, Blocks, Message); each SelText draws its part of it. A row
// may hold several blocks (a tool card's arguments and result), told apart
// by SelText.Part.
//
// Concurrency: like every Fyne widget, these are touched only on Fyne's
// goroutine.
package richtext
