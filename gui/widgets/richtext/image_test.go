package richtext

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// An image in an answer's Markdown is not fetched: its address is the
// model's, which words read from a tool (a page, a file) can choose, and
// a fetch would send what the address holds (a secret put in it) to its
// server without the person doing anything. It shows as a link to the
// image, named by its alt text, which the person may open.
func TestMarkdownImageIsNotFetched(t *testing.T) {
	var got atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { got.Add(1) }))
	t.Cleanup(srv.Close)
	test.NewTempApp(t)
	for _, tt := range []struct {
		name, src string
		want      string // the links' names and addresses
	}{
		{"in a line", "see ![a chart](" + srv.URL + "/chart.png?k=secret) here", "Image: a chart " + srv.URL + "/chart.png?k=secret"},
		{"after a line break", "line one\nline two ![*a* chart](" + srv.URL + "/chart.png)", "Image: a chart " + srv.URL + "/chart.png"},
		{"in a table's cell", "| a |\n|---|\n| ![in a cell](" + srv.URL + "/cell.png) |", "Image: in a cell " + srv.URL + "/cell.png"},
		{"two, no alt", "![](" + srv.URL + "/1.png) and ![two](" + srv.URL + "/2.png)", "Image: image " + srv.URL + "/1.png|Image: two " + srv.URL + "/2.png"},
		{"a file is no link", "![key](/home/someone/.ssh/id_ed25519)", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			segs := MarkdownSegments(tt.src)
			var links []string
			var walk func([]widget.RichTextSegment)
			walk = func(segs []widget.RichTextSegment) {
				for _, s := range segs {
					switch s := s.(type) {
					case *widget.ImageSegment:
						t.Errorf("MarkdownSegments(%q) holds an image of %v", tt.src, s.Source)
					case *widget.HyperlinkSegment:
						links = append(links, s.Text+" "+s.URL.String())
					case *widget.ParagraphSegment:
						walk(s.Texts)
					case *widget.TableSegment:
						for _, row := range append([][][]widget.RichTextSegment{s.Headers}, s.Rows...) {
							for _, cell := range row {
								walk(cell)
							}
						}
					}
				}
			}
			walk(segs)
			if got := strings.Join(links, "|"); got != tt.want {
				t.Errorf("MarkdownSegments(%q) links = %q, want %q", tt.src, got, tt.want)
			}
			md := NewMDText(segs...)
			FitTables(md)
			md.Wrapping = fyne.TextWrapWord
			w := test.NewTempWindow(t, md)
			w.Resize(fyne.NewSize(500, 300))
			w.Canvas().Refresh(md)
			if n := got.Load(); n > 0 {
				t.Fatalf("showing %q fetched the image: %d requests", tt.src, n)
			}
		})
	}
}
