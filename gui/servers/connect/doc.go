// Package connect is the form that adds a server to the servers panel, or
// edits one: a URL, or a command with its arguments, environment, folder,
// sandbox and secrets; an alias; the variable holding a URL server's
// token. The server typed is tried before it is saved (connected on its
// own, its tools listed, closed): one that fails is never written to the
// config, and the form stays open with the whole reason and what was
// typed. Its fields and controls take Escape and Ctrl+W as Cancel.
//
// It imports the servers actors' package (deckhand/actors/servers) under
// its own name: inside this package, servers.X is always the actors'.
//
// The servers panel (package servers) is its Host: it opens the form
// (Open), saves a server that connected (Host.Save: the config file, then
// the bridge) and hears when the form closes (Host.Closed). The form
// never sees the panel nor the bridge. A Form owns what it shows and its
// try (the one under way, the folders granted, the secrets' rows); the
// panel only holds the open one (Panel.Form), for tests.
//
// Files:
//   - host.go: the Host.
//   - form.go: the Form: its fields, shown by the kind of server; the
//     alias checked as it is typed; a try and its outcome (saved and
//     closed, or the reason, marked as the last try's once a field
//     changes); Cancel.
//   - grant.go: the question asked before a try when the command's
//     arguments name folders outside those servers may use (Read only,
//     Read and write, Neither), sized to show every line.
//   - trial.go: the try: the server connected, its tools listed and the
//     connection closed; why it failed, for people (the error, a hint,
//     the server's stderr, its secrets removed); Connect, a server tried
//     and saved without the form.
//   - secrets.go: a command server's secrets: a row for each one named,
//     saying where its value comes from, with a field to paste it into,
//     kept in the keyring once the server connected.
//   - entry.go: the form's fields, in which Escape and Ctrl+W cancel.
//   - controls.go: the form's buttons; its other controls are widgets'
//     EscSelect, EscCheck and EscRadio.
//
// Concurrency: a Form belongs to the UI goroutine. A try, the keyring and
// writing the config run off it; their answers come back through
// Host.Post.
package connect
