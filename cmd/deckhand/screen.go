package main

import (
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"deckhand/gui"
)

// screenEnv names a file: with it set, SIGUSR2 writes there what every
// window shows (gui.Screen, JSON): the texts, buttons and fields with their
// places, for tests that drive the real window with xdotool and find a
// button by what it says, not by a pixel. Without it, nothing listens.
const screenEnv = "DECKHAND_TEST_SCREEN"

func screenOnSignal(log *slog.Logger) func() {
	path := os.Getenv(screenEnv)
	if path == "" {
		return func() {}
	}
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGUSR2)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-done:
				return
			case <-ch:
				tmp := path + ".tmp"
				f, err := os.Create(tmp)
				if err != nil {
					log.Warn("writing the screen", "err", err)
					continue
				}
				err = gui.WriteScreen(f)
				f.Close()
				if err == nil {
					err = os.Rename(tmp, path)
				}
				if err != nil {
					log.Warn("writing the screen", "err", err)
				}
			}
		}
	}()
	return func() { signal.Stop(ch); close(done) }
}
