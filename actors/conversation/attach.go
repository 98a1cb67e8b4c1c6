package conversation

import (
	"bytes"
	"fmt"
	"image"
	_ "image/gif" // DecodeConfig of attached images
	_ "image/jpeg"
	_ "image/png"
	"net/http"
	"unicode/utf8"

	_ "golang.org/x/image/webp"

	"deckhand/tools"
)

// Limits on attachments (files from the window, resources from servers).
// A text attachment goes to the model inside the message, so text is held
// to what a context can take; an image goes as an image part and is checked
// for its size in pixels before anything decodes it.
const (
	MaxTextAttachment  = 256 << 10 // one text file or resource
	MaxTextAttachments = 1 << 20   // the text attachments of one message together
	MaxImageAttachment = 5 << 20
	MaxAttachmentSide  = 8192 // pixels
	maxImagePixels     = 40 << 20
	MaxAttachments     = 20 // attachments on one message
)

// imageTypes are the images a model is sent (what http.DetectContentType
// names them).
var imageTypes = map[string]bool{"image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true}

// CheckAttachment decides what data is, by its content (never by a name or
// a media type someone declared): an image the model can be sent within
// the limits, or UTF-8 text within them. It says why when it is neither, or
// too big. name is how the error names it.
func CheckAttachment(name string, data []byte) (Attachment, error) {
	at := Attachment{Name: name, Data: data}
	if kind := http.DetectContentType(data); imageTypes[kind] {
		if len(data) > MaxImageAttachment {
			return at, AttachmentTooBig(name, len(data), "an image", MaxImageAttachment)
		}
		cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
		if err != nil || "image/"+format != kind {
			return at, fmt.Errorf("%s looks like %s but cannot be read as one", name, kind)
		}
		if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width > MaxAttachmentSide || cfg.Height > MaxAttachmentSide || cfg.Width*cfg.Height > maxImagePixels {
			return at, fmt.Errorf("%s is %d×%d pixels: an image can be at most %d on a side", name, cfg.Width, cfg.Height, MaxAttachmentSide)
		}
		at.Type = kind
		return at, nil
	}
	if !utf8.Valid(data) || bytes.IndexByte(data, 0) >= 0 {
		return at, fmt.Errorf("%s is not a text file (UTF-8) or an image (PNG, JPEG, GIF, WebP): binary files cannot be attached", name)
	}
	if len(data) > MaxTextAttachment {
		return at, AttachmentTooBig(name, len(data), "a text file", MaxTextAttachment)
	}
	at.Type = "text/plain; charset=utf-8"
	return at, nil
}

// AttachmentTooBig says that name (size bytes) is over limit for what.
func AttachmentTooBig(name string, size int, what string, limit int) error {
	return fmt.Errorf("%s is too big to attach (%s): %s can be at most %s", name, tools.Size(size), what, tools.Size(limit))
}
