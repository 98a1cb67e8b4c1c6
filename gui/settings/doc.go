// Package settings is Deckhand's settings window: the model (the service
// by name, its API key kept in the keyring or the key file, Check), how it
// answers and the look (General); the "always allow" grants, the
// auto_approve rules and the policy's folders (Permissions); and the
// config file's other model and MCP keys (Advanced). Saving writes only
// what changed; closing without saving puts every field back as saved.
//
// The window (package gui) is its Host: the settings read and write the
// config through it, ask it for the grants (the bridge reads them from the
// log) and open their panel through it. They never see the bridge.
//
// Concurrency: a Form belongs to the UI goroutine; the keyring and the
// model server are asked off it, and answers come back through Host.Post.
package settings
