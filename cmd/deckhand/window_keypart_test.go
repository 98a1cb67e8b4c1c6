package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"deckhand/gui"
	"deckhand/testutil"
)

// A model server that echoes part of the API key in its refusal (its
// first 18 of 24 characters, its last 10, its first 20 and last 4, as
// providers do) gets none of it, 8 characters or more, into the window,
// the SQLite log (its -wal too) or `sessions export`. (New-user pass 13,
// F11: the first 18 were shown and logged; only the whole key was
// redacted.)
func TestWindowModelEchoesPartOfKey(t *testing.T) {
	const key = "sk-test-SECRETKEY-424242"
	echo := "Incorrect API key provided: " + key[:18] + ". Yours ends in " + key[14:] + "; the key " + key[:20] + "****" + key[20:] + " is not valid."
	refusal := testutil.ModelResponse{Status: 401, Header: map[string]string{"Content-Type": "application/json"},
		Body: `{"error":{"message":` + strings.TrimSpace(mustJSON(echo)) + `}}`}
	model := testutil.NewModelServer(t)
	model.Fallback = func(map[string]any) testutil.ModelResponse { return refusal }
	w := startRealWindow(t, fmt.Sprintf("[model]\nbase_url = %q\nname = \"scripted\"\napi_key_env = \"DH_PART_KEY\"\n\n[tools]\nenabled = false\n", model.URL), nil, withEnv("DH_PART_KEY="+key))
	// The key comes from a variable the config names.
	cfgPath := filepath.Join(w.dir, "config", "deckhand", "config.toml")
	w.say("hello")
	s := w.waitScreen("the refusal", func(s gui.Screen) bool { return shows(s, "401") && shows(s, "Incorrect API key provided") })
	if got := model.Headers(); len(got) == 0 || got[len(got)-1].Get("Authorization") != "Bearer "+key {
		t.Fatalf("the key was not sent")
	}
	leaks := func(where, text string) {
		t.Helper()
		for i := 0; i+8 <= len(key); i++ {
			if at := strings.Index(text, key[i:i+8]); at >= 0 {
				t.Errorf("%s holds %q of the key: …%q…", where, key[i:i+8], text[max(at-80, 0):min(at+80, len(text))])
				return
			}
		}
	}
	leaks("the window", s.ScreenText())
	w.keep("key-part-refused.png")

	dbPath := filepath.Join(w.dir, "data", "deckhand", "deckhand.db")
	var files string
	testutil.Eventually(t, 30*time.Second, func() bool {
		files = ""
		for _, f := range []string{dbPath, dbPath + "-wal"} {
			data, _ := os.ReadFile(f)
			files += string(data)
		}
		return strings.Contains(files, "Incorrect API key provided")
	}, "the refusal never reached the log")
	leaks("the SQLite log", files)

	// The command line, as the person would run it beside the window.
	dh := func(args ...string) result {
		cmd := exec.Command(w.cmd.Path, append([]string{"--config", cfgPath, "--db", dbPath}, args...)...)
		cmd.Env, cmd.Dir = w.cmd.Env, w.dir
		return runCmd(t, cmd)
	}
	var sessions []struct{ ID string }
	json.Unmarshal([]byte(dh("sessions", "--json").stdout), &sessions)
	if len(sessions) != 1 {
		t.Fatalf("sessions: %v", sessions)
	}
	for _, format := range []string{"markdown", "json"} {
		r := dh("sessions", "export", sessions[0].ID, "--format", format)
		if r.code != exitOK || !strings.Contains(r.stdout, "Incorrect API key provided") {
			t.Fatalf("export %s: exit %d, %s\n%s", format, r.code, r.stderr, r.stdout)
		}
		leaks("the "+format+" export", r.stdout)
	}
}

func mustJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
