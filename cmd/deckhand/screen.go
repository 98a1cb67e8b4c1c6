//go:build deckhand_testhooks

package main

import (
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"deckhand/gui"
)

// screenOnSignal writes the screen to the file screenEnv names, at start
// and on each SIGUSR2, until the returned func is called.
func screenOnSignal(log *slog.Logger) func() {
	path := os.Getenv(screenEnv)
	if path == "" {
		return func() {}
	}
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGUSR2)
	done := make(chan struct{})
	first := make(chan struct{}, 1)
	first <- struct{}{} // once at the start: a test sees the window is up (after a restart, too)
	go func() {
		for {
			select {
			case <-done:
				return
			case <-first:
			case <-ch:
			}
			if err := writeScreen(path); err != nil {
				log.Warn("writing the screen", "err", err)
			}
		}
	}()
	return func() { signal.Stop(ch); close(done) }
}

// writeScreen writes the screen to path, whole or not at all.
func writeScreen(path string) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	err = gui.WriteScreen(f)
	f.Close()
	if err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
