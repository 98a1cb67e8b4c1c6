package conversation

import (
	"errors"
	"fmt"
	"strings"

	"deckhand/actors/servers"
	"deckhand/clean"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxResourceNameLen bounds a resource attachment's name (its URI);
// maxNameLen an embedded resource's name in a prompt (as servers' listings
// cut theirs).
const (
	maxResourceNameLen = 300
	maxNameLen         = 200
)

// cut cleans s to one line of at most n runes.
func cut(s string, n int) string {
	s = strings.TrimSpace(clean.Line(s))
	if r := []rune(s); len(r) > n {
		s = string(r[:n-1]) + "…"
	}
	return s
}

// ResourceName is how an attachment from a resource is named, to the model
// and the person: its URI, one clean line, cut to a length.
func ResourceName(uri string) string {
	if n := cut(uri, maxResourceNameLen); n != "" {
		return n
	}
	return "resource"
}

// ResourceAttachments turns a resource's contents into attachments, as
// files are: each part is judged by its bytes (never by the MIME type the
// server declares) with CheckAttachment, so UTF-8 text (a text part, or a
// blob that is text) goes to the model fenced and named with its URI, and
// a PNG, JPEG, GIF or WebP blob as an image part, under the files' limits.
// Anything else is refused, saying why.
func ResourceAttachments(uri string, contents []*sdk.ResourceContents) ([]Attachment, error) {
	var out []Attachment
	var errs []error
	for _, c := range contents {
		if c == nil {
			continue
		}
		name := ResourceName(uri)
		if c.URI != "" && c.URI != uri && servers.UsableURI(c.URI) {
			name = ResourceName(c.URI)
		}
		data := c.Blob
		if c.Text != "" || data == nil {
			data = []byte(c.Text)
		}
		if len(out) == MaxAttachments {
			errs = append(errs, fmt.Errorf("%s has more than %d parts: the rest were left out", ResourceName(uri), MaxAttachments))
			break
		}
		at, err := CheckAttachment(name, data)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, at)
	}
	if len(out) == 0 && len(errs) == 0 {
		return nil, fmt.Errorf("the server returned nothing for %s", ResourceName(uri))
	}
	return out, errors.Join(errs...)
}
