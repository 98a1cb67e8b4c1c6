package tools

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// A tool's result, read: the text the model is told (RenderResult, capped
// by Cap) and what a window shows of it besides text (ResultMedia).

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
			// The size of the image as a window shows and saves it (a
			// PNG's broken optional chunk dropped): the card said 3.9 KiB
			// of server-everything's tiny image, the large view and the
			// saved file 1.3 KiB.
			kept, _ := RepairPNG(c.Data)
			parts = append(parts, fmt.Sprintf("[image: %s, %s]", orUnknown(c.MIMEType), Size(len(kept))))
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

// Cap shortens text to at most max bytes, keeping the head and the tail
// with a marker in between that says how much was cut. It never splits a
// UTF-8 character.
func Cap(text string, limit int) string {
	out, _ := CapCut(text, limit)
	return out
}

// Cut is what Cap did to a text: it gave Kept bytes (its marker
// included) of Whole. The zero Cut: nothing was cut. A window says so
// from this, never from the marker in the text, which a server can
// write too. Saved: the whole text was kept for the person (a tool's
// result: store.KeepResult), where the model saw Kept of it.
type Cut struct {
	Kept, Whole int
	Saved       bool
}

// CapCut is Cap, and what it cut.
func CapCut(text string, limit int) (string, Cut) {
	if limit <= 0 || len(text) <= limit {
		return text, Cut{}
	}
	marker := func(cut int) string {
		return fmt.Sprintf("\n\n[… %s cut: the output was %s, limit %s …]\n\n", Size(cut), Size(len(text)), Size(limit))
	}
	room := limit - len(marker(len(text)))
	if room < 64 {
		room = min(64, limit)
	}
	head := runeStart(text, room*2/3)
	tail := runeEnd(text, len(text)-(room-head))
	out := text[:head] + marker(tail-head) + text[tail:]
	return out, Cut{Kept: len(out), Whole: len(text)}
}

// runeStart moves i back to the start of a UTF-8 character.
func runeStart(s string, i int) int {
	i = min(max(i, 0), len(s))
	for i > 0 && i < len(s) && s[i]&0xC0 == 0x80 {
		i--
	}
	return i
}

// runeEnd moves i forward to the start of a UTF-8 character.
func runeEnd(s string, i int) int {
	i = min(max(i, 0), len(s))
	for i < len(s) && s[i]&0xC0 == 0x80 {
		i++
	}
	return i
}

// Media is what a tool result holds besides text that a window can show
// as more than text: its images (the encoded bytes the server sent,
// bounded) and its links to resources. The model is told of both in the
// rendered text (RenderResult); Media is for the screen only. A Media is
// never changed once made: it is shared between goroutines.
type Media struct {
	Images []Image
	Links  []Link
}

// Image is one image of a tool result.
type Image struct {
	MIME string
	// Data is the encoded image as the server sent it (base64-decoded);
	// nil when it was not kept, Refused saying why.
	Data    []byte
	Size    int // bytes the server sent
	Refused string
	// SHA256 is the hex SHA-256 of Data when it is kept beside the log
	// (store.DB.KeepImage): how a chat read back from the log finds it.
	SHA256 string
}

// Link is a resource a tool result names: a resource_link, or an embedded
// resource's URI. Everything in it is the server's, untrusted.
type Link struct {
	Name string // the title or name; "" when the server gave none
	URI  string
	MIME string
}

// The bounds of what a result's Media keeps.
const (
	// MaxImageBase64 is the largest image kept, counted as the base64 the
	// server sent: about 12 MiB of image.
	MaxImageBase64 = 16 << 20
	MaxImages      = 8        // images kept per result
	MaxMediaBytes  = 24 << 20 // image bytes kept per result
	MaxLinks       = 32       // links kept per result
	maxURI         = 4096     // a longer URI is not a link anyone should open
	maxLinkName    = 300
)

// ResultMedia is res's images and resource links, bounded: at most
// MaxImages images of at most MaxImageBase64 each and MaxMediaBytes in all
// (the others are listed, with why their bytes were not kept), and
// MaxLinks links. nil when there are none.
func ResultMedia(res *sdk.CallToolResult) *Media {
	if res == nil {
		return nil
	}
	m := &Media{}
	kept := 0
	for _, c := range res.Content {
		switch c := c.(type) {
		case *sdk.ImageContent:
			if len(m.Images) == MaxImages {
				continue
			}
			img := Image{MIME: c.MIMEType, Size: len(c.Data)}
			switch n := base64.StdEncoding.EncodedLen(len(c.Data)); {
			case len(c.Data) == 0:
				img.Refused = "empty"
			case n > MaxImageBase64:
				img.Refused = fmt.Sprintf("too large to show (%s; the limit is %s)", Size(n), Size(MaxImageBase64))
			case kept+len(c.Data) > MaxMediaBytes:
				img.Refused = fmt.Sprintf("not shown: the result's images pass %s", Size(MaxMediaBytes))
			default:
				img.Data = c.Data
				kept += len(c.Data)
			}
			m.Images = append(m.Images, img)
		case *sdk.ResourceLink:
			name := c.Title
			if name == "" {
				name = c.Name
			}
			m.addLink(name, c.URI, c.MIMEType)
		case *sdk.EmbeddedResource:
			if c.Resource != nil {
				m.addLink("", c.Resource.URI, c.Resource.MIMEType)
			}
		}
	}
	if len(m.Images) == 0 && len(m.Links) == 0 {
		return nil
	}
	return m
}

func (m *Media) addLink(name, uri, mime string) {
	if uri == "" || len(uri) > maxURI || len(m.Links) == MaxLinks {
		return
	}
	if len(name) > maxLinkName {
		name = name[:maxLinkName]
	}
	m.Links = append(m.Links, Link{Name: name, URI: uri, MIME: mime})
}

// Bytes is how many image bytes m keeps.
func (m *Media) Bytes() int {
	if m == nil {
		return 0
	}
	n := 0
	for _, img := range m.Images {
		n += len(img.Data)
	}
	return n
}

// Map returns a copy of m with f applied to every link's name and URI and
// every image's MIME type (to clean or redact them); nil for nil.
func (m *Media) Map(f func(string) string) *Media {
	if m == nil {
		return nil
	}
	out := &Media{Images: make([]Image, len(m.Images)), Links: make([]Link, len(m.Links))}
	for i, img := range m.Images {
		img.MIME = f(img.MIME)
		out.Images[i] = img
	}
	for i, l := range m.Links {
		out.Links[i] = Link{Name: f(l.Name), URI: f(l.URI), MIME: f(l.MIME)}
	}
	return out
}
