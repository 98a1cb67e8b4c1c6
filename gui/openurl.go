package gui

import (
	"net/url"
	"os"
	"os/exec"
	"runtime"

	"fyne.io/fyne/v2"
)

// openWith is how the window opens a link or a folder: Fyne's App.OpenURL,
// except on the desktops where Fyne starts xdg-open and never waits for it
// (Fyne v2.8.1's app_xdg.go), which left one zombie process per link
// opened for as long as Deckhand ran, and gave xdg-open Deckhand's own
// standard input and output. There xdg-open is started with neither and
// reaped when it ends. Inside Flatpak (FLATPAK_ID set) Fyne's own way is
// kept.
func openWith(a fyne.App) func(*url.URL) error {
	switch runtime.GOOS {
	case "linux", "freebsd", "openbsd", "netbsd", "dragonfly":
	default:
		return a.OpenURL
	}
	if _, flatpak := os.LookupEnv("FLATPAK_ID"); flatpak {
		return a.OpenURL
	}
	return func(link *url.URL) error {
		cmd := exec.Command("xdg-open", link.String())
		if err := cmd.Start(); err != nil {
			return err
		}
		go cmd.Wait() // reaps it; its exit status says nothing more than Start did
		return nil
	}
}
