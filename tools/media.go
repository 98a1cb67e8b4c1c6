package tools

import (
	"encoding/base64"
	"fmt"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

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
