package composer

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

	"deckhand/actors/conversation"
	"deckhand/clean"
)

// Limits on attachments: the actors' (shared with resources and the
// terminal).
const (
	maxTextFile      = conversation.MaxTextAttachment  // one text file
	maxTextTotal     = conversation.MaxTextAttachments // the text files of one message together
	maxImageFile     = conversation.MaxImageAttachment
	maxAttachments   = conversation.MaxAttachments // files on one message
	maxAttachNameLen = 120
)

// readAttachment reads a file to attach, deciding by its content (not its
// name) whether it is an image the model can be sent or UTF-8 text; it
// says why when it is neither, or too big. It blocks: call it off the UI
// goroutine.
func readAttachment(path string) (conversation.Attachment, error) {
	name := attachName(path)
	f, err := os.Open(path)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the path is the person's own; the name says which
		}
		return conversation.Attachment{}, fmt.Errorf("%s cannot be read: %w", name, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return conversation.Attachment{}, fmt.Errorf("%s cannot be read: %w", name, err)
	}
	if st.IsDir() {
		return conversation.Attachment{}, fmt.Errorf("%s is a folder: attach the files in it", name)
	}
	if st.Size() > maxImageFile {
		return conversation.Attachment{}, tooBig(name, int(min(st.Size(), 1<<40)), "a file", maxImageFile)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxImageFile+1))
	if err != nil {
		return conversation.Attachment{}, fmt.Errorf("%s cannot be read: %w", name, err)
	}
	return checkAttachment(name, data)
}

// checkAttachment decides what data is: an image within the limits, or
// UTF-8 text within them (conversation.CheckAttachment).
func checkAttachment(name string, data []byte) (conversation.Attachment, error) {
	return conversation.CheckAttachment(name, data)
}

func tooBig(name string, size int, what string, limit int) error {
	return conversation.AttachmentTooBig(name, size, what, limit)
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
