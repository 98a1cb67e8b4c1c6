package widgets

// PrimarySelection is the desktop's primary selection (X11's PRIMARY):
// the text a person selected last, in any program, which a middle click
// pastes. Deckhand's is package desktop's (Fyne has none); tests give a
// recorder. Both run on Fyne's goroutine, which is the main thread that
// the desktop's needs.
type PrimarySelection interface {
	// Set makes text the primary selection: only what the person
	// selected, once the selection is made.
	Set(text string)
	// Get is the primary selection, whichever program holds it; "" for
	// none.
	Get() string
}

// textClipboard is text as a clipboard, for an entry's paste to take the
// primary selection (with its paste rules and undo).
type textClipboard string

func (c textClipboard) Content() string   { return string(c) }
func (c textClipboard) SetContent(string) {}
