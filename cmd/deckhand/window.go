package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/godbus/dbus/v5"

	"deckhand/actors"
	"deckhand/apps"
	"deckhand/assets"
	"deckhand/config"
	"deckhand/gui"
	"deckhand/gui/desktop"
	"deckhand/gui/setup"
	"deckhand/tools"
)

// appID is Deckhand's application ID, as in FyneApp.toml: Fyne keys the
// app's preferences and storage by it.
const appID = "dev.deckhand.app"

// screenEnv names a file: with it set, in a build with the test hooks,
// SIGUSR2 writes there what every window shows (gui.Screen, JSON): the
// texts, buttons and fields with their places, for tests that drive the
// real window with xdotool and find a button by what it says, not by a
// pixel. Without it, nothing listens.
const screenEnv = "DECKHAND_TEST_SCREEN"

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
	var cerr *config.Error
	if errors.As(err, &cerr) {
		// A config that does not read means a window that says why, not
		// no window at all.
		return e.configProblem(ctx, err)
	}
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
	// Before any server runs: views run the helper opened now, whatever
	// a program that may write its folder puts there later. Where it is
	// missing, a card's Open view says so.
	apps.OpenHelper()
	sys := e.startApp(cfg)
	defer e.stopSystem(sys)
	go settleStart(ctx, e.log, sys)

	defer memoryUpkeep(e.log)()
	defer cpuProfile(e.log)()
	makeCacheDir()
	a := desktop.New(appID, assets.IconPNG)
	// The tray menu goes in whenever there is a session bus: Fyne starts
	// its tray only before the app runs, and registers the item with a
	// tray host whenever one comes (a panel that starts after Deckhand, or
	// restarts). Whether closing the window hides it follows the host.
	bus, _ := dbus.SessionBus()
	ui := gui.New(gui.Deps{
		App:       a.Fyne(),
		System:    sys,
		Config:    cfg,
		Log:       e.logDB,
		Logger:    e.log,
		Icon:      a.Icon(),
		Tray:      bus != nil,
		LookupEnv: e.getenv,
		Notices:   notices,
		Primary:   desktop.NewPrimary(e.log),
		Quiet: func() {
			// At rest: the catalog builders' indexes go too, made again
			// by the next server's change (see chat's), and so do the
			// compiled expressions that flag tool definitions.
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			if err := sys.Settle(ctx); err != nil {
				e.log.Warn("settling the catalog", "err", err)
			}
			tools.ReleaseFilters()
			giveBack()
		},
	})
	ui.Start()
	defer screenOnSignal(e.log)()
	if bus != nil {
		host := trayHost(bus)
		ui.SetTrayHost(host)
		if !host {
			e.log.Warn("no system tray host (org.kde.StatusNotifierWatcher) on the session bus yet: the tray icon shows once one starts; until then closing the window quits")
		}
		unwatch := watchTrayHost(bus, func(up bool) {
			e.log.Info("system tray host", "up", up)
			a.Do(func() { ui.SetTrayHost(up) })
			if up {
				ensureTrayItem(bus, e.log)
			}
		})
		defer unwatch()
	} else {
		e.log.Warn("no session bus: no tray menu and no notifications; closing the window quits")
	}
	stop := context.AfterFunc(ctx, a.Quit)
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

// trayWatcher is the bus name of the StatusNotifierWatcher, which tray
// hosts (the tray of KDE, GNOME with AppIndicator, XFCE, …) own or start.
const trayWatcher = "org.kde.StatusNotifierWatcher"

// trayHost reports whether a StatusNotifier host is on the session bus now.
// Without one Fyne's tray cannot show, and closing the window must quit
// instead of hiding it.
func trayHost(conn *dbus.Conn) bool {
	var has bool
	err := conn.BusObject().Call("org.freedesktop.DBus.NameHasOwner", 0, trayWatcher).Store(&has)
	return err == nil && has
}

// watchTrayHost calls changed, from a goroutine of its own, each time a
// tray host comes to the session bus or leaves it, until the returned
// function is called.
func watchTrayHost(conn *dbus.Conn, changed func(up bool)) (stop func()) {
	match := []dbus.MatchOption{
		dbus.WithMatchSender("org.freedesktop.DBus"),
		dbus.WithMatchInterface("org.freedesktop.DBus"),
		dbus.WithMatchMember("NameOwnerChanged"),
		dbus.WithMatchArg(0, trayWatcher),
	}
	if err := conn.AddMatchSignal(match...); err != nil {
		return func() {}
	}
	signals := make(chan *dbus.Signal, 16)
	conn.Signal(signals) // every signal the connection receives: filtered below
	done := make(chan struct{})
	go func() {
		for {
			select {
			case sig, ok := <-signals:
				if !ok {
					return
				}
				if sig.Name != "org.freedesktop.DBus.NameOwnerChanged" || len(sig.Body) < 3 {
					continue
				}
				name, _ := sig.Body[0].(string)
				owner, _ := sig.Body[2].(string)
				if name == trayWatcher {
					changed(owner != "")
				}
			case <-done:
				return
			}
		}
	}()
	return func() {
		close(done)
		conn.RemoveSignal(signals)
		conn.RemoveMatchSignal(match...)
	}
}

