package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"deckhand/testutil"
)

var update = flag.Bool("update", false, "rewrite the golden results in testdata")

// outcome is what one scripted response turned into, for the golden files.
type outcome struct {
	Text       string     `json:"text,omitempty"`
	Reasoning  string     `json:"reasoning,omitempty"`
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
	Usage      *Usage     `json:"usage,omitempty"`
	Finish     string     `json:"finish_reason,omitempty"`
	Deltas     int        `json:"deltas"`
	Error      string     `json:"error,omitempty"`
	Status     int        `json:"http_status,omitempty"`
	RetryAfter string     `json:"retry_after,omitempty"`
	Incomplete bool       `json:"incomplete,omitempty"`
}

func (o *outcome) MarshalJSON() ([]byte, error) {
	type plain outcome
	calls := make([]map[string]string, len(o.ToolCalls))
	for i, c := range o.ToolCalls {
		calls[i] = map[string]string{"id": c.ID, "name": c.Name, "arguments": c.Arguments}
	}
	return json.Marshal(struct {
		*plain
		ToolCalls []map[string]string `json:"tool_calls,omitempty"`
	}{(*plain)(o), calls})
}

// run sends one request and reads the whole stream.
func run(ctx context.Context, c *Client) *outcome {
	o := &outcome{}
	s, err := c.Stream(ctx, &Request{Messages: []Message{{Role: RoleUser, Content: "hi"}}})
	if err != nil {
		o.Error = strings.ReplaceAll(err.Error(), c.BaseURL, "$BASE_URL") // the port changes from run to run
		var he *HTTPError
		if errors.As(err, &he) {
			o.Status = he.Status
			if he.RetryAfter > 0 {
				o.RetryAfter = he.RetryAfter.String()
			}
		}
		return o
	}
	defer s.Close()
	var acc Accumulator
	for {
		d, err := s.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			o.Error = err.Error()
			break
		}
		o.Deltas++
		acc.Add(d)
	}
	t, err := acc.Turn()
	o.Text, o.Reasoning, o.ToolCalls, o.Usage, o.Finish = t.Text, t.Reasoning, t.ToolCalls, t.Usage, t.FinishReason
	o.Incomplete = errors.Is(err, ErrIncomplete)
	return o
}

// TestTranscripts replays the recorded server answers in testdata/streams
// and compares what the reader and accumulator make of them with the golden
// results (go test -update rewrites them).
func TestTranscripts(t *testing.T) {
	files, _ := filepath.Glob("testdata/streams/*.txtar")
	if len(files) == 0 {
		t.Fatal("no transcripts")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			script := testutil.LoadScript(t, file)
			srv := testutil.NewModelServer(t, script.Responses...)
			c := &Client{BaseURL: srv.URL, Model: "m", APIKey: "sk-test-key-1234", Timeout: 10 * time.Second}
			var got []*outcome
			for range script.Responses {
				got = append(got, run(t.Context(), c))
			}
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			enc.SetIndent("", "  ")
			enc.Encode(got)
			want := buf.String()
			if *update {
				script.UpdateWant(t, want)
				return
			}
			if diff := cmp.Diff(script.Want, want); diff != "" {
				t.Errorf("%s (-want +got):\n%s", file, diff)
			}
		})
	}
}

func TestRequestBody(t *testing.T) {
	srv := testutil.NewModelServer(t, testutil.ModelResponse{Body: testutil.TextChunks("ok")})
	temp := 0.2
	c := &Client{BaseURL: srv.URL + "/", Model: "mistral-nemo", APIKey: "sk-abc"}
	s, err := c.Stream(t.Context(), &Request{
		Messages: []Message{
			{Role: RoleSystem, Content: "be brief"},
			{Role: RoleUser, Content: "read it"},
			{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "c1", Name: "fs__read", Arguments: `{"p":1}`}}},
			{Role: RoleTool, ToolCallID: "c1", Content: "data"},
		},
		Tools:       []Tool{{Name: "fs__read", Description: "Read", Parameters: json.RawMessage(`{"type":"object","properties":{"p":{"type":"integer"}}}`)}},
		MaxTokens:   100,
		Temperature: &temp,
	})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	var got map[string]any
	json.Unmarshal(srv.Requests()[0], &got)
	want := map[string]any{
		"model":          "mistral-nemo",
		"stream":         true,
		"stream_options": map[string]any{"include_usage": true},
		"tool_choice":    "auto",
		"max_tokens":     float64(100),
		"temperature":    0.2,
		"messages": []any{
			map[string]any{"role": "system", "content": "be brief"},
			map[string]any{"role": "user", "content": "read it"},
			map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{"id": "c1", "type": "function", "function": map[string]any{"name": "fs__read", "arguments": `{"p":1}`}}}},
			map[string]any{"role": "tool", "tool_call_id": "c1", "content": "data"},
		},
		"tools": []any{map[string]any{"type": "function", "function": map[string]any{"name": "fs__read", "description": "Read",
			"parameters": map[string]any{"type": "object", "properties": map[string]any{"p": map[string]any{"type": "integer"}}}}}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("request body (-want +got):\n%s", diff)
	}
	if h := srv.Headers()[0].Get("Authorization"); h != "Bearer sk-abc" {
		t.Errorf("Authorization = %q", h)
	}
}

