package tools

import (
	"html"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
)

// shown parses md as the window does (Fyne's RichText.ParseMarkdown:
// goldmark with strikethrough, task lists and tables) and returns the text
// a person sees, a paragraph a line, and the kinds of every node but text,
// in order: the document's structure.
func shown(md string) (visible string, kinds []string) {
	src := []byte(md)
	doc := goldmark.New(goldmark.WithExtensions(extension.Strikethrough, extension.TaskList, extension.Table)).
		Parser().Parse(text.NewReader(src))
	var b strings.Builder
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		switch n := n.(type) {
		case *ast.Text:
			if entering {
				// As Fyne's renderer: the source, HTML entities decoded.
				b.WriteString(html.UnescapeString(string(n.Value(src))))
				if n.SoftLineBreak() {
					b.WriteString(" ")
				}
			}
			return ast.WalkContinue, nil
		case *ast.Paragraph, *ast.Heading:
			if !entering {
				b.WriteString("\n")
			}
		}
		if entering {
			kinds = append(kinds, n.Kind().String())
		}
		return ast.WalkContinue, nil
	})
	return b.String(), kinds
}

// benign is s with each paragraph replaced by one plain word.
func benign(s string) string {
	paras := strings.Split(s, "\n\n")
	for i, p := range paras {
		if strings.TrimSpace(p) != "" {
			paras[i] = "x"
		}
	}
	return strings.Join(paras, "\n\n")
}

// readAs is s as a person reads it, blanks between words collapsed.
func readAs(s string) string { return strings.Join(strings.Fields(s), " ") }

// A server's name, title and description reach the tools window as plain
// text: they add nothing to the document's structure (no link to click,
// no image fetched, no HTML, autolink, emphasis, heading, list, quote,
// table or code of their own), and show as written.
func TestMarkdownEscapesServerText(t *testing.T) {
	tests := []struct {
		name, display, title, desc string
	}{
		{"link", "s.echo", "", "Echoes. [click](https://evil)"},
		{"autolink", "s.echo", "", "See <https://evil> now"},
		{"image", "s.echo", "", "![pixel](https://evil/p.png)"},
		{"reference link", "s.echo", "", "[click][1]\n\n[1]: https://evil"},
		{"html", "s.echo", "", `<a href="https://evil">x</a> <img src="https://evil/p.png">`},
		{"html block", "s.echo", "", "<div>\nhi\n</div>"},
		{"emphasis and heading", "s.echo", "", "# Big\n**loud** _quiet_ ~~gone~~"},
		{"entities", "s.echo", "", "&amp; &lt;b&gt; &#x41;"},
		{"backslashes", "s.echo", "", `already \[escaped\] \\ end\`},
		{"list, quote and table", "s.echo", "", "1. one\n- two\n> quoted\n| a | b |\n| - | - |"},
		{"code", "s.echo", "", "para\n\n    [x](https://evil)\n\n```\n[y](https://evil)\n```\n`[z](https://evil)`"},
		{"carriage returns", "s.echo", "", "a\r\r    [x](https://evil)"},
		{"title", "s.echo", "[click](https://evil) **x**", "plain"},
		{"name", "s.[x](https://evil)", "", "plain"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			md := Markdown(Tool{Display: tt.display, Def: &sdk.Tool{Name: "echo", Title: tt.title, Description: tt.desc}})
			visible, kinds := shown(md)
			_, want := shown(Markdown(Tool{Display: "x", Def: &sdk.Tool{Name: "echo", Title: benign(tt.title), Description: benign(tt.desc)}}))
			if diff := cmp.Diff(want, kinds); diff != "" {
				t.Errorf("Markdown() = %q: the server's text changed the structure (-want +got):\n%s", md, diff)
			}
			for _, s := range []string{tt.display, tt.title, tt.desc} {
				for _, para := range strings.Split(strings.ReplaceAll(s, "\r", "\n"), "\n\n") {
					if w := readAs(para); w != "" && !strings.Contains(readAs(visible), w) {
						t.Errorf("Markdown() shows %q, want it to show %q as written", visible, w)
					}
				}
			}
		})
	}
}

// Whatever a server writes, escaped it is one run of plain paragraphs that
// show its words as written.
func FuzzEscapeMarkdown(f *testing.F) {
	for _, s := range []string{"Echoes. [click](https://evil)", "See <https://evil> now", "![p](https://evil/p.png)",
		"<div>\nhi\n</div>", "# Big\n**loud**", "&amp; &#x41;", `\[x\]`, "1. one\n- two\n> q\n| a |\n| - |",
		"para\n\n    code", "```\nx\n```", "a\r\r    b", "x\x00y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) || strings.ContainsRune(s, 0) {
			return // descriptions are cleaned first (package clean)
		}
		md := EscapeMarkdown(s)
		visible, kinds := shown(md)
		for _, k := range kinds {
			if k != "Document" && k != "Paragraph" {
				t.Fatalf("EscapeMarkdown(%q) = %q renders a %s", s, md, k)
			}
		}
		if got, want := readAs(visible), readAs(s); got != want {
			t.Fatalf("EscapeMarkdown(%q) = %q shows %q, want %q", s, md, got, want)
		}
	})
}

// What the approval would warn of is in the tool's page too, as text.
func TestMarkdownWarnings(t *testing.T) {
	md := Markdown(Tool{Display: "s.spoof", Def: &sdk.Tool{Name: "spoof"},
		Flags: []Flag{{Kind: KindHidden, Text: "its title or description held control characters, escape sequences or invisible text (removed)"}, {Kind: KindCollision, Text: "its name differs only in case from s.[x](https://evil)"}}})
	visible, _ := shown(md)
	for _, w := range []string{"Warning (hidden): its title or description held control characters", "its name differs only in case from s.[x](https://evil)."} {
		if !strings.Contains(readAs(visible), w) {
			t.Errorf("Markdown() shows %q, want %q", visible, w)
		}
	}
}
