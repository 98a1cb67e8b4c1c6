package servers

// RelistPause is relistPause, for package servers_test.
const RelistPause = relistPause

// Backoff is backoff, for package servers_test.
var Backoff = backoff
