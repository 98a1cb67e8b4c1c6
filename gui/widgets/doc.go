// Package widgets holds Fyne widgets that know nothing of Deckhand, for
// the window's screens to build on. An image shown large or fitted to
// its width is its subpackage imageview; text that can be selected,
// searched and copied (Markdown, code, tables) is its subpackage
// richtext.
//
// Files:
//   - pagefocus.go: a page's entries, selects and checks whose focus
//     scrolls them into view (PageEntry, PageSelect, PageCheck, InView);
//     pagewheel.go: entries that grow with their text and hand the wheel
//     to their page (Growing, OverPage); narrowform.go: a form whose
//     labels go above their fields in a narrow window.
//   - entry.go: an entry that takes Escape (EscEntry); esccontrols.go: a
//     select, a check box and a radio that hand Escape to the window
//     (EscSelect, EscCheck, EscRadio); message.go: a box to write a
//     message in where Enter sends and a middle click pastes the primary
//     selection (MessageEntry; primary.go: PrimarySelection);
//     findentry.go: a find bar's box (FindEntry).
//   - ringbutton.go: the dialogs' buttons, ringed while focused
//     (RingButton; NewRing rings another widget); dialogkeys.go: Enter and Escape for Fyne's dialogs
//     (DialogKeys; ShowError, ShowInformation, ShowConfirm); keys.go: the
//     secondary windows' keys (CloseKeys, QuitKey); keyrelay.go: the keys
//     typed while another window opens (KeyRelay).
//   - tip.go: buttons that name themselves on hover (TipButton, on a Tips
//     layer); hover.go: content told of the pointer (HoverArea).
//   - labels.go: captions in the subdued colour (Caption, DimLabel,
//     Subtle), hints, a dangerous choice confirmed (ConfirmDanger);
//     fixedwidth.go: a label held at its widest width; icons.go: status
//     icons (StatusIcons).
//   - compact.go: half the paddings for a compact line (Compact);
//     backdrop.go: the theme's background (Backdrop); layout.go: an
//     indent (Inset) and laying a tree out again (Relayout); set.go:
//     setters that touch a widget only when its value changes.
//   - text.go: the few words they share (Shorten, Elapsed, Plural).
//
// State: each widget holds its own; what it does (a button's action, a
// dialog's answer) is its caller's, handed in as functions.
//
// Concurrency: like every Fyne widget, these are touched only on Fyne's
// goroutine.
package widgets
