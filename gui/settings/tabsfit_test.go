package settings

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"deckhand/gui/guitest"
)

// The settings' tabs keep every title in sight as the panel narrows:
// with icons while the row fits, then without, then as a list on the
// left; at each step Fyne's tab bar has no "…" (overflow) button, so the
// width tabsFit reckons is no less than the bar's own; wider again, the
// icons come back on top.
func TestTabsFit(t *testing.T) {
	test.NewTempApp(t)
	tabs := container.NewAppTabs(
		container.NewTabItemWithIcon("General", theme.SettingsIcon(), widget.NewLabel("g")),
		container.NewTabItemWithIcon("Permissions", theme.AccountIcon(), widget.NewLabel("p")),
		container.NewTabItemWithIcon("Advanced", theme.ComputerIcon(), widget.NewLabel("a")),
	)
	o := fitTabs(tabs)
	l := o.(*fyne.Container).Layout.(*tabsFit)
	withIcons, without := l.rowWidth(true), l.rowWidth(false)
	for _, step := range []struct {
		width float32
		icons bool
		loc   container.TabLocation
	}{
		{withIcons, true, container.TabLocationTop},
		{withIcons - 2, false, container.TabLocationTop},
		{without, false, container.TabLocationTop},
		{without - 2, false, container.TabLocationLeading},
		{withIcons + 50, true, container.TabLocationTop},
	} {
		o.Resize(fyne.NewSize(step.width, 400))
		for _, it := range tabs.Items {
			if (it.Icon != nil) != step.icons {
				t.Errorf("%.0f px wide: %s's icon shown %v, want %v", step.width, it.Text, it.Icon != nil, step.icons)
			}
		}
		if l.loc != step.loc {
			t.Errorf("%.0f px wide: the tabs at %v, want %v", step.width, l.loc, step.loc)
		}
		overflow := false
		for _, b := range guitest.All[*widget.Button](tabs) {
			overflow = overflow || b.Icon != nil && b.Icon.Name() == theme.MoreHorizontalIcon().Name()
		}
		if overflow {
			t.Errorf("%.0f px wide: the tab bar puts tabs behind its \"…\"", step.width)
		}
	}
}
