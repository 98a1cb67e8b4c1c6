package testutil

import (
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// Dunst asks nothing of the name org.freedesktop.Notifications before its
// dunst owns it: a call to the name while nobody owned it (dunstctl,
// polled from the start) had the bus start a second dunst from its D-Bus
// service file, on the test process's display and the person's config,
// racing the test's dunst for the name (4 of 5 starts, here with a display
// that lets it run).
func TestDunstStartsNoSecondServer(t *testing.T) {
	display := Xvfb(t, "800x600")
	t.Setenv("DISPLAY", display) // the bus's, and so a dunst it starts
	for range 3 {
		bus := SessionBus(t)
		var started atomic.Int32
		stop, done := make(chan struct{}), make(chan struct{})
		go func() {
			defer close(done)
			seen := map[string]bool{}
			for {
				select {
				case <-stop:
					return
				default:
				}
				// What the bus starts has DBUS_STARTER_ADDRESS set to it.
				envs, _ := filepath.Glob("/proc/[0-9]*/environ")
				for _, e := range envs {
					b, err := os.ReadFile(e)
					if err != nil || seen[e] || !strings.Contains(string(b), "DBUS_STARTER_ADDRESS="+bus+"\x00") {
						continue
					}
					if c, _ := os.ReadFile(filepath.Join(filepath.Dir(e), "comm")); strings.TrimSpace(string(c)) == "dunst" {
						seen[e] = true
						started.Add(1)
					}
				}
				time.Sleep(2 * time.Millisecond)
			}
		}()
		Dunst(t, display, bus, "")
		time.Sleep(300 * time.Millisecond) // one started late is still seen
		close(stop)
		<-done
		if n := started.Load(); n != 0 {
			t.Errorf("the bus started %d dunst(s) of its own while Dunst waited for the test's", n)
		}
	}
}
