package gui

import (
	"errors"
	"fmt"
	_ "image/gif" // DecodeConfig of attached images
	_ "image/jpeg"
	_ "image/png"
	"io"
	"os"
	"path/filepath"

	_ "golang.org/x/image/webp"

	"deckhand/actors"
	"deckhand/clean"
)

// Limits on attachments: the actors' (shared with resources and the
// terminal).
const (
	maxTextFile      = actors.MaxTextAttachment  // one text file
	maxTextTotal     = actors.MaxTextAttachments // the text files of one message together
	maxImageFile     = actors.MaxImageAttachment
	maxAttachments   = actors.MaxAttachments // files on one message
	maxAttachNameLen = 120
)

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
// UTF-8 text within them (actors.CheckAttachment).
func checkAttachment(name string, data []byte) (actors.Attachment, error) {
	return actors.CheckAttachment(name, data)
}

func tooBig(name string, size int, what string, limit int) error {
	return actors.AttachmentTooBig(name, size, what, limit)
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
