package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// RenderResult turns a tool result into plain text: text as it is, images and
// audio as a short description, resource links and embedded resources by
// URI, and structured content as indented JSON unless the text already says
// everything it holds (servers often send both: the JSON itself, or a human
// rendering of it).
func RenderResult(res *sdk.CallToolResult) string {
	if res == nil {
		return ""
	}
	var parts, texts []string
	for _, c := range res.Content {
		switch c := c.(type) {
		case *sdk.TextContent:
			parts = append(parts, c.Text)
			texts = append(texts, c.Text)
		case *sdk.ImageContent:
			parts = append(parts, fmt.Sprintf("[image: %s, %s]", orUnknown(c.MIMEType), Size(len(c.Data))))
		case *sdk.AudioContent:
			parts = append(parts, fmt.Sprintf("[audio: %s, %s]", orUnknown(c.MIMEType), Size(len(c.Data))))
		case *sdk.ResourceLink:
			parts = append(parts, renderLink(c))
		case *sdk.EmbeddedResource:
			parts = append(parts, renderEmbedded(c.Resource))
		default:
			data, _ := json.Marshal(c)
			parts = append(parts, fmt.Sprintf("[%T content: %s]", c, data))
		}
	}
	if res.StructuredContent != nil && !coveredBy(strings.Join(texts, "\n"), res.StructuredContent) {
		data, err := json.MarshalIndent(res.StructuredContent, "", "  ")
		if err != nil {
			data = []byte(fmt.Sprint(res.StructuredContent))
		}
		parts = append(parts, "structured content:\n"+string(data))
	}
	return strings.Join(parts, "\n")
}

func renderLink(l *sdk.ResourceLink) string {
	var b strings.Builder
	b.WriteString("[resource link: ")
	name := l.Title
	if name == "" {
		name = l.Name
	}
	if name != "" {
		b.WriteString(name)
		b.WriteString(" ")
	}
	fmt.Fprintf(&b, "<%s>", l.URI)
	var extra []string
	if l.MIMEType != "" {
		extra = append(extra, l.MIMEType)
	}
	if l.Size != nil {
		extra = append(extra, Size(int(*l.Size)))
	}
	if l.Description != "" {
		extra = append(extra, l.Description)
	}
	if len(extra) > 0 {
		fmt.Fprintf(&b, " (%s)", strings.Join(extra, ", "))
	}
	b.WriteString("]")
	return b.String()
}

func renderEmbedded(r *sdk.ResourceContents) string {
	if r == nil {
		return "[empty resource]"
	}
	if r.Blob != nil {
		return fmt.Sprintf("[resource <%s>: %s, %s]", r.URI, orUnknown(r.MIMEType), Size(len(r.Blob)))
	}
	head := fmt.Sprintf("[resource <%s>", r.URI)
	if r.MIMEType != "" {
		head += " " + r.MIMEType
	}
	return head + "]\n" + r.Text
}

// coveredBy reports whether text already carries v: it is v's JSON, or every
// scalar in v appears in it.
func coveredBy(text string, v any) bool {
	if text == "" {
		return false
	}
	if sameJSON(text, v) {
		return true
	}
	data, err := json.Marshal(v)
	if err != nil {
		return false
	}
	var generic any
	if json.Unmarshal(data, &generic) != nil {
		return false
	}
	budget := 500 // scalars to check before giving up and showing the JSON
	var walk func(any) bool
	walk = func(x any) bool {
		if budget--; budget < 0 {
			return false
		}
		switch x := x.(type) {
		case map[string]any:
			for _, e := range x {
				if !walk(e) {
					return false
				}
			}
			return true
		case []any:
			for _, e := range x {
				if !walk(e) {
					return false
				}
			}
			return true
		case nil:
			return true
		case string:
			return x == "" || strings.Contains(text, x)
		default:
			return strings.Contains(text, fmt.Sprint(x))
		}
	}
	return walk(generic)
}

// sameJSON reports whether text is JSON equal to v.
func sameJSON(text string, v any) bool {
	text = strings.TrimSpace(text)
	if text == "" || (text[0] != '{' && text[0] != '[') {
		return false
	}
	var a, b any
	if json.Unmarshal([]byte(text), &a) != nil {
		return false
	}
	data, err := json.Marshal(v)
	if err != nil || json.Unmarshal(data, &b) != nil {
		return false
	}
	return reflect.DeepEqual(a, b)
}

func orUnknown(mime string) string {
	if mime == "" {
		return "unknown type"
	}
	return mime
}

// Size formats a byte count for people: 512 B, 1.5 KiB, 3.0 MiB.
func Size(n int) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%d B", n)
	case n < 1024*1024:
		return fmt.Sprintf("%.1f KiB", float64(n)/1024)
	default:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1024*1024))
	}
}

// PrettyArgs shows a tool call's arguments: indented JSON, and {} for none.
func PrettyArgs(raw []byte) string {
	if len(raw) == 0 {
		return "{}"
	}
	return PrettyJSON(raw)
}

// PrettyJSON indents raw JSON for display, returning it unchanged if it is
// not valid JSON.
func PrettyJSON(raw []byte) string {
	var b bytes.Buffer
	if json.Indent(&b, raw, "", "  ") != nil {
		return string(raw)
	}
	return b.String()
}
