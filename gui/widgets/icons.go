package widgets

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// StatusIcons are the row views' themed icons, made once per view: a new
// resource per draw would be decoded again each time. They are made with
// the window, not at package init: looking up a theme icon needs the app,
// and the terminal commands have none.
type StatusIcons struct {
	Succeeded, Failed, Denied fyne.Resource
}

func NewStatusIcons() StatusIcons {
	return StatusIcons{
		Succeeded: theme.NewSuccessThemedResource(theme.ConfirmIcon()),
		Failed:    theme.NewErrorThemedResource(theme.ErrorIcon()),
		Denied:    theme.NewWarningThemedResource(theme.CancelIcon()),
	}
}
