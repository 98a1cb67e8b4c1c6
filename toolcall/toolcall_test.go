package toolcall

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/tools"
)

func TestExtractCommands(t *testing.T) {
	text := "I'll check.\nCMD: ls -la ~\n  CMD:   `df -h`  \nNot a CMD: line\n```sh\nCMD: rm -rf /\n```\nCMD:\nCMD: echo 'a: b'"
	want := []string{"ls -la ~", "df -h", "echo 'a: b'"}
	if diff := cmp.Diff(want, Commands(text)); diff != "" {
		t.Errorf("Commands (-want +got):\n%s", diff)
	}
}

func FuzzExtractCommands(f *testing.F) {
	f.Add("CMD: ls\n```\nCMD: x\n```")
	f.Fuzz(func(t *testing.T, text string) {
		for _, c := range Commands(text) {
			if c == "" || strings.Contains(c, "\n") {
				t.Fatalf("bad command %q", c)
			}
		}
	})
}

func catalog() *tools.Catalog {
	add := &sdk.Tool{Name: "add", Description: "Add two numbers", InputSchema: map[string]any{
		"type": "object", "properties": map[string]any{"a": map[string]any{"type": "integer"}, "b": map[string]any{"type": "integer"}},
		"required": []any{"a", "b"}}}
	return tools.NewCatalog(map[string]tools.Source{"calc": {Tools: []*sdk.Tool{add}}})
}

func TestResolve(t *testing.T) {
	cat := catalog()
	for _, tc := range []struct {
		name, call string
		lazy       bool
		ok         bool
		refusal    string
	}{
		{"wire name", "calc__add", false, true, ""},
		{"display name", "calc.add", false, true, ""},
		{"unknown, with a suggestion", "calc__ad", false, false, "Similar tools: calc.add"},
		{"unknown, lazy", "nope", true, false, "Call tool_search"},
		{"unknown, eager", "nope", false, false, "Use one of the tools in this request's tools field"},
	} {
		tool, refusal, ok := Resolve(cat, tc.call, tc.lazy)
		if ok != tc.ok || !strings.Contains(refusal, tc.refusal) || (ok && tool.Display != "calc.add") {
			t.Errorf("%s: Resolve(%q) = %v, %q, %v", tc.name, tc.call, tool.Display, refusal, ok)
		}
	}
}

func TestArguments(t *testing.T) {
	v := tools.NewValidator(4)
	tool, _, _ := Resolve(catalog(), "calc.add", false)
	for _, tc := range []struct {
		name, raw, want, refusal string
	}{
		{"bytes kept as sent", `{"a": 9007199254740993, "b":1}`, `{"a": 9007199254740993, "b":1}`, ""},
		{"empty is {}, then a and b are missing", ``, ``, "the call was not made"},
		{"wrong type", `{"a":"<a&b>","b":1}`, ``, "do not match"},
		{"not JSON", `{"a":1,`, ``, "not a JSON object"},
	} {
		args, refusal, ok := Arguments(v, tool, tc.raw)
		if string(args) != tc.want || !strings.Contains(refusal, tc.refusal) || ok != (tc.refusal == "") {
			t.Errorf("%s: Arguments(%q) = %q, %q, %v", tc.name, tc.raw, args, refusal, ok)
		}
	}
}

func TestOutput(t *testing.T) {
	text := func(s string) *sdk.CallToolResult {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: s}}}
	}
	failed := text("no such file")
	failed.IsError = true
	for _, tc := range []struct {
		name    string
		res     *sdk.CallToolResult
		err     error
		limit   int
		want    string
		isError bool
	}{
		{"text", text("hello"), nil, 100, "hello", false},
		{"the tool failed", failed, nil, 100, "The tool reported an error:\nno such file", true},
		{"no result", nil, errors.New("server fs disconnected"), 100, "Error: the tool call failed: server fs disconnected", true},
		{"nothing at all", nil, nil, 100, "Error: the tool call failed: the server sent no result", true},
		{"capped", text(strings.Repeat("x", 1000)), nil, 200, "cut", false},
	} {
		got, isError := Output(tc.res, tc.err, tc.limit)
		if !strings.Contains(got, tc.want) || isError != tc.isError || (tc.limit > 0 && len(got) > tc.limit+64) {
			t.Errorf("%s: Output() = %q, %v", tc.name, got, isError)
		}
	}
}

func TestSame(t *testing.T) {
	a := &sdk.Tool{Name: "x", Description: "one"}
	b := &sdk.Tool{Name: "x", Description: "one"}
	c := &sdk.Tool{Name: "x", Description: "two"}
	if !Same(a, a) || !Same(a, b) || Same(a, c) || Same(a, nil) || !Same(nil, nil) {
		t.Error("Same is wrong")
	}
}

func TestLimit(t *testing.T) {
	for _, tc := range []struct{ maxBytes, ctxTokens, want int }{
		{262144, 32000, 32000},    // the defaults: a quarter of 32k tokens, not 256 KiB
		{16384, 32000, 16384},     // a smaller configured cap wins
		{262144, 2000000, 262144}, // a huge context: the configured cap
		{0, 32000, 32000},
		{1000, 0, 1000},
	} {
		if got := Limit(tc.maxBytes, tc.ctxTokens); got != tc.want {
			t.Errorf("Limit(%d, %d) = %d, want %d", tc.maxBytes, tc.ctxTokens, got, tc.want)
		}
	}
}

func TestIsShell(t *testing.T) {
	tests := []struct {
		name, tool string
		want       bool
	}{
		{"display name", "local.shell", true},
		{"wire name", "local__shell", true},
		{"another server's shell", "fs.shell", false},
		{"another local tool", "local.files_read", false},
		{"a longer name", "local.shell2", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := IsShell(tt.tool); got != tt.want {
				t.Errorf("IsShell(%q) = %v, want %v", tt.tool, got, tt.want)
			}
		})
	}
	for _, disabled := range []bool{false, true} {
		d := ShellOff(disabled)
		if d.Allowed || d.Target != "local.shell" || !strings.HasPrefix(d.Rule, "off: ") {
			t.Errorf("ShellOff(%v) = %+v", disabled, d)
		}
	}
}
