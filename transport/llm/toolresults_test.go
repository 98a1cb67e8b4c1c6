package llm

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// strictTemplate is a model server whose chat template knows only user and
// assistant, as mistral-nemo's: a role "tool" message, or two turns of one
// role in a row, is a 400 with Jinja's message. It records the roles of
// every request.
type strictTemplate struct {
	mu    sync.Mutex
	roles [][]string
	last  []Message
}

func (st *strictTemplate) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Messages []struct {
			Role      string          `json:"role"`
			Content   string          `json:"content"`
			ToolCalls json.RawMessage `json:"tool_calls"`
		} `json:"messages"`
	}
	json.NewDecoder(r.Body).Decode(&body)
	var roles []string
	var msgs []Message
	prev := ""
	refuse := false
	for _, m := range body.Messages {
		roles = append(roles, m.Role)
		msgs = append(msgs, Message{Role: m.Role, Content: m.Content})
		if m.Role == RoleTool || m.Role != RoleSystem && m.Role == prev {
			refuse = true
		}
		prev = m.Role
	}
	st.mu.Lock()
	st.roles = append(st.roles, roles)
	st.last = msgs
	st.mu.Unlock()
	if refuse {
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, `{"error":{"code":400,"message":"Conversation roles must alternate user/assistant/user/assistant/...","type":"invalid_request_error"}}`)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	io.WriteString(w, "data: {\"choices\":[{\"delta\":{\"content\":\"ok\"}}]}\n\ndata: [DONE]\n\n")
}

func (st *strictTemplate) requests() [][]string {
	st.mu.Lock()
	defer st.mu.Unlock()
	return append([][]string(nil), st.roles...)
}

// a round of two tool calls and a command's output after them
var toolRound = []Message{
	{Role: RoleSystem, Content: "sys"},
	{Role: RoleUser, Content: "add and echo"},
	{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "c1", Name: "ev__get-sum", Arguments: `{"a":1,"b":2}`}, {ID: "c2", Name: "ev__echo", Arguments: `{}`}}},
	{Role: RoleTool, ToolCallID: "c1", Content: "3"},
	{Role: RoleTool, ToolCallID: "c2", Content: "hi"},
	{Role: RoleUser, Content: "[local.exec] Output of the commands you proposed:\n\nok"},
}

// Q18 of the aish seed: a model whose template refuses role "tool" is asked
// again with the results as a prefixed user turn, and remembered, so the
// next request (a new client, as each run makes) goes prefixed at once;
// tool_results = "role" keeps the refusal; "prefix" never sends role
// "tool"; a 400 for another reason, or with no tool results, is not retried.
func TestToolResultsPrefix(t *testing.T) {
	tests := []struct {
		name         string
		mode         string
		msgs         []Message
		wantErr      bool
		wantRequests int // for the first Stream
		wantSwitched bool
		thenRequests int // for a second Stream by a new client of the same model
	}{
		{"auto switches and remembers", ToolResultsAuto, toolRound, false, 2, true, 1},
		{"role keeps the refusal", ToolResultsRole, toolRound, true, 1, false, 1},
		{"prefix from the start", ToolResultsPrefix, toolRound, false, 1, false, 1},
		{"no tool results, no retry", ToolResultsAuto, []Message{{Role: RoleUser, Content: "a"}, {Role: RoleUser, Content: "b"}}, true, 1, false, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := &strictTemplate{}
			srv := httptest.NewServer(st)
			defer srv.Close()
			c := &Client{BaseURL: srv.URL + "/v1", Model: "mistral-nemo", ToolResults: tt.mode, Timeout: 10 * time.Second}
			s, err := c.Stream(t.Context(), &Request{Messages: tt.msgs})
			if (err != nil) != tt.wantErr {
				t.Fatalf("Stream: %v, want error %v", err, tt.wantErr)
			}
			if err != nil && !strings.Contains(err.Error(), "roles must alternate") {
				t.Errorf("the refusal is not passed on: %v", err)
			}
			if s != nil {
				if s.Switched != tt.wantSwitched {
					t.Errorf("Switched = %v", s.Switched)
				}
				s.Close()
			}
			if got := len(st.requests()); got != tt.wantRequests {
				t.Errorf("%d requests, want %d: %v", got, tt.wantRequests, st.requests())
			}
			if !tt.wantErr {
				for _, r := range st.requests()[tt.wantRequests-1:] {
					if strings.Join(r, ",") != "system,user,assistant,user" {
						t.Errorf("roles sent = %v", r)
					}
				}
			}
			c2 := &Client{BaseURL: srv.URL + "/v1/", Model: "mistral-nemo", ToolResults: tt.mode, Timeout: 10 * time.Second}
			if s, err := c2.Stream(t.Context(), &Request{Messages: tt.msgs}); err == nil {
				s.Close()
			}
			if got := len(st.requests()) - tt.wantRequests; got != tt.thenRequests {
				t.Errorf("the next request took %d requests, want %d", got, tt.thenRequests)
			}
		})
	}
}

func TestPrefixToolResults(t *testing.T) {
	got := prefixToolResults(toolRound)
	want := []Message{
		toolRound[0], toolRound[1], toolRound[2],
		{Role: RoleUser, Content: "[tool: ev.get-sum]\n3\n\n[tool: ev.echo]\nhi\n\n[local.exec] Output of the commands you proposed:\n\nok"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("prefixToolResults (-want +got):\n%s", diff)
	}
	if toolRound[3].Role != RoleTool {
		t.Error("the history given was changed")
	}
	orphan := prefixToolResults([]Message{{Role: RoleTool, ToolCallID: "x", Content: "r"}})
	if len(orphan) != 1 || orphan[0].Content != "[tool: unknown]\nr" {
		t.Errorf("a result without its call: %+v", orphan)
	}
}
