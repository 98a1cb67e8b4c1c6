package tools

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Markdown describes a tool: name, description, annotations, schemas. What
// the server wrote (its name, title and description) is escaped to show as
// written: a server's text is untrusted, and as Markdown it could show a
// link to click, fetch an image, or pass for Deckhand's own words.
func Markdown(t Tool) string {
	d := t.Def
	var b strings.Builder
	fmt.Fprintf(&b, "## %s\n\n", EscapeMarkdown(t.Display))
	if d.Title != "" {
		fmt.Fprintf(&b, "**%s**\n\n", EscapeMarkdown(d.Title))
	}
	if d.Description != "" {
		fmt.Fprintf(&b, "%s\n\n", EscapeMarkdown(d.Description))
	}
	// What the approval warns of, said here too, where a person looks
	// the tool over before it is ever called.
	for _, f := range t.Flags {
		fmt.Fprintf(&b, "**Warning** (%s): %s.\n\n", EscapeMarkdown(f.Kind), EscapeMarkdown(f.Text))
	}
	if t.ReadOnly {
		b.WriteString("Read-only: calls may run in parallel.\n\n")
	}
	if t.Trusted {
		b.WriteString("From a trusted server: its annotations are believed.\n\n")
	} else if d.Annotations != nil {
		b.WriteString("From an untrusted server: its annotations are hints.\n\n")
	}
	add := func(label string, v any) {
		if v == nil {
			return
		}
		code := PrettyJSON(mustJSON(v))
		fence := Fence(code, 3)
		fmt.Fprintf(&b, "### %s\n\n%sjson\n%s\n%s\n\n", label, fence, code, fence)
	}
	if d.Annotations != nil {
		add("Annotations", d.Annotations)
	}
	add("Input schema", d.InputSchema)
	add("Output schema", d.OutputSchema)
	return b.String()
}

// EscapeMarkdown makes s plain text in Markdown (CommonMark, with GitHub's
// tables and strikethrough): every ASCII punctuation character becomes a
// numeric character reference, which CommonMark reads as literal text, so
// nothing in s opens a link, an autolink, an image, HTML, emphasis, a
// heading, a list, a quote or a table; and each line's leading and
// trailing blanks are dropped, so no line becomes indented code and none
// ends in a hard break (which Fyne shows without a space). Paragraph
// breaks (blank lines) stay. References rather than backslashes because Fyne's renderer shows a
// text node's source as it is, decoding HTML entities but leaving
// backslash escapes in.
func EscapeMarkdown(s string) string {
	var b strings.Builder
	b.Grow(len(s) + len(s)/4)
	for i, line := range strings.Split(s, "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		for _, r := range strings.Trim(line, " \t\r\f\v") {
			if r < 0x80 && strings.ContainsRune(markdownPunct, r) {
				fmt.Fprintf(&b, "&#%d;", r)
				continue
			}
			b.WriteRune(r)
		}
	}
	return b.String()
}

// markdownPunct is CommonMark's ASCII punctuation: the characters that
// may take part in its syntax.
const markdownPunct = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"

// Fence is a Markdown code fence (of backticks) for text: at least least
// long, and longer than any run of backticks in text, so that the text (a
// server's, a model's, a file's) cannot close its block or span and have
// its own Markdown, links included, read.
func Fence(text string, least int) string {
	longest, n := 0, 0
	for i := 0; i < len(text); i++ {
		if text[i] == '`' {
			n++
			longest = max(longest, n)
		} else {
			n = 0
		}
	}
	return strings.Repeat("`", max(least, longest+1))
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		return []byte(fmt.Sprintf("%q", err.Error()))
	}
	return b
}
