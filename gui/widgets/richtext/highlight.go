package richtext

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
)

// Syntax highlighting of code blocks, with chroma: chroma's lexers cut the
// code into tokens, and each kind of token takes a colour of the app's
// theme (keywords the primary colour, strings the success colour, comments
// the placeholder colour...). Colours so follow the theme, light or dark,
// with no palette of our own to keep readable on both.

// maxHighlight is the largest block highlighted; longer ones are plain
// (lexing is linear, but a block this long is output, not code to read).
const maxHighlight = 64 << 10

// Highlight cuts code into styled segments by its language's tokens; an
// unknown language (or none) is one plain segment.
func Highlight(code, lang string) []widget.RichTextSegment {
	code = strings.ReplaceAll(code, "\t", "    ")
	var lexer chroma.Lexer
	if lang != "" && len(code) <= maxHighlight {
		lexer = lexers.Get(lang)
	}
	if lexer == nil {
		return []widget.RichTextSegment{codeSegment(code, theme.ColorNameForeground, fyne.TextStyle{Monospace: true})}
	}
	it, err := chroma.Coalesce(lexer).Tokenise(nil, code)
	if err != nil {
		return []widget.RichTextSegment{codeSegment(code, theme.ColorNameForeground, fyne.TextStyle{Monospace: true})}
	}
	var segs []widget.RichTextSegment
	var cur *widget.TextSegment
	for tok := it(); tok != chroma.EOF; tok = it() {
		if tok.Value == "" {
			continue
		}
		name, style := tokenStyle(tok.Type)
		if cur != nil && cur.Style.ColorName == name && cur.Style.TextStyle == style {
			cur.Text += tok.Value
			continue
		}
		cur = codeSegment(tok.Value, name, style)
		segs = append(segs, cur)
	}
	if len(segs) == 0 {
		return []widget.RichTextSegment{codeSegment(code, theme.ColorNameForeground, fyne.TextStyle{Monospace: true})}
	}
	// The lexer ends the text with a line break it adds; the block has none.
	if last := segs[len(segs)-1].(*widget.TextSegment); strings.HasSuffix(last.Text, "\n") && !strings.HasSuffix(code, "\n") {
		last.Text = strings.TrimSuffix(last.Text, "\n")
	}
	return segs
}

func codeSegment(text string, color fyne.ThemeColorName, style fyne.TextStyle) *widget.TextSegment {
	return &widget.TextSegment{Text: text, Style: widget.RichTextStyle{
		Inline: true, TextStyle: style, ColorName: color, SizeName: theme.SizeNameText,
	}}
}

// tokenStyle is a token type's colour name and text style.
func tokenStyle(t chroma.TokenType) (fyne.ThemeColorName, fyne.TextStyle) {
	style := fyne.TextStyle{Monospace: true}
	switch {
	case t == chroma.Error:
		return theme.ColorNameError, style
	case t.InCategory(chroma.Comment):
		// Dimmed, not italic as well: italic monospace is a text style of
		// its own, and Fyne parses its fonts (the 4.1 MB emoji font among
		// them) once more for each style it draws, for the window's life.
		return theme.ColorNamePlaceHolder, style
	case t.InCategory(chroma.Keyword), t == chroma.NameBuiltin, t == chroma.NameTag:
		return theme.ColorNamePrimary, style
	case t.InCategory(chroma.LiteralString):
		return theme.ColorNameSuccess, style
	case t.InCategory(chroma.LiteralNumber), t == chroma.NameConstant, t == chroma.KeywordConstant:
		return theme.ColorNameWarning, style
	case t == chroma.NameFunction, t == chroma.NameClass, t == chroma.NameAttribute, t.InCategory(chroma.GenericHeading):
		return theme.ColorNameHyperlink, style
	case t == chroma.GenericInserted:
		return theme.ColorNameSuccess, style
	case t == chroma.GenericDeleted:
		return theme.ColorNameError, style
	}
	return theme.ColorNameForeground, style
}
