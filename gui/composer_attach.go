package gui

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	_ "image/gif" // DecodeConfig of attached images
	_ "image/jpeg"
	_ "image/png"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"unicode/utf8"

	_ "golang.org/x/image/webp"

	"deckhand/actors"
	"deckhand/clean"
	"deckhand/tools"
)

// Limits on attachments. A text file goes to the model inside the message,
// so text is held to what a context can take; an image goes as an image
// part and is checked for its size in pixels before anything decodes it.
const (
	maxTextFile      = 256 << 10 // one text file
	maxTextTotal     = 1 << 20   // the text files of one message together
	maxImageFile     = 5 << 20
	maxAttachSide    = 8192 // pixels
	maxImagePixels   = 40 << 20
	maxAttachments   = 20 // files on one message
	maxAttachNameLen = 120
)

// imageTypes are the images a model is sent (what http.DetectContentType
// names them).
var imageTypes = map[string]bool{"image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true}

// readAttachment reads a file to attach, deciding by its content (not its
// name) whether it is an image the model can be sent or UTF-8 text; it
// says why when it is neither, or too big. It blocks: call it off the UI
// goroutine.
func readAttachment(path string) (actors.Attachment, error) {
	name := attachName(path)
	f, err := os.Open(path)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the path is the person's own; the name says which
		}
		return actors.Attachment{}, fmt.Errorf("%s cannot be read: %w", name, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return actors.Attachment{}, fmt.Errorf("%s cannot be read: %w", name, err)
	}
	if st.IsDir() {
		return actors.Attachment{}, fmt.Errorf("%s is a folder: attach the files in it", name)
	}
	if st.Size() > maxImageFile {
		return actors.Attachment{}, tooBig(name, int(min(st.Size(), 1<<40)), "a file", maxImageFile)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxImageFile+1))
	if err != nil {
		return actors.Attachment{}, fmt.Errorf("%s cannot be read: %w", name, err)
	}
	return checkAttachment(name, data)
}

// checkAttachment decides what data is: an image within the limits, or
// UTF-8 text within them.
func checkAttachment(name string, data []byte) (actors.Attachment, error) {
	at := actors.Attachment{Name: name, Data: data}
	if kind := http.DetectContentType(data); imageTypes[kind] {
		if len(data) > maxImageFile {
			return at, tooBig(name, len(data), "an image", maxImageFile)
		}
		cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
		if err != nil || "image/"+format != kind {
			return at, fmt.Errorf("%s looks like %s but cannot be read as one", name, kind)
		}
		if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width > maxAttachSide || cfg.Height > maxAttachSide || cfg.Width*cfg.Height > maxImagePixels {
			return at, fmt.Errorf("%s is %d×%d pixels: an image can be at most %d on a side", name, cfg.Width, cfg.Height, maxAttachSide)
		}
		at.Type = kind
		return at, nil
	}
	if !utf8.Valid(data) || bytes.IndexByte(data, 0) >= 0 {
		return at, fmt.Errorf("%s is not a text file (UTF-8) or an image (PNG, JPEG, GIF, WebP): binary files cannot be attached", name)
	}
	if len(data) > maxTextFile {
		return at, tooBig(name, len(data), "a text file", maxTextFile)
	}
	at.Type = "text/plain; charset=utf-8"
	return at, nil
}

func tooBig(name string, size int, what string, limit int) error {
	return fmt.Errorf("%s is too big to attach (%s): %s can be at most %s", name, tools.Size(size), what, tools.Size(limit))
}

// attachName is a file's name as the model and the person see it: its
// base name, one clean line, not too long.
func attachName(path string) string {
	name := clean.Line(filepath.Base(path))
	if r := []rune(name); len(r) > maxAttachNameLen {
		name = string(r[:maxAttachNameLen-1]) + "…"
	}
	if name == "" || name == "." || name == string(filepath.Separator) {
		name = "file"
	}
	return name
}

// attachLine is how an attachment is named in the transcript.
func attachLine(at actors.AttachmentInfo) string {
	return fmt.Sprintf("📎 %s (%s)", at.Name, tools.Size(at.Size))
}
