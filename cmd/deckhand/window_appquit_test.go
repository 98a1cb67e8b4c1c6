package main

import (
	"syscall"
	"testing"
	"time"

	"deckhand/gui"
	"deckhand/testutil"
)

// Deckhand quits on SIGTERM with a tool's view open and the view's
// question (Send this message?) showing: the view is closed, its helper
// and WebKit's processes end, and Deckhand exits 0 (a run of
// TestWindowAppViewAfterRestart once waited 30 s for it in vain). Run it
// with -count 5: the hang was rare.
func TestWindowAppViewQuitsOnSIGTERM(t *testing.T) {
	w, view, _ := openTimeView(t)
	helper := viewHelper(t, w)

	w.xdo("windowactivate", "--sync", view)
	w.xdo("mousemove", "--window", view, "220", "229")
	w.xdo("click", "1")
	w.waitScreen("the proposed message", func(s gui.Screen) bool {
		return shows(s, "The view of app.get-time proposes this message")
	})

	w.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- w.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Deckhand quit on SIGTERM with %v, want exit 0; stderr:\n%s", err, w.stderr)
		}
	case <-time.After(40 * time.Second):
		t.Fatalf("Deckhand did not quit on SIGTERM with a view open; stderr:\n%s", w.stderr)
	}
	testutil.Eventually(t, 10*time.Second, func() bool { return testutil.ProcessGone(helper) && !groupAlive(helper) },
		"the view's processes outlived Deckhand")
}
