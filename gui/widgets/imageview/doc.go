// Package imageview shows an image, knowing nothing of Deckhand: large
// over a window, with Save… and Close (View, Show), or in a page, fitted
// to its width (Fit). A small image enlarged two times or more is drawn
// with square pixels in both, not blurred.
//
// Files:
//   - view.go: the View, an image shown as large as the window allows
//     (a small one enlarged up to 24 times), decoded for the size shown
//     off the UI goroutine; Escape closes it and gives the window its
//     keys back.
//   - fit.go: Fit, an image scaled to its width and at most a height,
//     its size set apart from its bitmap (from the image's header) so
//     that laying it out needs no decoding; a placeholder until the
//     bitmap comes; a click runs OnTap.
//
// State: a View and a Fit hold their own state; the image's bytes and
// what Save… does are the caller's (Image.Decode, Image.Save).
//
// Concurrency: like every Fyne widget, these are touched only on Fyne's
// goroutine; a View decodes on a goroutine of its own and hands the
// bitmap back through the post function it is given.
package imageview
