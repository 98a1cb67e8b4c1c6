package tools

import (
	"bytes"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"testing"

	"deckhand/testutil"
)

// A server's image is checked from its header before it is decoded, and
// decoding never gives what the check refused, nor more than asked.
func FuzzImage(f *testing.F) {
	f.Add("image/png", testutil.TestPNG(3, 2))
	f.Add("image/png", testutil.HugePNGHeader(5000, 10))
	f.Add("image/png", testutil.HugePNGHeader(4096, 4096))
	img := image.NewPaletted(image.Rect(0, 0, 4, 3), []color.Color{color.White, color.Black})
	var g, j bytes.Buffer
	gif.Encode(&g, img, nil)
	jpeg.Encode(&j, img, nil)
	f.Add("image/gif", g.Bytes())
	f.Add("image/jpeg", j.Bytes())
	f.Add("image/webp", []byte("RIFF\x24\x00\x00\x00WEBPVP8L\x18\x00\x00\x00\x2f\x00\x00\x00\x10\x07\x10\x11\x11\x88\x88\xfe\x07\x00"))
	f.Add("image/bmp", []byte("BM"))
	f.Fuzz(func(t *testing.T, mime string, data []byte) {
		w, h, _, err := CheckImage(mime, data)
		if err == nil && (w <= 0 || h <= 0 || w > MaxImageSide || h > MaxImageSide) {
			t.Fatalf("checked an image of %d×%d", w, h)
		}
		img, derr := DecodeImage(mime, data, 1280, 640)
		if err != nil && derr == nil {
			t.Fatalf("decoded an image its check refused: %v", err)
		}
		if derr == nil {
			if b := img.Bounds(); b.Dx() > 1280 || b.Dy() > 640 || b.Empty() {
				t.Fatalf("decoded to %v", b)
			}
		}
	})
}
