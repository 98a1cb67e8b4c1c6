// Package settings is the settings screen's part that needs no window:
// the model services offered by name, reading the Permissions page's
// policy into edits of the config file, and the auto_approve rules in
// words. The screen itself (its form, the API key, the grants) is still
// drawn by package gui, which calls these.
//
// It holds no state: every function here is pure.
package settings
