package servers

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"deckhand/config"
	"deckhand/gui/widgets"
	"deckhand/tools"
)

// The built-in tools server ("local", package toolserver): its row says
// what it is and where a person adds a tool, with the folder a click away.
// A new user saw "local · in-process · 13 tools" and nothing more: the
// folder and the format were only in the README.

// localAbout is the line under local's row: what the server is, the
// folder its definitions are read from (dir, "~/" for the home folder),
// and the command that prints their format.
func localAbout(dir string) string {
	return "Command-line programs as tools. Add one: a JSON file in " + homeShort(dir) +
		"  ·  format: deckhand tools schema"
}

// homeShort writes a path in the home folder as "~/…".
func homeShort(p string) string {
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return p
	}
	if rel, err := filepath.Rel(home, p); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
		return "~/" + rel
	}
	return p
}

// openToolsFolder opens the definitions' folder in the desktop's file
// manager (a file: URL, as the browser's links are opened), making it
// first: a new user's has no folder yet.
func (s *Panel) openToolsFolder() {
	dir := s.host.Config().Tools.DefinitionsDir()
	if dir == "" {
		widgets.ShowError(fmt.Errorf("no folder for tool definitions: the config folder is unknown"), s.Win)
		return
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		widgets.ShowError(fmt.Errorf("making the tools folder: %w", err), s.Win)
		return
	}
	if err := s.host.OpenURL(&url.URL{Scheme: "file", Path: dir}); err != nil {
		widgets.ShowError(fmt.Errorf("opening %s: %w", dir, err), s.Win)
	}
}

// localPart is local's line and its Open folder button; nil, nil for any
// other server.
func (s *Panel) localPart(alias string, r *Row) (fyne.CanvasObject, *widget.Button) {
	if alias != config.LocalAlias {
		return nil, nil
	}
	l, obj := widgets.Caption(localAbout(s.host.Config().Tools.DefinitionsDir()))
	l.Wrapping = fyne.TextWrapWord
	r.About = l
	r.OpenFolder = widget.NewButtonWithIcon("Open folder", theme.FolderOpenIcon(), s.openToolsFolder)
	return obj, r.OpenFolder
}

// offNote is what the tools page says of a tool left out as the person's
// settings ask (the built-in shell with shell commands off): the place in
// the window that turns them on, not only the config key.
func offNote(cfg *config.Config, r tools.Rejected) string {
	// Short enough to show whole on the page's one line (notesBar folds
	// a note of 80 characters or more): cut, the place was lost.
	if cfg.Shell.Disabled {
		return fmt.Sprintf("%s is off: shell.disabled is set in the config file", r.Name)
	}
	return fmt.Sprintf("%s is off: turn on Settings ▸ Permissions ▸ Allow shell commands", r.Name)
}
