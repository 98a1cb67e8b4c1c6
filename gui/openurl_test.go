package gui

import (
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"deckhand/testutil"
)

// A link opened from the window leaves no zombie behind: xdg-open is
// reaped when it ends (Fyne started it and never waited, one zombie per
// link for Deckhand's life).
func TestOpenURLReapsXdgOpen(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("xdg-open and /proc are Linux's")
	}
	t.Setenv("FLATPAK_ID", "")
	os.Unsetenv("FLATPAK_ID")
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	script := "#!/bin/sh\necho $$ > " + pidFile + ".tmp; mv " + pidFile + ".tmp " + pidFile + "\n"
	if err := os.WriteFile(filepath.Join(dir, "xdg-open"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	a := test.NewTempApp(t)
	link, _ := url.Parse("https://example.com/a?b=c")
	if err := openWith(a)(link); err != nil {
		t.Fatalf("opening %s: %v", link, err)
	}
	var pid string
	testutil.Eventually(t, 10*time.Second, func() bool {
		b, err := os.ReadFile(pidFile)
		pid = strings.TrimSpace(string(b))
		return err == nil && pid != ""
	}, "xdg-open was not started")
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		stat, err := os.ReadFile("/proc/" + pid + "/stat")
		if os.IsNotExist(err) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("xdg-open (pid %s) ended but was never reaped: /proc/%s/stat is %q", pid, pid, stat)
		}
	}
}
