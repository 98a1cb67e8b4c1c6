package conversation

import (
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/actors/servers"
	"deckhand/clean"
)

// maxPromptText bounds the text a prompt puts in the message box.
const maxPromptText = MaxTextAttachment

// PromptMessage is what a prompt puts into the conversation, as the
// person's next message:
//
//   - the text of its user messages becomes the message, in order;
//   - an assistant message's text is included too, marked as the prompt's
//     words for the assistant (a conversation takes the person's messages
//     only: a server's prompt cannot speak for the model in the history);
//   - images and embedded resources become attachments, judged and
//     limited like files (ResourceAttachments);
//   - resource links are named in the text, with their URIs;
//   - anything else (audio) is left out, and notes say so.
//
// The text is cleaned (package clean); the person sees it all before it is
// sent.
func PromptMessage(r *servers.PromptResult) (text string, attached []Attachment, notes []string) {
	var b strings.Builder
	para := func(s string) {
		s = strings.TrimSpace(clean.Text(s))
		if s == "" {
			return
		}
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(s)
	}
	for _, m := range r.Messages {
		assistant := m.Role == "assistant"
		switch c := m.Content.(type) {
		case *sdk.TextContent:
			if assistant {
				para("(The prompt's words for the assistant:) " + c.Text)
			} else {
				para(c.Text)
			}
		case *sdk.ImageContent:
			at, err := CheckAttachment(fmt.Sprintf("%s.%s image %d", r.Alias, r.Name, len(attached)+1), c.Data)
			if err != nil {
				notes = append(notes, err.Error())
				continue
			}
			attached = append(attached, at)
		case *sdk.EmbeddedResource:
			if c.Resource == nil {
				continue
			}
			uri := c.Resource.URI
			ats, err := ResourceAttachments(uri, []*sdk.ResourceContents{c.Resource})
			attached = append(attached, ats...)
			if err != nil {
				notes = append(notes, err.Error())
			}
		case *sdk.ResourceLink:
			line := "[Resource link: " + ResourceName(c.URI)
			if name := cut(servers.Label(c.Name, c.Title), maxNameLen); name != "" && name != c.URI {
				line += " (" + name + ")"
			}
			para(line + "]")
		case nil:
		default:
			notes = append(notes, fmt.Sprintf("The prompt's %T part was left out: it cannot go in a message.", m.Content))
		}
	}
	text = b.String()
	if len(text) > maxPromptText {
		text = strings.ToValidUTF8(text[:maxPromptText], "") + "…"
		notes = append(notes, "The prompt's text was cut to "+fmt.Sprint(maxPromptText/1024)+" KiB.")
	}
	if len(attached) > MaxAttachments {
		attached = attached[:MaxAttachments]
		notes = append(notes, fmt.Sprintf("Only the first %d attachments of the prompt were kept.", MaxAttachments))
	}
	return text, attached, notes
}
