package toolcall

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/config"
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

// A tool Deckhand knows but keeps from the model is refused saying which
// reason, to the model and, read back from what the model was told, to the
// person; neither holds the tool's own text.
func TestWithheld(t *testing.T) {
	for _, tc := range []struct {
		name         string
		w            Withheld
		model, ofPer string
	}{
		{"quarantined", Withheld{Held: Quarantined, Server: "bad", Tool: "escape"},
			"Refused (not run): bad.escape is quarantined: its definition has not been reviewed by the person, so it is not offered to you. Do not retry it; tell the person they can review it in Servers ▸ bad ▸ Tools (or with `deckhand mcp review bad.escape`) if it is needed.",
			"bad.escape is quarantined (its definition has high-risk flags you have not reviewed); review it in Servers ▸ bad ▸ Tools to offer it to the model"},
		{"unchecked", Withheld{Held: Unchecked, Server: "fs", Tool: "write_file"},
			"Refused (not run): fs.write_file is turned off by the person (unchecked in Servers ▸ fs ▸ Tools), so it is not offered to you. Do not retry it; tell the person they can check it there if it is needed.",
			"fs.write_file is unchecked in Servers ▸ fs ▸ Tools; check it there to offer it to the model"},
		{"server off", Withheld{Held: ServerOff, Server: "fs"},
			"Refused (not run): the server fs is turned off by the person, so none of its tools is offered to you. Do not retry it; tell the person they can turn fs on in Servers if it is needed.",
			"the server fs is turned off; turn it on in Servers to offer its tools to the model"},
		{"bad name", Withheld{Held: BadName, Server: "bad"},
			"Refused (not run): the server bad has a tool of that name, but its name breaks the MCP rules for tool names (1 to 128 letters, digits, _, - or .), so it is left out and not offered to you. Do not retry it.",
			"the server bad's tool of this name is left out, as its name breaks the MCP rules for tool names (Servers ▸ bad says how)"},
		{"not loaded", Withheld{Held: NotLoaded, Server: "local", Tool: "frob", Reason: "/t/frob.json: frob is not installed. Install it.", Called: "local__frob"},
			"Error: local__frob is not loaded: /t/frob.json: frob is not installed. Install it.",
			"local.frob is not loaded: /t/frob.json: frob is not installed. Install it."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.w.Refusal()
			if diff := cmp.Diff(tc.model, got); diff != "" {
				t.Errorf("Refusal() (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.ofPer, tc.w.Why()); diff != "" {
				t.Errorf("Why() (-want +got):\n%s", diff)
			}
			back, ok := WithheldIn(got)
			if diff := cmp.Diff(tc.w, back); !ok || diff != "" {
				t.Errorf("WithheldIn(Refusal()) = _, %v (-want +got):\n%s", ok, diff)
			}
		})
	}
}

// What is not such a refusal is not read as one: the refusal of an
// unknown tool, the policy's, a tool's result, and a refusal whose names
// do not agree.
func TestWithheldInOther(t *testing.T) {
	for _, output := range []string{
		"",
		`Error: there is no tool named "bad__nope". Use one of the tools in this request's tools field, by its exact name.`,
		PolicyRefusal("fs.write", "/etc/passwd", "outside the roots"),
		DeniedText,
		"Refused (not run): bad.escape is quarantined",
		"Refused (not run): good.escape is quarantined: its definition has not been reviewed by the person, so it is not offered to you. Do not retry it; tell the person they can review it in Servers ▸ bad ▸ Tools (or with `deckhand mcp review bad.escape`) if it is needed.",
		"Refused (not run): the server fs is turned off by the person, so none of its tools is offered to you. Do not retry it; tell the person they can turn gs on in Servers if it is needed.",
	} {
		if w, ok := WithheldIn(output); ok {
			t.Errorf("WithheldIn(%q) = %+v, want none", output, w)
		}
	}
}

func FuzzWithheldIn(f *testing.F) {
	f.Add(int(Quarantined), "bad", "escape", "")
	f.Add(int(NotLoaded), "local", "frob", "a: b. c")
	f.Add(int(NotLoaded), "local", "a.b", "is not loaded: x")
	f.Fuzz(func(t *testing.T, held int, server, tool, reason string) {
		w := Withheld{Held: Held(held), Server: server, Tool: tool, Reason: reason}
		if w.Held == NotLoaded {
			w.Called = server + "__" + tool
		}
		if _, known := withheldText[w.Held]; !known || config.ValidAlias(server) != nil {
			return
		}
		back, ok := WithheldIn(w.Refusal())
		if !ok {
			return // names with spaces or dots in the alias are not read back: the card says it generically
		}
		// NotLoaded's server is read from the name as called, which an
		// alias ending in _ makes ambiguous ("a___b"): only its text must
		// come back.
		if back.Held != w.Held || back.Server != w.Server && w.Held != NotLoaded {
			t.Fatalf("WithheldIn(%q) = %+v, from %+v", w.Refusal(), back, w)
		}
		if back.Refusal() != w.Refusal() {
			t.Fatalf("WithheldIn(%q).Refusal() = %q", w.Refusal(), back.Refusal())
		}
	})
}

// Off refuses a call of a server turned off in the config, whatever the
// tool; a server on, or not configured, is not Off's to say.
func TestOff(t *testing.T) {
	servers := map[string]config.Server{"off": {Command: "x", Disabled: true}, "on": {Command: "x"}}
	for _, tc := range []struct {
		call string
		want Withheld
		ok   bool
	}{
		{"off__anything", Withheld{Held: ServerOff, Server: "off"}, true},
		{"off.anything", Withheld{Held: ServerOff, Server: "off"}, true},
		{"on__anything", Withheld{}, false},
		{"nope__anything", Withheld{}, false},
		{"off", Withheld{}, false},
	} {
		got, ok := Off(servers, tc.call)
		if diff := cmp.Diff(tc.want, got); ok != tc.ok || diff != "" {
			t.Errorf("Off(%q) = _, %v, want %v (-want +got):\n%s", tc.call, ok, tc.ok, diff)
		}
	}
}

// Resolve says why a tool its catalog left out is not offered (its
// server's reason, or its name), and keeps "no tool named" for a name no
// server listed.
func TestResolveLeftOut(t *testing.T) {
	long := strings.Repeat("x", 200)
	cat := tools.NewCatalog(map[string]tools.Source{
		"bad":   {Tools: []*sdk.Tool{{Name: long, InputSchema: map[string]any{"type": "object"}}, {Name: "ok", InputSchema: map[string]any{"type": "object"}}}},
		"local": {NotLoaded: []tools.Rejected{{Name: "frob", Reason: "/t/frob.json: frobnicator is not installed"}}},
	})
	for _, tc := range []struct {
		name, call, want string
	}{
		{"bad name", "bad__" + long, Withheld{Held: BadName, Server: "bad"}.Refusal()},
		{"not loaded", "local__frob", "Error: local__frob is not loaded: /t/frob.json: frobnicator is not installed"},
		{"not loaded, by its display name", "local.frob", "Error: local.frob is not loaded: /t/frob.json: frobnicator is not installed"},
		{"unknown", "bad__nope", `Error: there is no tool named "bad__nope". Use one of the tools in this request's tools field, by its exact name.`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, got, ok := Resolve(cat, tc.call, false)
			if diff := cmp.Diff(tc.want, got); ok || diff != "" {
				t.Errorf("Resolve(%q) = _, _, %v (-want +got):\n%s", tc.call, ok, diff)
			}
		})
	}
}
