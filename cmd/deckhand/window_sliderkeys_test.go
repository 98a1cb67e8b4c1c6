package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"deckhand/gui"
)

// The text-size slider at 640×480 in the light theme, by keyboard only:
// each arrow moves it one 5% step in its direction, however fast they
// come, and Tab from Close reaches Save, whose Return saves. (New-user pass
// 12: Right ×6 from 100% gave 105%, a Left made the text bigger, the value
// went 140, 140, 130; Tab after Close marked nothing and Return saved
// nothing.)
func TestWindowTextSizeByKeys(t *testing.T) {
	if !hasProgram("xdotool") {
		t.Skip("no xdotool")
	}
	cfg := scriptedConfig("http://127.0.0.1:9", "[ui]\ntheme = \"light\"\ntext_scale = 1.25\n")
	w := startRealWindow(t, cfg, nil, withDisplay("640x480"))
	w.key("ctrl+comma")
	w.waitScreen("the settings", func(s gui.Screen) bool { return shows(s, "Language model") })
	// Tab to the slider, as a person does.
	var s gui.Screen
	for i := 0; ; i++ {
		if i == 40 {
			t.Fatalf("40 Tabs did not reach the text-size slider:\n%s", s.ScreenText())
		}
		w.key("Tab")
		s = w.screen()
		if f, ok := focused(s); ok && f.Kind == "slider" && len(sliders(s)) > 0 && f.Y == sliders(s)[len(sliders(s))-1].Y {
			break
		}
	}
	value := func() string {
		f, ok := focused(w.screen())
		if !ok || f.Kind != "slider" {
			t.Fatalf("the keyboard left the slider:\n%s", w.screen().ScreenText())
		}
		return f.Text
	}
	say := func(what, want string) {
		t.Helper()
		var got string
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(150 * time.Millisecond) {
			if got = value(); got == want {
				return
			}
		}
		if got != want {
			w.keep("text-size-keys.png")
			t.Fatalf("%s: the slider is at %s, want %s", what, got, want)
		}
	}
	w.xdo("key", "Right", "Right", "Right", "Right", "Right", "Right")
	say("Right ×6 from 125%", "150.00")
	w.key("Left")
	say("then Left", "145.00")
	w.xdo("key", "Left", "Left", "Left")
	say("then Left ×3", "130.00")
	w.xdo("key", "Right", "Right", "Right", "Right", "Right")
	say("then Right ×5", "150.00")
	w.key("Left")
	say("then Left", "145.00")
	w.keep("text-size-keys-145.png")
	// Tab onto Close, then once more onto Save; Return on Save saves.
	for i := 0; ; i++ {
		if i == 10 {
			t.Fatalf("10 Tabs from the slider did not reach Close:\n%s", s.ScreenText())
		}
		w.key("Tab")
		s = w.screen()
		if f, ok := focused(s); ok && f.Kind == "button" && strings.Contains(f.Text, "Close") {
			break
		}
	}
	w.key("Tab")
	w.waitScreen("Save focused, one Tab after Close", func(s gui.Screen) bool {
		f, ok := focused(s)
		return ok && f.Kind == "button" && strings.Contains(f.Text, "Save")
	})
	w.keep("text-size-keys-save.png")
	w.key("Return")
	path := filepath.Join(w.dir, "config", "deckhand", "config.toml")
	var data []byte
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(150 * time.Millisecond) {
		if data, _ = os.ReadFile(path); strings.Contains(string(data), "text_scale = 1.45") {
			return
		}
	}
	t.Errorf("Return on Save: the config holds\n%s\nwant text_scale = 1.45", data)
}
