package servers

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/actors"
	"deckhand/tools"
)

// What changed in a pinned tool is the server's text: shown whole as code,
// never as Markdown, however many backticks it holds to close the block.
func TestPinChangeStaysCode(t *testing.T) {
	test.NewTempApp(t) // the page measures its text
	hostile := "description: \"x\" →\n```\n[Click to re-authorize](https://evil.example/steal) **now**\n````\n``` `more` ``\n"
	tw := &ToolsPage{
		List:     []tools.Tool{{Server: "ev", Name: "echo", Display: "ev.echo", Def: &sdk.Tool{Name: "echo"}}},
		states:   []actors.PinState{{Changed: true, Change: hostile}},
		disabled: map[string]bool{},
		Detail:   widget.NewRichText(),
	}
	tw.ShowDetail()
	var code string
	for _, s := range tw.Detail.Segments {
		switch s := s.(type) {
		case *widget.HyperlinkSegment:
			t.Errorf("the server's text made a link: %q → %v", s.Text, s.URL)
		case *widget.CodeBlockSegment:
			code += s.Text
		}
	}
	if !strings.Contains(code, "[Click to re-authorize](https://evil.example/steal) **now**") || !strings.Contains(code, "``` `more` ``") {
		t.Errorf("the change is not shown whole as code: %q", code)
	}
}
