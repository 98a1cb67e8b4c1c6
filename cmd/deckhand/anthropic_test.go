package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"deckhand/testutil"
)

// wireRecorder sits between Deckhand and aimock and keeps each request's
// body and headers as sent (aimock's journal holds its own translation of
// the request, not the bytes).
type wireRecorder struct {
	URL     string
	mu      sync.Mutex
	bodies  []map[string]any
	headers []http.Header
}

func recordWire(t *testing.T, target string) *wireRecorder {
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	w := &wireRecorder{}
	proxy := httputil.NewSingleHostReverseProxy(&url.URL{Scheme: u.Scheme, Host: u.Host})
	proxy.FlushInterval = -1
	srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var m map[string]any
		json.Unmarshal(body, &m)
		w.mu.Lock()
		w.bodies, w.headers = append(w.bodies, m), append(w.headers, r.Header.Clone())
		w.mu.Unlock()
		r.Body = io.NopCloser(bytes.NewReader(body))
		proxy.ServeHTTP(rw, r)
	}))
	t.Cleanup(srv.Close)
	w.URL = srv.URL + u.Path
	return w
}

// deckhand chat -p with provider = "anthropic" against aimock's
// /v1/messages and server-everything: the tool loop runs to its answer
// over the Messages API (tool_use streamed as input_json_delta, results
// sent back as tool_result blocks), and the usage and cost are in the log.
func TestAnthropicChat(t *testing.T) {
	p := testutil.RequirePeers(t)
	mock := testutil.StartAIMock(t, p, filepath.Join(testutil.ModuleRoot(t), "cmd", "deckhand", "testdata", "aimock-anthropic"))
	wire := recordWire(t, mock.URL)
	const key = "sk-ant-api03-deckhand-test-0123456789"
	cfg := writeConfig(t, fmt.Sprintf(`
[model]
provider = "anthropic"
base_url = %q
name = "claude-haiku-4-5"
api_key_env = "ANTHROPIC_API_KEY"
price = { input_per_mtok = 1, output_per_mtok = 5 }

[mcp.servers.ev]
command = %q
args = [%q, "stdio"]
`, wire.URL, p.Node, p.Everything))
	dbPath := filepath.Join(t.TempDir(), "log.db")
	dh := func(args ...string) result {
		return deckhand(t, map[string]string{"ANTHROPIC_API_KEY": key}, "", append([]string{"--config", cfg, "--db", dbPath}, args...)...)
	}
	var seen strings.Builder
	for _, tt := range []struct{ prompt, stdout string }{
		{"a multi-step task", "Step one echoed, then 3 + 4 = 7. Both tools worked.\n"},
		{"do both", "Echoed and added: 42.\n"},
	} {
		// --wait: under load node may start server-everything past the
		// default 2 s, and the first request would go without its tools.
		r := dh("chat", "-p", tt.prompt, "--approve=auto", "--wait", "60s")
		seen.WriteString(r.stdout + r.stderr)
		if r.code != exitOK || !strings.HasSuffix(r.stdout, tt.stdout) {
			t.Fatalf("chat -p %q: exit %d, stdout %q, want it to end in %q\nstderr:\n%s", tt.prompt, r.code, r.stdout, tt.stdout, r.stderr)
		}
		for _, want := range []string{"✓ ev.echo", "✓ ev.get-sum"} {
			if !strings.Contains(r.stderr, want) {
				t.Errorf("chat -p %q: stderr lacks %q:\n%s", tt.prompt, want, r.stderr)
			}
		}
	}

	// What went over the wire: the Messages API's shape.
	if n := len(mock.JournalOf(t, "/messages")); n != 5 {
		t.Fatalf("aimock answered %d /messages requests, want 5", n)
	}
	reqs := wire.bodies
	for i, h := range wire.headers {
		if h.Get("x-api-key") != key || h.Get("anthropic-version") != "2023-06-01" || h.Get("Authorization") != "" {
			t.Errorf("request %d: x-api-key set %v, anthropic-version %q, Authorization %q", i+1, h.Get("x-api-key") == key, h.Get("anthropic-version"), h.Get("Authorization"))
		}
	}
	first := reqs[0]
	if first["model"] != "claude-haiku-4-5" || first["stream"] != true || first["max_tokens"] != float64(8192) {
		t.Errorf("first request: model %v, stream %v, max_tokens %v", first["model"], first["stream"], first["max_tokens"])
	}
	system, _ := first["system"].([]any)
	tools, _ := first["tools"].([]any)
	if len(system) == 0 || len(tools) == 0 {
		t.Fatalf("first request: system %v, %d tools", first["system"], len(tools))
	}
	if cc := system[len(system)-1].(map[string]any)["cache_control"]; fmt.Sprint(cc) != "map[type:ephemeral]" {
		t.Errorf("last system block's cache_control = %v", cc)
	}
	if cc := tools[len(tools)-1].(map[string]any)["cache_control"]; fmt.Sprint(cc) != "map[type:ephemeral]" {
		t.Errorf("last tool's cache_control = %v", cc)
	}
	for _, tool := range tools {
		if _, ok := tool.(map[string]any)["input_schema"]; !ok {
			t.Errorf("tool without input_schema: %v", tool)
		}
	}
	// The second round carries the call and its result; the fifth, two
	// results in one user message.
	msgs := reqs[1]["messages"].([]any)
	asst, _ := json.Marshal(msgs[len(msgs)-2])
	res, _ := json.Marshal(msgs[len(msgs)-1])
	if !strings.Contains(string(asst), `"type":"tool_use"`) || !strings.Contains(string(asst), `"id":"toolu_m1"`) || !strings.Contains(string(asst), `"input":{"message":"step one"}`) ||
		!strings.Contains(string(res), `"type":"tool_result"`) || !strings.Contains(string(res), `"tool_use_id":"toolu_m1"`) || !strings.Contains(string(res), "Echo: step one") {
		t.Errorf("second request ends with\n%s\n%s", asst, res)
	}
	msgs = reqs[4]["messages"].([]any)
	last := msgs[len(msgs)-1].(map[string]any)
	if blocks, _ := last["content"].([]any); last["role"] != "user" || len(blocks) != 2 || !strings.Contains(fmt.Sprint(blocks), "The sum of 40 and 2 is 42.") {
		t.Errorf("fifth request's last message = %v", last)
	}

	// The log: per session, the usage aimock reported and its cost.
	r := dh("sessions", "--json")
	var sessions []struct {
		ID           string  `json:"id"`
		Title        string  `json:"title"`
		InputTokens  int     `json:"input_tokens"`
		OutputTokens int     `json:"output_tokens"`
		CostUSD      float64 `json:"cost_usd"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &sessions); err != nil || len(sessions) != 2 {
		t.Fatalf("sessions --json = %q (%v)", r.stdout, err)
	}
	want := map[string][3]float64{
		"a multi-step task": {1200 + 1300 + 1400, 30 + 40 + 20},
		"do both":           {1000 + 1100, 50 + 10},
	}
	for _, s := range sessions {
		w, ok := want[s.Title]
		w[2] = (w[0]*1 + w[1]*5) / 1e6
		if !ok || s.InputTokens != int(w[0]) || s.OutputTokens != int(w[1]) || math.Abs(s.CostUSD-w[2]) > 1e-12 {
			t.Errorf("session %+v, want %v in / %v out, $%v", s, w[0], w[1], w[2])
		}
		t.Logf("session %q: %d in / %d out, $%.6f", s.Title, s.InputTokens, s.OutputTokens, s.CostUSD)
		r := dh("logs", "--session", s.ID)
		seen.WriteString(r.stdout + r.stderr)
		if line := fmt.Sprintf("%d in / %d out", s.InputTokens, s.OutputTokens); !strings.Contains(r.stdout, line) {
			t.Errorf("logs --session lacks %q:\n%s", line, r.stdout)
		}
		for _, l := range strings.Split(r.stdout, "\n") {
			if strings.Contains(l, "run.succeeded") {
				t.Logf("log: %s", strings.TrimSpace(l))
			}
		}
	}
	if strings.Contains(seen.String(), key) {
		t.Errorf("the API key reached the output")
	}
}
