package servers_test

import (
	"strings"
	"testing"

	"deckhand/actors/servers"
	"deckhand/actors/servers/serverstest"
	"deckhand/config"
)

// A configured server that fails at start says why in its status, which the
// Servers page shows: npx's E404 and the request that failed, as npx
// wrote them first, not the notices and the log path (inside the sandbox)
// that it wrote last; escape sequences stripped.
func TestStartFailureSaysWhy(t *testing.T) {
	npx := []string{
		"\x1b[31mnpm error\x1b[39m code E404",
		"npm error 404 Not Found - GET https://registry.npmjs.org/@example%2fmcp-weather-does-not-exist",
		"npm error 404",
		"npm error 404  The requested resource '@example/mcp-weather-does-not-exist@*' could not be found or you do not have permission to access it.",
		"npm notice",
		"npm notice New minor version of npm available! 11.19.1 -> 11.21.2",
		"npm notice To update run: npm install -g npm@11.21.2",
		"npm notice",
		"npm error A complete log of this run can be found in: /home/deckhand/.npm/_logs/2026-11-27T11_07_56_229Z-debug-0.log",
	}
	weather := config.Server{Command: "sh", Args: append([]string{"-c", `printf '%s\n' "$@" >&2; exit 1`, "npx"}, npx...)}
	s := serverstest.Start(t, servers.Options{Servers: map[string]config.Server{"weather": weather}})
	st := serverstest.ExpectStatus(t, s.Events, "weather", servers.StateFailed)
	for _, want := range []string{"exited (exit status 1)", "npm error code E404", "404 Not Found - GET https://registry.npmjs.org/@example%2fmcp-weather-does-not-exist"} {
		if !strings.Contains(st.Reason, want) {
			t.Errorf("weather's Reason = %q, want it to contain %q", st.Reason, want)
		}
	}
	for _, dont := range []string{"\x1b", "npm notice", "_logs"} {
		if strings.Contains(st.Reason, dont) {
			t.Errorf("weather's Reason = %q, want no %q", st.Reason, dont)
		}
	}
}