// trayItemPath is where Fyne's tray (fyne.io/systray) exports Deckhand's
// StatusNotifierItem, on the shared session bus connection.
const trayItemPath = "/StatusNotifierItem"

// ensureTrayItem makes sure a tray host that has just come sees Deckhand's
// item. Fyne's tray registers the item the moment the watcher's name
// appears, but a watcher may take its name before it serves its object
// (status-notifier-watcher does): that registration fails with
// UnknownObject and is not tried again, and the icon never shows. So ask
// the watcher, for a few seconds, whether it lists the item, and register
// it when it does not.
func ensureTrayItem(conn *dbus.Conn, log *slog.Logger) {
	names := conn.Names()
	if len(names) == 0 {
		return
	}
	self := names[0] // the unique name, which the watcher lists the item by
	watcher := conn.Object(trayWatcher, "/StatusNotifierWatcher")
	delay := 100 * time.Millisecond
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); delay = min(2*delay, time.Second) {
		time.Sleep(delay)
		v, err := watcher.GetProperty(trayWatcher + ".RegisteredStatusNotifierItems")
		if err != nil {
			continue // not serving yet
		}
		items, _ := v.Value().([]string)
		for _, it := range items {
			if it == self || strings.HasPrefix(it, self+"/") {
				return
			}
		}
		if call := watcher.Call(trayWatcher+".RegisterStatusNotifierItem", 0, trayItemPath); call.Err != nil {
			log.Debug("registering the tray item", "err", call.Err)
			continue
		}
		log.Info("registered the tray item with a tray host that came late")
		return
	}
}

// configProblem shows why the config cannot be read, with ways out; once
// it reads (or the defaults are in place), Deckhand starts again, whole.
func (e *env) configProblem(ctx context.Context, problem error) error {
	path := e.configPath
	if path == "" {
		var err error
		if path, err = config.DefaultPath(); err != nil {
			return err
		}
	}
	fmt.Fprintf(e.stderr, "deckhand: %v\n", problem)
	makeCacheDir()
	a := desktop.New(appID, assets.IconPNG)
	restart := false
	setup.ShowConfigProblem(a.Fyne(), setup.ConfigProblem{
		Path: path, Problem: problem, Icon: a.Icon(),
		Retry: func() error {
			_, err := config.LoadForUpdate(path)
			return err
		},
		Defaults: func() (string, error) {
			aside := path + ".broken-" + time.Now().Format("20060102-150405")
			return aside, os.Rename(path, aside)
		},
		Done: func() { restart = true; a.Fyne().Quit() },
	})
	defer screenOnSignal(e.log)()
	stop := context.AfterFunc(ctx, a.Quit)
	defer stop()
	a.Run()
	if !restart {
		return nil
	}
	// Start over as a new process: the tray, the log and the servers come
	// up as on any start.
	return restartSelf()
}

// runningBinary is the file this process runs, by its inode: the kernel's
// link to it stays on that file when its path is given another (a program
// that may write the folder of Deckhand's binary removed it and put one
// of its own there; os.Executable would name that path, dropping
// " (deleted)").
const runningBinary = "/proc/self/exe"

// restartSelf becomes a new run of the binary this process runs (never
// what is at its path now), with the same arguments (argv[0] as it was)
// and environment. It returns only on failure.
func restartSelf() error {
	return syscall.Exec(runningBinary, os.Args, os.Environ())
}

// startSettle is how long the window's start waits for its servers before
// it gives memory back: one still connecting then rebuilds what it needs.
const startSettle = 30 * time.Second

// settleStart waits until the servers' first connections have an outcome
// (or startSettle has passed), then gives back what the start made and no
// longer needs, as chat does once its servers are ready: the catalog
// builders' indexes, the compiled expressions that flag tool definitions,
// the garbage of the listings and of the first frames. Before, this waited
// for the first Quiet, a minute after the window last changed, which a
// server that keeps failing put off (not run 100 s after start, the
// filters still compiled). Idle window, a server down (the fast loop of the
// README's window memory): anonymous memory 66.0 → 63.7 MB, no more CPU; with
// chat's packStart (GOGC 25) as well 62.7 MB but 0.45 s more CPU at start
// (GOGC 50: 63.5 MB, +0.05 s), not taken.
func settleStart(ctx context.Context, log *slog.Logger, sys *actors.System) {
	wctx, cancel := context.WithTimeout(ctx, startSettle)
	_, err := sys.ServerStatuses(wctx, true)
	cancel()
	if err != nil || ctx.Err() != nil {
		return
	}
	sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := sys.Settle(sctx); err != nil {
		if ctx.Err() == nil {
			log.Warn("settling the catalog", "err", err)
		}
		return
	}
	tools.ReleaseFilters()
	giveBack()
	log.Info("start settled: memory given back")
}
