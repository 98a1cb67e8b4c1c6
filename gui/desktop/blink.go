//go:build blink || darwin

package desktop

import "fyne.io/fyne/v2"

// still leaves Fyne's animations as Fyne's settings say: built with
// -tags blink (the text cursor blinks, at a cost in CPU at rest), or on
// macOS (see still.go).
func still(a fyne.App) fyne.App { return a }
