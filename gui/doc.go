// Package gui is Deckhand's window: the chat with its sessions sidebar, tool
// cards and status line, the message box, the dialogs that ask the person
// (approvals and servers' questions), the servers panel, the settings, the
// tray menu and the quick prompt.
//
// Fyne: only gui/... imports it. The Fyne app itself (its driver needs cgo
// and a display) is made in gui/desktop, so that this package's tests run
// headless on Fyne's test driver; cmd/deckhand hands it to New.
// (testutil/barewindow, a bare Fyne window, is the memory benchmark's
// baseline, not part of Deckhand.)
//
// Concurrency: the window is a user actor, split in two.
//
//   - The bridge is a protoactor actor. It receives the conversations',
//     servers' and registry's events and owns the state they make: one
//     transcript.Transcript per open conversation, the server states, the
//     approvals waiting, the sessions list. That state lives in the bridge
//     alone, touched only in its Receive; the UI never reads it.
//   - The UI is everything on Fyne's goroutine (its callbacks and fyne.Do
//     calls). Widgets are touched only there. It holds copies made for it
//     (the rows on screen, the servers as last told) and asks the bridge for
//     anything else by message (UI.tell); replies come back through
//     UI.post. One answer skips the bridge: a tool call's approval, which
//     gui/dialogs gives the waiting run itself, through the request's
//     Reply (safe from any goroutine, never blocking); the bridge hears of
//     it from the run's ApprovalClosed.
//
// Once per frame at most, the bridge hands what changed to the UI in a
// single fyne.Do (bridge.go's flush): a streamed answer of a thousand deltas costs
// one widget update per frame, not one per token. Rare events (a server's
// questions) are posted at once.
//
// Subpackages, found by what a person sees:
//   - chat: the transcript of the conversation shown, its messages and
//     their controls; chat/block: a message's text and code blocks, a
//     long one drawn on from row to row as one; chat/notice: Deckhand's
//     notes in it, with their buttons; chat/find: the find bar (Ctrl+F).
//   - toolcard: a tool call's card in the chat: its arguments, progress
//     and result, its images (shown large, saved) and links, Open view.
//   - appview: a tool's view (an MCP App) in a window of its own, opened
//     from its card, and what it asks of Deckhand.
//   - composer: the message box, the model picker, the files and
//     resources attached to the next message, servers' prompts as slash
//     commands.
//   - dialogs: the dialogs that ask the person, in one queue: tool calls
//     to approve, servers' questions (elicitation), and their desktop
//     notifications while Deckhand is not in front; dialogs/form: a
//     question's form, built from its schema.
//   - settings: the settings window: the model and its API key (in the
//     keyring), answers and look, the Permissions page (grants, rules,
//     policy) and Advanced.
//   - sidebar: the sessions sidebar: New chat, the search, the list with
//     each row's menu (pin, export, rename, delete) and keys.
//   - servers: the servers panel: the servers' states, a server's tools
//     (enable, pins, Run by hand), signing in, a server's resources;
//     servers/connect: the form that adds or edits a server (tried
//     before it is saved).
//   - setup: the first-run panel (a model to choose), in an empty chat's
//     place, its short notice above the message box under a chat with
//     messages, and the window shown when the config cannot be read.
//   - tray: the tray menu and the quick prompt's window, with its
//     one-line tool activity.
//   - widgets: widgets that know nothing of Deckhand: form pages under
//     the wheel, captions, the dialogs' ringed buttons and keys, the
//     windows' keys, the message box, the find bar's box;
//     widgets/imageview: an image shown large over a window, or fitted
//     to its width; widgets/richtext: Markdown and code as text a person
//     selects across blocks, searches and copies, and tables.
//   - desktop: the Fyne app on a real display, and the desktop's primary
//     selection (X11's PRIMARY), which Fyne has no API for.
//
// The subpackages never see the bridge. The UI is the Host of each
// screen's package (chat, composer, dialogs, settings, sidebar, servers,
// setup, tray; appview's and toolcard's through the chat): it
// hands them what the bridge's frame brought and passes their messages on
// (UI.tell); they reach the UI goroutine only through the Host's Post, so
// the bridge's one fyne.Do per frame stays the rule.
//
// Files, by what a person sees. A file named *_bridge.go is the bridge's
// half of the part before it (its messages and what the bridge does with
// them); the rest run on the UI goroutine.
//
// The window and the bridge:
//   - ui.go: the UI, New and Start, the main window's layout, notices,
//     showing and hiding the window; openurl.go: links and folders
//     opened in the desktop's program (xdg-open reaped when it ends).
//   - bridge.go: the bridge actor's state, messages and Receive, and one
//     frame's changes, from the bridge to the UI (flush).
//   - conversations.go: opening, switching and starting conversations
//     (bridge side); conversations_idle.go: closing idle ones, to be
//     reopened from the log; conversations_drafts.go: each chat's unsent
//     draft, set aside on switching and kept in the log.
//   - theme.go: the app's look (theme variant, text size);
//     shortcuts.go: the main window's shortcuts, one table, and their
//     list (F1); quit.go: quitting (Ctrl+Q, the tray's Quit, closing
//     the window without a tray), which asks first while a run is going.
//   - screen.go: what the windows show, as data, for the real-window tests
//     in cmd/deckhand.
//   - panel.go: a panel drawn in the main window in the chat's place (the
//     servers, the settings, a form), as a fyne.Window to what it shows.
//
// The chat view (gui/chat):
//   - chat_bridge.go: the bridge's half (cards folded or shown whole,
//     retry, edit, delete, continue and the versions of a message, a tool
//     view's calls and messages) and the UI as the chat's Host.
//   - sweep.go: one frame drawn once the window is at rest, for Fyne to
//     drop what left the screen.
//
// The sidebar (gui/sidebar):
//   - sidebar_bridge.go: the bridge's half (the list it shows, search,
//     rename, delete, pin, export) and the UI as the sidebar's Host.
//
// The composer (gui/composer):
//   - composer_bridge.go and resources_bridge.go: the bridge's half (the
//     model chosen for each conversation, sending a message with its
//     attachments, an attached resource's updates) and the UI as the
//     composer's Host.
//
// The servers panel (gui/servers):
//   - servers_bridge.go: the bridge's half (reconnect, disconnect, a
//     server changed, sign out), a tool run by hand in a chat of its own,
//     and the UI as the panel's Host.
//
// The settings (gui/settings) and the first-run panel (gui/setup):
//   - settings.go: opening the settings, writing the config file, the
//     bridge's half (the grants), and the UI as their Host.
//
// Dialogs that ask the person (gui/dialogs):
//   - elicit_bridge.go: the bridge's half of the servers' questions.
package gui
