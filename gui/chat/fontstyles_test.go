package chat

import (
	"slices"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"github.com/google/go-cmp/cmp"

	"deckhand/gui/guitest"
	"deckhand/transcript"
)

// everyMarkdown is an answer with every element of Markdown the chat
// draws, and a code block with a comment.
const everyMarkdown = "# Heading\n\n## Sub\n\nPlain, *emphasis*, **strong**, ***both***, `inline code`, ~~struck~~, " +
	"[a link](https://example.com).\n\n> a quote\n\n- one\n- two\n  1. nested\n\n- [x] task\n\n" +
	"| a | b |\n| --- | --- |\n| 1 | **2** |\n\n```go\n// a comment\nfunc main() { fmt.Println(\"x\", 1) }\n```\n\n---\n\nlast line\n"

// Fyne keeps a parse of the text font, its bundled emoji font (4.1 MB)
// and a system font for each distinct text style it draws, for the life
// of the window: about 8.7 MB of heap a style in the real window
// (BenchmarkWindowMemory's heap profiles). An answer with every Markdown
// element draws only the styles Markdown itself needs; code comments are
// in the placeholder colour, not italic monospace as well (a style of
// their own, drawn in any answer with commented code).
func TestAnswerTextStyles(t *testing.T) {
	u := newTestUI(t)
	u.App().Settings().SetTheme(theme.DefaultTheme()) // Fyne's test theme has no italic monospace
	u.Win.Resize(fyne.NewSize(1100, 3000))            // every row in view
	tr := transcript.New()
	tr.User("show me", time.Now())
	tr.Assistant(everyMarkdown, time.Now())
	n, changed := tr.Changes()
	u.chat.Update(n, changed)
	u.drain()

	styles := map[string]bool{}
	guitest.Walk(u.Win.Canvas().Content(), func(o fyne.CanvasObject) {
		if x, ok := o.(*canvas.Text); ok && x.Text != "" && x.FontSource == nil {
			styles[guitest.StyleName(x.TextStyle)] = true
		}
	})
	var got []string
	for s := range styles {
		got = append(got, s)
	}
	slices.Sort(got)
	want := []string{"bold", "bold italic", "italic", "monospace", "regular", "strikethrough"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the text styles drawn (-want +got):\n%s", diff)
	}
}