func TestStreamTimeout(t *testing.T) {
	srv := testutil.NewModelServer(t, testutil.ModelResponse{Body: testutil.TextChunks("late"), Delay: time.Minute})
	c := &Client{BaseURL: srv.URL, Model: "m", Timeout: 100 * time.Millisecond}
	_, err := c.Stream(t.Context(), &Request{})
	if !errors.Is(err, ErrStreamTimeout) {
		t.Errorf("Stream() against a silent server = %v, want ErrStreamTimeout", err)
	}
}

func TestAPIKeyNotInErrors(t *testing.T) {
	const key = "sk-live-0123456789abcdef"
	srv := testutil.NewModelServer(t, testutil.ModelResponse{Status: 401, Body: `{"error":{"message":"Incorrect API key provided: ` + key + `"}}`})
	c := &Client{BaseURL: srv.URL, Model: "m", APIKey: key}
	_, err := c.Stream(t.Context(), &Request{})
	if err == nil || strings.Contains(err.Error(), key) || !strings.Contains(err.Error(), "/chat/completions: Incorrect API key provided: [redacted]. Deckhand sent an API key") {
		t.Errorf("Stream() = %v, want a 401 without the key", err)
	}
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		h    string
		want time.Duration
	}{
		{"2", 2 * time.Second},
		{"0.5", 500 * time.Millisecond},
		{"Fri, 02 Jan 2026 03:04:35 GMT", 30 * time.Second},
		{"Wed, 21 Oct 2015 07:28:00 GMT", 0},
		{"soon", 0},
		{"", 0},
	}
	for _, tt := range tests {
		if got := retryAfter(tt.h, now); got != tt.want {
			t.Errorf("retryAfter(%q) = %v, want %v", tt.h, got, tt.want)
		}
	}
}

func TestEventData(t *testing.T) {
	tests := []struct {
		event  string
		want   string
		wantOK bool
	}{
		{"data: {}", "{}", true},
		{"data:{}", "{}", true},
		{"data:  two spaces", " two spaces", true},
		{"data: a\ndata: b", "a\nb", true},
		{"data: a\r\ndata: b\r\n", "a\nb", true},
		{": comment", "", false},
		{"event: ping\ndata:", "", true},
		{"id: 1\nretry: 5", "", false},
		{"data", "", true}, // a field name alone is the field with an empty value
	}
	for _, tt := range tests {
		got, ok := eventData([]byte(tt.event))
		if string(got) != tt.want || ok != tt.wantOK {
			t.Errorf("eventData(%q) = %q, %v; want %q, %v", tt.event, got, ok, tt.want, tt.wantOK)
		}
	}
}

// FuzzStream feeds arbitrary bodies through the SSE reader and the
// accumulator: nothing may panic, and the text kept is what the deltas said.
func FuzzStream(f *testing.F) {
	files, _ := filepath.Glob("testdata/streams/*.txtar")
	for _, file := range files {
		for _, r := range testutil.LoadScript(f, file).Responses {
			f.Add([]byte(r.Body))
		}
	}
	f.Add([]byte("data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":-5}]}}]}\n\n"))
	f.Fuzz(func(t *testing.T, body []byte) {
		s := &Stream{
			client: &Client{},
			body:   io.NopCloser(bytes.NewReader(body)),
			ctx:    context.Background(),
			cancel: func(error) {},
		}
		s.watchdog = time.NewTimer(time.Hour)
		s.events = newEventReader(bytes.NewReader(body))
		var acc Accumulator
		var text strings.Builder
		for range 10000 {
			d, err := s.Next()
			if err != nil {
				break
			}
			text.WriteString(d.Text)
			acc.Add(d)
		}
		turn, _ := acc.Turn()
		if turn.Text != text.String() {
			t.Fatalf("accumulated text %q, deltas said %q", turn.Text, text.String())
		}
		ids := map[string]bool{}
		for _, c := range turn.ToolCalls {
			if c.ID == "" || ids[c.ID] {
				t.Fatalf("tool call id %q empty or repeated", c.ID)
			}
			ids[c.ID] = true
		}
	})
}

