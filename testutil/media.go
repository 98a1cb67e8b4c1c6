package testutil

import (
	"bytes"
	"context"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// MediaIn is the argument type of the media server's tools.
type MediaIn struct{}

// NewMediaServer returns a go-sdk server whose tools answer with more than
// text: shot (a PNG, links to a web page, a file, a custom scheme and an
// embedded resource), gallery (three images), and bad (an image whose
// header claims 5000×5000, a corrupt PNG, an image of a type not shown,
// and an empty one).
func NewMediaServer(name string) *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: name, Version: "1.0.0"}, nil)
	ro := &sdk.ToolAnnotations{ReadOnlyHint: true}
	sdk.AddTool(s, &sdk.Tool{Name: "shot", Description: "A screenshot and some links", Annotations: ro},
		func(context.Context, *sdk.CallToolRequest, MediaIn) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{
				&sdk.TextContent{Text: "Here is the page."},
				&sdk.ImageContent{MIMEType: "image/png", Data: TestPNG(400, 200)},
				&sdk.ResourceLink{URI: "https://example.com/page", Name: "page", Title: "The page"},
				&sdk.ResourceLink{URI: "file:///tmp/deckhand-notes.txt", Name: "notes.txt"},
				&sdk.ResourceLink{URI: "mem://notes/1", Name: "note\x1b[31m one"},
				&sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: "mem://inline", MIMEType: "text/plain", Text: "inline"}},
			}}, nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "gallery", Description: "Three images", Annotations: ro},
		func(context.Context, *sdk.CallToolRequest, MediaIn) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{
				&sdk.ImageContent{MIMEType: "image/png", Data: TestPNG(64, 64)},
				&sdk.ImageContent{MIMEType: "image/png", Data: TestPNG(2000, 100)},
				&sdk.ImageContent{MIMEType: "image/png", Data: TestPNG(100, 900)},
			}}, nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "broken", Description: "One image whose data does not decode", Annotations: ro},
		func(context.Context, *sdk.CallToolRequest, MediaIn) (*sdk.CallToolResult, any, error) {
			corrupt := TestPNG(50, 50)
			for i := len(corrupt) - 40; i < len(corrupt)-20; i++ {
				corrupt[i] ^= 0x5a
			}
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.ImageContent{MIMEType: "image/png", Data: corrupt}}}, nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "bad", Description: "Images that must not be shown", Annotations: ro},
		func(context.Context, *sdk.CallToolRequest, MediaIn) (*sdk.CallToolResult, any, error) {
			corrupt := TestPNG(50, 50)
			for i := len(corrupt) - 40; i < len(corrupt)-20; i++ {
				corrupt[i] ^= 0x5a // the image data, past the header
			}
			return &sdk.CallToolResult{Content: []sdk.Content{
				&sdk.ImageContent{MIMEType: "image/png", Data: HugePNGHeader(5000, 5000)},
				&sdk.ImageContent{MIMEType: "image/png", Data: corrupt},
				&sdk.ImageContent{MIMEType: "image/bmp", Data: []byte("BM not shown")},
				&sdk.ImageContent{MIMEType: "image/png"},
			}}, nil, nil
		})
	return s
}

// TestPNG is a w×h PNG of a colour gradient.
func TestPNG(w, h int) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.NRGBA{uint8(255 * x / max(w-1, 1)), uint8(255 * y / max(h-1, 1)), 160, 255})
		}
	}
	var b bytes.Buffer
	png.Encode(&b, img)
	return b.Bytes()
}

// HugePNGHeader is the start of a PNG that says it is w×h: enough for its
// size to be read, far too little to decode.
func HugePNGHeader(w, h int) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8], ihdr[9] = 8, 6 // 8 bits, RGBA
	chunk := append([]byte("IHDR"), ihdr...)
	binary.Write(&b, binary.BigEndian, uint32(len(ihdr)))
	b.Write(chunk)
	binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(chunk))
	return b.Bytes()
}
