package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"
	"github.com/godbus/dbus/v5"

	"deckhand/assets"
	"deckhand/gui"
)

// appID is Deckhand's application ID, as in FyneApp.toml: Fyne keys the
// app's preferences and storage by it.
const appID = "dev.deckhand.app"

// hasDisplay reports whether a window can be opened.
func (e *env) hasDisplay() bool {
	for _, v := range []string{"DISPLAY", "WAYLAND_DISPLAY"} {
		if s, ok := e.getenv(v); ok && s != "" {
			return true
		}
	}
	return false
}

// runWindow opens Deckhand's window and runs until it is closed (or quit
// from the tray).
func runWindow(ctx context.Context, e *env, args []string) error {
	if len(args) > 0 {
		return usagef("window takes no arguments")
	}
	if !e.hasDisplay() {
		return errors.New("no display to open the window on (DISPLAY and WAYLAND_DISPLAY are unset): try deckhand chat")
	}
	cfg, err := e.loadConfigForUpdate()
	if err != nil {
		return err
	}
	// The window runs without a log rather than not at all: the person
	// sees why in the window's first notice.
	var notices []string
	db, err := e.openLog(ctx)
	if err != nil {
		notices = append(notices, "Sessions are not being recorded: "+err.Error())
	} else {
		defer db.Close()
		e.logDB = db
	}
	sys := e.startSystem(cfg)
	defer e.stopSystem(sys)

	makeCacheDir()
	a := app.NewWithID(appID)
	icon := fyne.NewStaticResource("deckhand.png", assets.IconPNG)
	a.SetIcon(icon)
	tray := trayHost()
	if !tray {
		e.log.Warn("no system tray host (org.kde.StatusNotifierWatcher) on the session bus: no tray menu; closing the window quits")
	}
	ui := gui.New(gui.Deps{
		App:       a,
		System:    sys,
		Config:    cfg,
		Log:       e.logDB,
		Logger:    e.log,
		Icon:      icon,
		Tray:      tray,
		LookupEnv: e.getenv,
		Notices:   notices,
	})
	ui.Start()
	stop := context.AfterFunc(ctx, func() { fyne.Do(a.Quit) })
	defer stop()
	a.Run()
	ui.Stop()
	return nil
}

// makeCacheDir makes Fyne's cache folder (~/.cache/fyne) ahead of Fyne,
// which creates only its last two levels and complains on stderr, at first
// launch, when ~/.cache itself does not exist yet.
func makeCacheDir() {
	if dir, err := os.UserCacheDir(); err == nil {
		os.MkdirAll(filepath.Join(dir, "fyne"), 0o700)
	}
}

// trayHost reports whether a StatusNotifier host (the tray of KDE, GNOME
// with AppIndicator, XFCE, …) is on the session bus. Without one Fyne's
// tray cannot show, and closing the window must quit instead of hiding it.
func trayHost() bool {
	conn, err := dbus.SessionBus()
	if err != nil {
		return false
	}
	var has bool
	err = conn.BusObject().Call("org.freedesktop.DBus.NameHasOwner", 0, "org.kde.StatusNotifierWatcher").Store(&has)
	return err == nil && has
}
