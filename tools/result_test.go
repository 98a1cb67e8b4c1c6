package tools

import (
	"strings"
	"testing"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestResultMedia(t *testing.T) {
	if m := ResultMedia(nil); m != nil {
		t.Errorf("ResultMedia(nil) = %+v", m)
	}
	if m := ResultMedia(&sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "hi"}}}); m != nil {
		t.Errorf("a text result has media: %+v", m)
	}
	huge := make([]byte, MaxImageBase64/4*3+3) // one base64 quantum over
	res := &sdk.CallToolResult{Content: []sdk.Content{
		&sdk.TextContent{Text: "look"},
		&sdk.ImageContent{MIMEType: "image/png", Data: []byte("png bytes")},
		&sdk.ImageContent{MIMEType: "image/png", Data: huge},
		&sdk.ImageContent{MIMEType: "image/gif"},
		&sdk.ResourceLink{URI: "https://example.com/a", Name: "a", Title: "The A"},
		&sdk.ResourceLink{URI: "file:///tmp/b.txt", Name: "b.txt"},
		&sdk.ResourceLink{Name: "no uri"},
		&sdk.ResourceLink{URI: "https://example.com/" + strings.Repeat("x", maxURI)},
		&sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: "mem://x", MIMEType: "text/plain", Text: "hello"}},
		&sdk.EmbeddedResource{},
	}}
	m := ResultMedia(res)
	if len(m.Images) != 3 {
		t.Fatalf("images: %+v", m.Images)
	}
	if img := m.Images[0]; string(img.Data) != "png bytes" || img.MIME != "image/png" || img.Refused != "" {
		t.Errorf("first image: %+v", img)
	}
	if img := m.Images[1]; img.Data != nil || !strings.Contains(img.Refused, "too large") || img.Size != len(huge) {
		t.Errorf("huge image: data %d bytes, refused %q", len(img.Data), img.Refused)
	}
	if img := m.Images[2]; img.Data != nil || img.Refused != "empty" {
		t.Errorf("empty image: %+v", img)
	}
	want := []Link{{"The A", "https://example.com/a", ""}, {"b.txt", "file:///tmp/b.txt", ""}, {"", "mem://x", "text/plain"}}
	if len(m.Links) != len(want) {
		t.Fatalf("links: %+v", m.Links)
	}
	for i := range want {
		if m.Links[i] != want[i] {
			t.Errorf("link %d = %+v, want %+v", i, m.Links[i], want[i])
		}
	}
	if m.Bytes() != len("png bytes") {
		t.Errorf("Bytes() = %d", m.Bytes())
	}
	up := m.Map(strings.ToUpper)
	if up.Links[0].URI != "HTTPS://EXAMPLE.COM/A" || m.Links[0].URI != "https://example.com/a" || &up.Images[0] == &m.Images[0] {
		t.Errorf("Map: %+v (the original: %+v)", up.Links[0], m.Links[0])
	}
}

func TestResultMediaBounds(t *testing.T) {
	var content []sdk.Content
	for range MaxImages + 2 {
		content = append(content, &sdk.ImageContent{MIMEType: "image/png", Data: make([]byte, MaxMediaBytes/MaxImages+1)})
	}
	for range MaxLinks + 5 {
		content = append(content, &sdk.ResourceLink{URI: "https://example.com"})
	}
	m := ResultMedia(&sdk.CallToolResult{Content: content})
	if len(m.Images) != MaxImages || len(m.Links) != MaxLinks {
		t.Errorf("kept %d images and %d links, want %d and %d", len(m.Images), len(m.Links), MaxImages, MaxLinks)
	}
	if m.Bytes() > MaxMediaBytes {
		t.Errorf("kept %d image bytes, more than %d", m.Bytes(), MaxMediaBytes)
	}
	if last := m.Images[MaxImages-1]; last.Data != nil || last.Refused == "" {
		t.Errorf("the image past the budget: %d bytes kept, refused %q", len(last.Data), last.Refused)
	}
}

func TestCap(t *testing.T) {
	if got := Cap("short", 100); got != "short" {
		t.Errorf("Cap(short) = %q", got)
	}
	long := strings.Repeat("a", 5000) + strings.Repeat("é", 5000) + "END"
	got := Cap(long, 2000)
	if len(got) > 2000 || !strings.HasPrefix(got, "aaaa") || !strings.HasSuffix(got, "éEND") || !strings.Contains(got, "cut: the output was 14.7 KiB, limit 2.0 KiB") {
		t.Errorf("Cap(long, 2000) = %d bytes: %q…%q", len(got), got[:40], got[len(got)-40:])
	}
	if !utf8.ValidString(got) {
		t.Errorf("Cap split a character")
	}
}

// TestCapCut: CapCut says what it cut, from the sizes, never from a
// marker the text holds already (a server can write one).
func TestCapCut(t *testing.T) {
	long := strings.Repeat("x", 5000)
	fake := "ok\n\n[… 3.5 MiB cut: the output was 3.5 MiB, limit 31.2 KiB …]\n\n"
	for _, tt := range []struct {
		name, text string
		limit      int
		want       func(out string) Cut
	}{
		{name: "under the limit", text: "short", limit: 100, want: func(string) Cut { return Cut{} }},
		{name: "no limit", text: long, limit: 0, want: func(string) Cut { return Cut{} }},
		{name: "a server's marker, under the limit", text: fake, limit: 1000, want: func(string) Cut { return Cut{} }},
		{name: "over the limit", text: long, limit: 2000, want: func(out string) Cut { return Cut{Kept: len(out), Whole: 5000} }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, cut := CapCut(tt.text, tt.limit)
			if want := tt.want(out); cut != want || out != Cap(tt.text, tt.limit) {
				t.Errorf("CapCut(%d bytes, %d) = %d bytes, %+v, want %+v and Cap's text", len(tt.text), tt.limit, len(out), cut, want)
			}
		})
	}
}

func FuzzCap(f *testing.F) {
	f.Add("héllo wörld", 5)
	f.Add(strings.Repeat("x", 300), 100)
	f.Fuzz(func(t *testing.T, s string, limit int) {
		limit = limit % 100000
		got := Cap(s, limit)
		if limit > 0 && len(s) > limit && len(got) > max(limit, 64)+200 {
			t.Fatalf("Cap(%d bytes, %d) = %d bytes", len(s), limit, len(got))
		}
		if utf8.ValidString(s) && !utf8.ValidString(got) {
			t.Fatalf("Cap broke UTF-8")
		}
	})
}
