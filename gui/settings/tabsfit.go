package settings

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
)

// tabsFit lays out the settings' tabs so that every tab's title shows
// whole, however narrow the panel and large the text: with their icons
// when the row of tabs fits, without them when only the titles fit, and
// as a list on the left when not even those fit on one row. Fyne's tab
// bar would put the tabs that do not fit behind a "…" (its overflow
// menu), where nobody looks for Advanced.
type tabsFit struct {
	tabs  *container.AppTabs
	icons []fyne.Resource // each tab's icon, by index
	loc   container.TabLocation
}

// fitTabs wraps tabs, whose items have their icons, in a tabsFit.
func fitTabs(tabs *container.AppTabs) fyne.CanvasObject {
	l := &tabsFit{tabs: tabs, loc: container.TabLocationTop}
	for _, it := range tabs.Items {
		l.icons = append(l.icons, it.Icon)
	}
	return container.New(l, tabs)
}

// rowWidth is the width Fyne's tab bar needs for every tab in one row
// (its tab buttons: the bold title, the icon and a padding when shown,
// an inner padding each side; a padding between buttons).
func (l *tabsFit) rowWidth(icons bool) float32 {
	th := theme.CurrentForWidget(l.tabs)
	pad, inner := th.Size(theme.SizeNamePadding), th.Size(theme.SizeNameInnerPadding)
	text, icon := th.Size(theme.SizeNameText), th.Size(theme.SizeNameInlineIcon)
	var w float32
	for i, it := range l.tabs.Items {
		if i > 0 {
			w += pad
		}
		w += fyne.MeasureText(it.Text, text, fyne.TextStyle{Bold: true}).Width + 2*inner
		if icons && l.icons[i] != nil {
			w += icon + pad
		}
	}
	return w + 1 // rounding: Fyne's own sum may come out a fraction wider
}

func (l *tabsFit) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	icons, loc := true, container.TabLocationTop
	switch {
	case l.rowWidth(true) <= size.Width:
	case l.rowWidth(false) <= size.Width:
		icons = false
	default:
		icons, loc = false, container.TabLocationLeading
	}
	changed := false
	for i, it := range l.tabs.Items {
		want := l.icons[i]
		if !icons {
			want = nil
		}
		if it.Icon != want {
			it.Icon, changed = want, true
		}
	}
	if l.loc != loc {
		l.loc = loc
		l.tabs.SetTabLocation(loc) // refreshes
	} else if changed {
		l.tabs.Refresh()
	}
	for _, o := range objects {
		o.Move(fyne.Position{})
		o.Resize(size)
	}
}

func (l *tabsFit) MinSize(objects []fyne.CanvasObject) fyne.Size {
	return l.tabs.MinSize()
}
