package transcript

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// story is one paragraph of n sentences, as the new-user pass's fixture.
func story(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		if i > 1 {
			b.WriteString(" ")
		}
		fmt.Fprintf(&b, "Sentence number %d of a slow story that keeps going.", i)
	}
	return b.String()
}

// TestLongParagraphGoesOn: a paragraph longer than MaxBlock is cut after
// a sentence, and the rows after the first say that they go on with it
// and in what white space, so that the rows joined give the paragraph
// back exactly; streamed or whole, the rows are the same. (Before, the
// cut fell mid-sentence and nothing told the rows after from a new
// paragraph: the chat drew a blank line there.)
func TestLongParagraphGoesOn(t *testing.T) {
	lines := strings.Repeat("A line of a long poem, with no blank line after it\n", 60)
	tests := []struct {
		name, text string
		join       string // between the rows of the paragraph
		sentences  bool   // each row but the last ends a sentence
	}{
		{name: "4,177 characters", text: story(79), join: " ", sentences: true},
		{name: "20,000 characters", text: story(380), join: " ", sentences: true},
		{name: "lines", text: strings.TrimSuffix(lines, "\n"), join: "\n"},
		{name: "one word", text: strings.Repeat("x", 5000), join: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := "Before.\n\n" + tt.text + "\n\nAfter."
			got := Blocks(text)
			if len(got) < 4 {
				t.Fatalf("Blocks: %d rows, want the paragraph in 2 or more", len(got))
			}
			if got[0].Cont || got[1].Cont || got[len(got)-1].Cont {
				t.Errorf("a row after a blank line goes on from the one before: %+v", got)
			}
			var b strings.Builder
			para := got[1 : len(got)-1]
			for i, r := range para {
				if i > 0 {
					if !r.Cont || r.Join != tt.join {
						t.Errorf("row %d: Cont %v, Join %q, want true and %q", i+1, r.Cont, r.Join, tt.join)
					}
					b.WriteString(r.Join)
				}
				if tt.sentences && i < len(para)-1 && !strings.HasSuffix(r.Text, "going.") {
					t.Errorf("row %d is cut mid-sentence: …%s", i+1, r.Text[len(r.Text)-30:])
				}
				b.WriteString(r.Text)
			}
			if b.String() != tt.text {
				t.Errorf("the rows joined are not the paragraph:\n%q\nwant\n%q", b.String(), tt.text)
			}
			tr := New()
			for i := 0; i < len(text); i += 7 {
				tr.Delta(text[i:min(i+7, len(text))], time.Time{})
			}
			tr.Assistant(text, time.Time{})
			streamed := rows(tr)[1:]
			for i := range got {
				got[i].Role = "assistant"
			}
			if diff := cmp.Diff(got, streamed); diff != "" {
				t.Errorf("streamed rows (-whole +streamed):\n%s", diff)
			}
		})
	}
}

// TestLongCodeGoesOn: a code block longer than MaxBlock is cut only at
// line ends (unless one line fills a row), its rows after the first say
// that they go on with it (Cont) after a line break (Join), and the rows
// joined give the code back exactly; streamed or whole, the rows are the
// same. Before, the code was cut mid-line and its rows were code blocks
// of their own.
func TestLongCodeGoesOn(t *testing.T) {
	var code strings.Builder
	for i := 0; code.Len() < 6*1024; i++ {
		fmt.Fprintf(&code, "\tfmt.Println(\"line %d of a long program\", %d)\n", i, i*i)
	}
	tests := []struct {
		name, code string
		join       string
	}{
		{name: "6 KiB of lines", code: strings.TrimSuffix(code.String(), "\n"), join: "\n"},
		{name: "exactly a row of lines", code: strings.TrimSuffix(strings.Repeat(strings.Repeat("x", 63)+"\n", 64), "\n"), join: "\n"},
		{name: "one long line", code: strings.Repeat("y", 5000), join: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := "Before.\n\n```go\n" + tt.code + "\n```\n\nAfter."
			got := Blocks(text)
			code := got[1 : len(got)-1]
			if len(code) < 2 && len(tt.code) > MaxBlock {
				t.Fatalf("Blocks: %d rows of code, want 2 or more: %+v", len(code), got)
			}
			var b strings.Builder
			for i, r := range code {
				if r.Kind != Code || r.Lang != "go" {
					t.Errorf("row %d: kind %v, lang %q, want code in go", i+1, r.Kind, r.Lang)
				}
				if len(r.Text) > MaxBlock {
					t.Errorf("row %d holds %d bytes, more than a row's %d", i+1, len(r.Text), MaxBlock)
				}
				if i == 0 && r.Cont {
					t.Errorf("the code's first row goes on from the paragraph before")
				}
				if i > 0 {
					if !r.Cont || r.Join != tt.join {
						t.Errorf("row %d: Cont %v, Join %q, want true and %q", i+1, r.Cont, r.Join, tt.join)
					}
					b.WriteString(r.Join)
				}
				if tt.join == "\n" && strings.Contains(tt.code, r.Text) && !strings.Contains("\n"+tt.code+"\n", "\n"+r.Text+"\n") {
					t.Errorf("row %d is not cut at line ends: %q…%q", i+1, r.Text[:10], r.Text[len(r.Text)-10:])
				}
				b.WriteString(r.Text)
			}
			if b.String() != tt.code {
				t.Errorf("the rows joined are not the code; where they differ: %q", b.String()[:min(len(b.String()), 80)])
			}
			if got[len(got)-1].Cont || got[len(got)-1].Text != "After." {
				t.Errorf("the row after the code: %+v", got[len(got)-1])
			}
			tr := New()
			for i := 0; i < len(text); i += 7 {
				tr.Delta(text[i:min(i+7, len(text))], time.Time{})
			}
			tr.Assistant(text, time.Time{})
			streamed := rows(tr)[1:]
			for i := range got {
				got[i].Role = "assistant"
			}
			if diff := cmp.Diff(got, streamed); diff != "" {
				t.Errorf("streamed rows (-whole +streamed):\n%s", diff)
			}
		})
	}
}
