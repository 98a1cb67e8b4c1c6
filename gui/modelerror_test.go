package gui

import (
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"deckhand/config"
	"deckhand/gui/guitest"
	"deckhand/testutil"
)

// chatButton is the visible button label in the chat, or nil.
func (h *harness) chatButton(label string) *widget.Button {
	for _, b := range guitest.All[*widget.Button](h.ui.chat.List) {
		if b.Text == label {
			return b
		}
	}
	return nil
}

// count is how many of the window's texts hold text.
func (h *harness) count(text string) int {
	n := 0
	for _, s := range h.texts(h.ui.win) {
		n += strings.Count(s, text)
	}
	return n
}

// A model address that answers 404 says which URL was asked and what a
// 404 there likely means, and offers Settings, which opens at the
// model's address, beside Retry.
func TestModelNotFoundOffersTheAddress(t *testing.T) {
	h := newHarness(t, harnessOptions{responses: []testutil.ModelResponse{
		{Status: 404, Body: "404 page not found\n"},
	}})
	h.say("hello")
	h.until("the 404", func() bool { return h.chatButton("Retry") != nil && !h.ui.running })
	for _, want := range []string{
		"404 Not Found from POST " + h.model.URL + "/chat/completions: 404 page not found.",
		"the model's address (Model URL in Settings, model.base_url) is likely wrong",
	} {
		if !h.shows(h.ui.win, want) {
			t.Errorf("the chat shows %q, want %q", h.texts(h.ui.win), want)
		}
	}
	if h.chatButton("Settings") == nil {
		t.Fatal("the 404 offers no Settings")
	}
	test.Tap(h.chatButton("Settings"))
	h.until("the settings at the model's address", func() bool {
		f := h.ui.settingsF
		return f != nil && f.Tabs.SelectedIndex() == 2 && f.Window().Canvas().Focused() == f.BaseURL
	})
}

// Nothing listening at the model's address: the retries and the failure
// say the error once (each retry's notice takes the place of the one
// before, and the failure takes the last's), with Settings at the address;
// so does the chat reopened from the log.
func TestUnreachableModelSaidOnce(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String() + "/v1"
	l.Close()
	one := 1
	cfg := func(c *config.Config) { c.Model.BaseURL, c.Model.MaxRetries = closed, &one }
	dbPath := filepath.Join(t.TempDir(), "deckhand.db")
	h := newHarness(t, harnessOptions{dbPath: dbPath, cfg: cfg})
	h.say("hello")
	h.until("the failure", func() bool { return h.chatButton("Retry") != nil && !h.ui.running })
	if n := h.count("is not reachable"); n != 1 {
		t.Errorf("the chat says %d times that the model is not reachable, want once: %q", n, h.texts(h.ui.win))
	}
	if !h.shows(h.ui.win, "the model server at "+closed+" is not reachable: nothing is listening there") {
		t.Errorf("the chat shows %q, want the address and why", h.texts(h.ui.win))
	}
	if h.chatButton("Settings") == nil {
		t.Fatal("the failure offers no Settings")
	}
	test.Tap(h.chatButton("Settings"))
	h.until("the settings at the model's address", func() bool {
		f := h.ui.settingsF
		return f != nil && f.Tabs.SelectedIndex() == 2 && f.Window().Canvas().Focused() == f.BaseURL
	})
	if err := h.sys.SyncLog(t.Context()); err != nil {
		t.Fatal(err)
	}
	h.ui.Stop()

	h2 := newHarness(t, harnessOptions{dbPath: dbPath, cfg: cfg})
	h2.until("the logged session", func() bool { return len(h2.ui.side.Items) == 1 })
	h2.ui.side.List.Select(0)
	h2.until("the reopened chat", func() bool { return h2.shows(h2.ui.win, "The run failed:") })
	if n := h2.count("is not reachable"); n != 1 {
		t.Errorf("the reopened chat says %d times that the model is not reachable, want once: %q", n, h2.texts(h2.ui.win))
	}
}

// Settings ▸ Check against an address that answers 404 says the URL asked,
// the status's name and what a 404 there likely means.
func TestSettingsCheckNotFound(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	srv := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(srv.Close)
	f := h.openSettings()
	f.BaseURL.SetText(srv.URL + "/v1")
	h.tap(f.Window(), "Check")
	h.until("what Check found", func() bool { return strings.Contains(f.Checked.Text, "404 Not Found") })
	for _, want := range []string{
		"GET " + srv.URL + "/v1/models: 404 Not Found: 404 page not found.",
		"the Model URL is likely wrong, with /v1 missing or one too many",
	} {
		if !strings.Contains(f.Checked.Text, want) {
			t.Errorf("Check says %q, want %q", f.Checked.Text, want)
		}
	}
}

// A configured server that fails at start shows, in its row in Servers,
// the lines of its stderr that say why: npx's E404 and the request that
// failed, not the notices and the log path (inside the sandbox) it wrote
// last.
func TestServersRowSaysWhyAServerFailed(t *testing.T) {
	npx := []string{
		"npm error code E404",
		"npm error 404 Not Found - GET https://registry.npmjs.org/@example%2fmcp-weather-does-not-exist",
		"npm error 404",
		"npm notice",
		"npm notice To update run: npm install -g npm@11.21.2",
		"npm notice",
		"npm error A complete log of this run can be found in: /home/deckhand/.npm/_logs/2026-11-27T11_07_56_229Z-debug-0.log",
	}
	weather := config.Server{Command: "sh", Args: append([]string{"-c", `printf '%s\n' "$@" >&2; exit 1`, "npx"}, npx...)}
	h := newHarness(t, harnessOptions{cfg: func(c *config.Config) {
		c.MCP.Servers = map[string]config.Server{"weather": weather}
	}})
	h.ui.showServers()
	var reason string
	h.until("weather's reason", func() bool {
		if r := h.ui.serversW.Rows["weather"]; r != nil && r.Reason.Visible() {
			reason = r.Reason.Text
		}
		return strings.Contains(reason, "exited")
	})
	for _, want := range []string{"npm error code E404", "404 Not Found - GET https://registry.npmjs.org/@example%2fmcp-weather-does-not-exist"} {
		if !strings.Contains(reason, want) {
			t.Errorf("weather's row says %q, want %q", reason, want)
		}
	}
	if strings.Contains(reason, "npm notice") || strings.Contains(reason, "_logs") {
		t.Errorf("weather's row says %q, want no notices and no log path", reason)
	}
}
