package composer

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"deckhand/gui/widgets"
)

// pasteText is n bytes of prose in lines, as a paste of a log or a file.
func pasteText(n int) string {
	line := "The quick brown fox jumps over the lazy dog, then naps in the sun for a while. 0123456789\n"
	return strings.Repeat(line, n/len(line)+1)[:n]
}

// BenchmarkPaste pastes 100 KB, 1 MB and 10 MB into the message box and
// waits for the window to draw it: the box as Deckhand has it (a long
// paste becomes an attachment) against a plain Fyne entry, which holds it
// (measured at 100 KB only: at 1 MB it takes minutes).
func BenchmarkPaste(b *testing.B) {
	for _, size := range []struct {
		name  string
		bytes int
		plain bool
	}{{"100KB", 100 << 10, true}, {"1MB", 1 << 20, false}, {"10MB", 10 << 20, false}} {
		text := pasteText(size.bytes)
		b.Run(size.name+"/deckhand", func(b *testing.B) {
			a := test.NewTempApp(b)
			w := a.NewWindow("paste")
			var attached int
			e := widgets.NewMessageEntry(func() {})
			e.OnLongPaste, e.LongPaste = func(t string) { attached = len(t) }, longPaste
			w.SetContent(e)
			w.Resize(fyne.NewSize(800, 600))
			a.Clipboard().SetContent(text)
			for b.Loop() {
				e.SetText("")
				e.TypedShortcut(&fyne.ShortcutPaste{Clipboard: a.Clipboard()})
				w.Canvas().Refresh(e)
				test.WidgetRenderer(e).Layout(e.Size())
			}
			if attached != len(text) || e.Text != "" {
				b.Fatalf("the paste went into the box (%d bytes there, %d attached)", len(e.Text), attached)
			}
		})
		if !size.plain {
			continue
		}
		b.Run(size.name+"/plain-entry", func(b *testing.B) {
			a := test.NewTempApp(b)
			w := a.NewWindow("paste")
			e := widget.NewMultiLineEntry()
			e.Wrapping = fyne.TextWrapWord
			w.SetContent(e)
			w.Resize(fyne.NewSize(800, 600))
			a.Clipboard().SetContent(text)
			for b.Loop() {
				e.SetText("")
				e.TypedShortcut(&fyne.ShortcutPaste{Clipboard: a.Clipboard()})
				test.WidgetRenderer(e).Layout(e.Size())
			}
		})
	}
}
