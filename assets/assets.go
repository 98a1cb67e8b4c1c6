// Package assets holds Deckhand's own artwork, embedded in the binary: the
// application icon (icon.png, rendered from icon.svg with
// `rsvg-convert -w 512 -h 512 icon.svg -o icon.png`).
//
// Everything here is read-only data, set at build time: safe to read from
// any goroutine, and never to be written.
package assets

import _ "embed"

// IconPNG is the application icon, 512×512.
//
//go:embed icon.png
var IconPNG []byte
