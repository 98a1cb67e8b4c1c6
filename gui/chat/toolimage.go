package chat

import (
	"image"

	"deckhand/tools"
)

// How a card shows a tool's images (checked and decoded by package tools).
const (
	imageMaxHeight = 320 // the most a card's image is high on screen
	// imageMinSide is the side a small image is enlarged to on a card (at
	// most imageMaxEnlarge times): server-everything's 20-pixel logo
	// was a speck.
	imageMinSide    = 160
	imageMaxEnlarge = 8
	// A decoded image is scaled down to fit this box (twice the shown
	// size, for HiDPI screens) and the full decode dropped: a card keeps
	// a bitmap of at most about 2.6 MB.
	bitmapMaxW, bitmapMaxH = 1280, 2 * imageMaxHeight
)

// decodeToolImage checks an image, decodes it and scales it down to a
// card's bitmap.
func decodeToolImage(mime string, data []byte) (image.Image, error) {
	return tools.DecodeImage(mime, data, bitmapMaxW, bitmapMaxH)
}
