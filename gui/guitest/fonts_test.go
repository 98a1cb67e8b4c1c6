package guitest

import (
	"image"
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Deckhand's copy of Fyne parses the bundled emoji font (4 MB, about
// 3.4 MB of heap a parse) when a rune first needs it, once for every text
// style, where Fyne v2.8.1 parsed it for each style drawn: a window of
// Latin text in two styles held two parses and never drew an emoji. The
// emoji are drawn as before, in colour, in any style.
func TestEmojiFontParsedOnceWhenNeeded(t *testing.T) {
	a := test.NewTempApp(t)
	a.Settings().SetTheme(theme.DefaultTheme())
	emoji := theme.DefaultEmojiFont().Name()
	draw := func(s string, style fyne.TextStyle) image.Image {
		w := test.NewTempWindow(t, widget.NewLabelWithStyle(s, fyne.TextAlignLeading, style))
		w.Resize(fyne.NewSize(200, 60))
		return w.Canvas().Capture()
	}

	for _, style := range []fyne.TextStyle{{}, {Bold: true}, {Italic: true}, {Monospace: true}} {
		draw("Plain text, no emoji: ünïcödé – “quotes”", style)
	}
	if got := BundledFontParses(); slices.Contains(got, emoji) {
		t.Fatalf("after Latin text only, the bundled fonts parsed are %q: the emoji font was parsed though no rune needed it", got)
	}

	for _, style := range []fyne.TextStyle{{}, {Bold: true}} {
		img := draw("\U0001F600", style) // 😀, yellow (#FFDD67) in EmojiOne
		if n := yellow(img); n < 20 {
			t.Errorf("😀 in style %s drew %d yellow pixels, want the colour emoji (20 or more)", StyleName(style), n)
		}
	}
	if got := BundledFontParses(); !slices.Contains(got, emoji) {
		t.Errorf("after drawing 😀, the bundled fonts parsed are %q, want %s among them", got, emoji)
	}
}

func yellow(img image.Image) int {
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if r>>8 > 200 && g>>8 > 150 && bl>>8 < 130 {
				n++
			}
		}
	}
	return n
}