// FuzzAccumulator checks the joining rules on arbitrary fragments: every call
// gets a unique id, and arguments are the fragments' text in order.
func FuzzAccumulator(f *testing.F) {
	f.Add(0, "id1", "name", `{"a"`, 0, "", "", `:1}`)
	f.Add(-1, "x", "n", "{}", -1, "y", "m", "{}")
	f.Add(-1, "", "n", "{", -1, "", "", "}")
	f.Fuzz(func(t *testing.T, i1 int, id1, n1, a1 string, i2 int, id2, n2, a2 string) {
		var acc Accumulator
		f1 := ToolCallFragment{Index: max(i1, -1), ID: id1, Name: n1, Arguments: a1}
		f2 := ToolCallFragment{Index: max(i2, -1), ID: id2, Name: n2, Arguments: a2}
		acc.Add(Delta{ToolCalls: []ToolCallFragment{f1}})
		acc.Add(Delta{ToolCalls: []ToolCallFragment{f2}, FinishReason: "tool_calls"})
		turn, err := acc.Turn()
		if err != nil {
			t.Fatal(err)
		}
		var all strings.Builder
		ids := map[string]bool{}
		for _, c := range turn.ToolCalls {
			all.WriteString(c.Arguments)
			if c.ID == "" || ids[c.ID] {
				t.Fatalf("id %q empty or repeated in %+v", c.ID, turn.ToolCalls)
			}
			ids[c.ID] = true
		}
		if len(turn.ToolCalls) == 2 && all.String() != a1+a2 {
			t.Fatalf("arguments %q, want %q", all.String(), a1+a2)
		}
		if len(turn.ToolCalls) == 1 && turn.ToolCalls[0].Arguments != a1+a2 {
			t.Fatalf("arguments %q, want %q", turn.ToolCalls[0].Arguments, a1+a2)
		}
	})
}

// A body that ends cleanly (its last chunk sent) in the middle of an event
// is a dropped connection too, not a malformed chunk; one that ends after
// whole events, without [DONE], is the answer cut short (ErrIncomplete from
// the accumulator), and a malformed event followed by the blank line that
// closes it is still malformed.
func TestEndInsideEvent(t *testing.T) {
	const whole = "data: {\"choices\":[{\"delta\":{\"content\":\"Hi\"}}]}\n\n"
	tests := []struct {
		name, body string
		want       error  // the error Next ends with
		text       string // "" : not checked
	}{
		{"half a data line", whole + "data: {\"choices\":[{\"del", ErrDropped, ""},
		{"half a line with CRLF events", strings.ReplaceAll(whole, "\n", "\r\n") + "data: {\"cho", ErrDropped, ""},
		{"whole events only", whole, io.EOF, ""},
		{"malformed but whole", whole + "data: {\"choices\":\n\n", nil, "malformed chunk"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/event-stream")
				io.WriteString(w, tt.body)
			}))
			defer srv.Close()
			c := &Client{BaseURL: srv.URL, Model: "m", Timeout: 10 * time.Second}
			s, err := c.Stream(t.Context(), &Request{Messages: []Message{{Role: RoleUser, Content: "hi"}}})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			var text string
			for {
				d, err := s.Next()
				text += d.Text
				if err == nil {
					continue
				}
				switch {
				case tt.want != nil && !errors.Is(err, tt.want):
					t.Errorf("Next() = %v, want %v", err, tt.want)
				case tt.want == nil && !strings.Contains(err.Error(), tt.text):
					t.Errorf("Next() = %v, want an error mentioning %q", err, tt.text)
				}
				break
			}
			if text != "Hi" {
				t.Errorf("text = %q, want the whole event's %q", text, "Hi")
			}
		})
	}
}
