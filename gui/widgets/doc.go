// Package widgets holds Fyne widgets that know nothing of Deckhand, for
// the window's screens to build on: an image shown large (ImageView),
// form entries that grow with their text and hand the wheel to their
// page (Growing, OverPage), a label held at
// its widest width, captions in the subdued colour (Caption, DimLabel),
// status icons, an entry that takes Escape (EscEntry), a select, a check
// box and a radio that hand Escape to the window (EscSelect, EscCheck,
// EscRadio), a box to write a
// message in where Enter sends and a middle click pastes the primary
// selection (MessageEntry, PrimarySelection), a find bar's box
// (FindEntry), an image that fits its width (FitImage), content told of
// the pointer (HoverArea), buttons that name themselves on hover
// (TipButton, on a Tips layer), half the paddings for a compact line
// (Compact), the theme's background (Backdrop), an indent
// (Inset) and laying a tree out again (Relayout), the dialogs'
// buttons ringed while focused (RingButton), Enter and Escape for Fyne's
// dialogs (DialogKeys; ShowError, ShowInformation, ShowConfirm), the
// secondary windows' keys (CloseKeys, QuitKey), the keys typed while
// another window opens (KeyRelay), and the few words they share
// (Shorten, Elapsed, Plural). Text that can be selected, searched and
// copied (Markdown, code, tables) is its subpackage richtext.
//
// Concurrency: like every Fyne widget, these are touched only on Fyne's
// goroutine; ImageView decodes on a goroutine of its own and hands the
// bitmap back through the post function it is given.
package widgets
