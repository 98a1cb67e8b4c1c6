package tools

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"image"
	"image/gif"
	"image/jpeg"
	"image/png"
	"strings"

	"golang.org/x/image/draw"
	"golang.org/x/image/webp"
)

// A tool's images are the server's, untrusted: only PNG, JPEG, GIF (its
// first frame) and WebP are shown, their size is read from the header and
// checked before anything is decoded, and a decoder that fails (or
// panics) on corrupt data costs the image, nothing more.

// MaxImageSide is the most pixels an image shown has, either way.
const MaxImageSide = 4096

// imageFormats are the MIME types shown, and the formats their data must
// decode as.
var imageFormats = map[string]string{
	"image/png":  "png",
	"image/jpeg": "jpeg",
	"image/jpg":  "jpeg",
	"image/gif":  "gif",
	"image/webp": "webp",
}

// CheckImage reads an image's header: its size and format, or why it
// is not shown. Nothing is decoded.
func CheckImage(mime string, data []byte) (w, h int, format string, err error) {
	mt, _, _ := strings.Cut(mime, ";")
	mt = strings.ToLower(strings.TrimSpace(mt))
	if _, ok := imageFormats[mt]; !ok {
		if mt == "" {
			mt = "an image of no stated type"
		}
		return 0, 0, "", fmt.Errorf("%s is not shown (PNG, JPEG, GIF and WebP are)", mt)
	}
	if n := base64.StdEncoding.EncodedLen(len(data)); n > MaxImageBase64 {
		return 0, 0, "", fmt.Errorf("too large to show (%s; the limit is %s)", Size(n), Size(MaxImageBase64))
	}
	if len(data) == 0 {
		return 0, 0, "", errors.New("empty")
	}
	data, _ = RepairPNG(data) // an optional chunk with a bad checksum: browsers show it, and so do we
	var cfg image.Config
	err = safely(func() error {
		var err error
		format, err = sniff(data)
		if err != nil {
			return err
		}
		switch format {
		case "png":
			cfg, err = png.DecodeConfig(bytes.NewReader(data))
		case "jpeg":
			cfg, err = jpeg.DecodeConfig(bytes.NewReader(data))
		case "gif":
			cfg, err = gif.DecodeConfig(bytes.NewReader(data))
		case "webp":
			cfg, err = webp.DecodeConfig(bytes.NewReader(data))
		}
		return err
	})
	if err != nil {
		return 0, 0, "", fmt.Errorf("not a readable image: %v", err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return 0, 0, "", fmt.Errorf("not a readable image: it says it is %d×%d", cfg.Width, cfg.Height)
	}
	if cfg.Width > MaxImageSide || cfg.Height > MaxImageSide {
		return 0, 0, "", fmt.Errorf("too large to show (%d×%d; the limit is %d×%d)", cfg.Width, cfg.Height, MaxImageSide, MaxImageSide)
	}
	return cfg.Width, cfg.Height, format, nil
}

// sniff names data's format from its first bytes (only the formats shown:
// the image package's registry also holds whatever else the program
// linked in).
func sniff(data []byte) (string, error) {
	switch {
	case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
		return "png", nil
	case bytes.HasPrefix(data, []byte("\xff\xd8")):
		return "jpeg", nil
	case bytes.HasPrefix(data, []byte("GIF87a")), bytes.HasPrefix(data, []byte("GIF89a")):
		return "gif", nil
	case len(data) >= 12 && string(data[:4]) == "RIFF" && string(data[8:12]) == "WEBP":
		return "webp", nil
	}
	return "", errors.New("not PNG, JPEG, GIF or WebP data")
}

// DecodeImage checks an image (CheckImage), decodes it and scales it
// down to fit maxW×maxH.
func DecodeImage(mime string, data []byte, maxW, maxH int) (image.Image, error) {
	w, h, format, err := CheckImage(mime, data)
	if err != nil {
		return nil, err
	}
	data, _ = RepairPNG(data)
	var img image.Image
	err = safely(func() error {
		var err error
		r := bytes.NewReader(data)
		switch format {
		case "png":
			img, err = png.Decode(r)
		case "jpeg":
			img, err = jpeg.Decode(r)
		case "gif":
			img, err = gif.Decode(r) // the first frame alone
		case "webp":
			img, err = webp.Decode(r)
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("could not be decoded: %v", err)
	}
	if b := img.Bounds(); b.Dx() != w || b.Dy() != h {
		return nil, fmt.Errorf("could not be decoded: %d×%d, not the %d×%d its header says", b.Dx(), b.Dy(), w, h)
	}
	return shrink(img, maxW, maxH), nil
}

// shrink scales img down to fit w×h, keeping its aspect; a smaller image
// is returned as it is.
func shrink(img image.Image, w, h int) image.Image {
	b := img.Bounds()
	s := min(float64(w)/float64(b.Dx()), float64(h)/float64(b.Dy()))
	if s >= 1 {
		return img
	}
	dst := image.NewNRGBA(image.Rect(0, 0, max(1, int(float64(b.Dx())*s)), max(1, int(float64(b.Dy())*s))))
	draw.ApproxBiLinear.Scale(dst, dst.Bounds(), img, b, draw.Src, nil)
	return dst
}

// safely runs f, turning a panic into an error: a decoder bug on hostile
// data must not take the window down.
func safely(f func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("the decoder failed: %v", p)
		}
	}()
	return f()
}
