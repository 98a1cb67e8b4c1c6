package approval_test

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/approval"
	"deckhand/clean"
	"deckhand/policy"
	"deckhand/toolcall"
	"deckhand/tools"
)

// gateCase is one call put through Decide.
type gateCase struct {
	name      string
	req       approval.Request
	def       tools.Tool
	pin       approval.Pin
	decisions []policy.Decision
	session   approval.Grants
	always    []string
	rules     approval.Rules

	verdict approval.Verdict
	cause   approval.Cause
	by      string
	err     error  // the sentinel the refusal is
	change  string // what the request shown says changed
}

func tool(server, name, hash, description string) tools.Tool {
	raw := &sdk.Tool{Name: name, Description: description, InputSchema: map[string]any{"type": "object"}}
	return tools.Tool{Server: server, Name: name, Display: server + "." + name, Def: raw, Raw: raw, Hash: hash}
}

func TestDecide(t *testing.T) {
	write := tool("fs", "write_file", "h-new", "Write a file.")
	read := tool("fs", "read_text_file", "h-read", "Read a file.")
	writeReq := toolcall.Request("c1", write, json.RawMessage(`{"path":"/tmp/x"}`))
	readReq := toolcall.Request("c2", read, json.RawMessage(`{"path":"/tmp/x"}`))
	cmdReq := toolcall.CommandRequest("cmd-1", "ls -la", "/bin/sh")
	hiddenReq := toolcall.CommandRequest("cmd-2", "echo hi\x1b[2K", "/bin/sh")
	samePin := approval.Pin{Hash: "h-new", Definition: write.Raw}
	oldPin := approval.Pin{Hash: "h-old", Definition: &sdk.Tool{Name: "write_file", Description: "Write a file safely.", InputSchema: map[string]any{"type": "object"}}}
	brokenPin := approval.Pin{Hash: "h-old"} // its definition could not be read back
	allowed := policy.Decision{Capability: policy.CapWrite, Target: "/tmp/x", Allowed: true, Rule: "within /tmp"}
	denied := policy.Decision{Capability: policy.CapWrite, Target: "/etc/passwd", Rule: "outside the write roots"}
	changedReq := writeReq
	changedReq.Change = "description: changed earlier"
	appOnly := tool("app", "refresh", "h-app", "Refresh the view.")
	appOnly.Visibility = tools.Visibility{HiddenFromModel: true}
	modelOnly := tool("app", "summarize", "h-model", "Summarize.")
	modelOnly.Visibility = tools.Visibility{HiddenFromApps: true}
	fromView := func(r approval.Request) approval.Request { r.Origin = "the view of app.show"; return r }
	appReq := toolcall.Request("c3", appOnly, json.RawMessage(`{}`))
	modelReq := toolcall.Request("c4", modelOnly, json.RawMessage(`{}`))

	tests := []gateCase{
		// Grants and rules, with nothing refused or changed.
		{name: "nothing allows it", req: writeReq, def: write, verdict: approval.Ask, cause: approval.CauseNone},
		{name: "tool rule", req: readReq, def: read, rules: approval.Rules{"fs.read_text_file": true}, verdict: approval.Allow, cause: approval.CauseRule, by: "auto_approve fs.read_text_file"},
		{name: "tool rule for another tool", req: writeReq, def: write, rules: approval.Rules{"fs.read_text_file": true}, verdict: approval.Ask, cause: approval.CauseNone},
		{name: "server rule", req: writeReq, def: write, rules: approval.Rules{"fs.*": true}, verdict: approval.Allow, cause: approval.CauseRule, by: "auto_approve fs.*"},
		{name: "server rule false is no rule", req: writeReq, def: write, rules: approval.Rules{"fs.*": false}, verdict: approval.Ask, cause: approval.CauseNone},
		{name: "tool false beats server true", req: writeReq, def: write, rules: approval.Rules{"fs.*": true, "fs.write_file": false}, verdict: approval.Ask, cause: approval.CauseRuleAsk, by: "auto_approve fs.write_file = false"},
		{name: "a server rule is not a prefix match", req: writeReq, def: write, rules: approval.Rules{"f.*": true}, verdict: approval.Ask, cause: approval.CauseNone},
		{name: "session grant", req: writeReq, def: write, session: approval.Grants{"fs.write_file": true}, verdict: approval.Allow, cause: approval.CauseSession, by: "allowed for this session"},
		{name: "session grant beats a false rule", req: writeReq, def: write, session: approval.Grants{"fs.write_file": true}, rules: approval.Rules{"fs.write_file": false}, verdict: approval.Allow, cause: approval.CauseSession, by: "allowed for this session"},
		{name: "session grant beats always", req: writeReq, def: write, session: approval.Grants{"fs.write_file": true}, always: []string{"fs.write_file"}, verdict: approval.Allow, cause: approval.CauseSession, by: "allowed for this session"},
		{name: "always grant", req: writeReq, def: write, always: []string{"fs.write_file"}, verdict: approval.Allow, cause: approval.CauseAlways, by: "always allowed"},
		{name: "always grant beats a false rule", req: writeReq, def: write, always: []string{"fs.write_file"}, rules: approval.Rules{"fs.write_file": false}, verdict: approval.Allow, cause: approval.CauseAlways, by: "always allowed"},
		{name: "a false session grant is none", req: writeReq, def: write, session: approval.Grants{"fs.write_file": false}, verdict: approval.Ask, cause: approval.CauseNone},
		{name: "command is asked by default", req: cmdReq, rules: approval.Rules{"local.*": true}, verdict: approval.Ask, cause: approval.CauseOnceOnly, by: "each is asked"},
		{name: "command is asked despite its own rule", req: cmdReq, rules: approval.Rules{"local.exec": true}, verdict: approval.Ask, cause: approval.CauseOnceOnly, by: "each is asked"},
		{name: "command is asked despite grants", req: cmdReq, session: approval.Grants{"local.exec": true}, always: []string{"local.exec"}, verdict: approval.Ask, cause: approval.CauseOnceOnly, by: "each is asked"},

		// Pins.
		{name: "no pin is no change", req: writeReq, def: write, rules: approval.Rules{"fs.*": true}, verdict: approval.Allow, cause: approval.CauseRule, by: "auto_approve fs.*"},
		{name: "same pin", req: writeReq, def: write, pin: samePin, session: approval.Grants{"fs.write_file": true}, verdict: approval.Allow, cause: approval.CauseSession, by: "allowed for this session"},
		{name: "changed pin is asked", req: writeReq, def: write, pin: oldPin, verdict: approval.Ask, cause: approval.CauseChanged, change: `description: "Write a file safely." → "Write a file."`},
		{name: "changed pin beats a session grant", req: writeReq, def: write, pin: oldPin, session: approval.Grants{"fs.write_file": true}, verdict: approval.Ask, cause: approval.CauseChanged, change: `description: "Write a file safely." → "Write a file."`},
		{name: "changed pin beats an always grant", req: writeReq, def: write, pin: oldPin, always: []string{"fs.write_file"}, verdict: approval.Ask, cause: approval.CauseChanged, change: `description: "Write a file safely." → "Write a file."`},
		{name: "changed pin beats a tool rule", req: writeReq, def: write, pin: oldPin, rules: approval.Rules{"fs.write_file": true}, verdict: approval.Ask, cause: approval.CauseChanged, change: `description: "Write a file safely." → "Write a file."`},
		{name: "changed pin beats a server rule", req: writeReq, def: write, pin: oldPin, rules: approval.Rules{"fs.*": true}, verdict: approval.Ask, cause: approval.CauseChanged, change: `description: "Write a file safely." → "Write a file."`},
		{name: "unreadable pin still asks", req: writeReq, def: write, pin: brokenPin, rules: approval.Rules{"fs.*": true}, verdict: approval.Ask, cause: approval.CauseChanged, change: "its definition changed"},
		{name: "a change found before is asked again", req: changedReq, def: write, pin: samePin, session: approval.Grants{"fs.write_file": true}, verdict: approval.Ask, cause: approval.CauseChanged, change: "description: changed earlier"},
		{name: "a change found before keeps its text", req: changedReq, def: write, pin: oldPin, verdict: approval.Ask, cause: approval.CauseChanged, change: "description: changed earlier"},
		{name: "a command has no pin", req: cmdReq, pin: oldPin, verdict: approval.Ask, cause: approval.CauseOnceOnly, by: "each is asked"},

		// Policy.
		{name: "policy allows: rules decide", req: writeReq, def: write, decisions: []policy.Decision{allowed}, rules: approval.Rules{"fs.*": true}, verdict: approval.Allow, cause: approval.CauseRule, by: "auto_approve fs.*"},
		{name: "policy deny", req: writeReq, def: write, decisions: []policy.Decision{denied}, verdict: approval.Refuse, cause: approval.CausePolicy, err: approval.ErrPolicy},
		{name: "policy deny beats an allow rule", req: writeReq, def: write, decisions: []policy.Decision{allowed, denied}, rules: approval.Rules{"fs.write_file": true}, verdict: approval.Refuse, cause: approval.CausePolicy, err: approval.ErrPolicy},
		{name: "policy deny beats a server rule", req: writeReq, def: write, decisions: []policy.Decision{denied}, rules: approval.Rules{"fs.*": true}, verdict: approval.Refuse, cause: approval.CausePolicy, err: approval.ErrPolicy},
		{name: "policy deny beats a session grant", req: writeReq, def: write, decisions: []policy.Decision{denied}, session: approval.Grants{"fs.write_file": true}, verdict: approval.Refuse, cause: approval.CausePolicy, err: approval.ErrPolicy},
		{name: "policy deny beats an always grant", req: writeReq, def: write, decisions: []policy.Decision{denied}, always: []string{"fs.write_file"}, verdict: approval.Refuse, cause: approval.CausePolicy, err: approval.ErrPolicy},
		{name: "policy deny beats a changed pin", req: writeReq, def: write, pin: oldPin, decisions: []policy.Decision{denied}, verdict: approval.Refuse, cause: approval.CausePolicy, err: approval.ErrPolicy},
		{name: "policy deny beats a change found before", req: changedReq, def: write, decisions: []policy.Decision{denied}, verdict: approval.Refuse, cause: approval.CausePolicy, err: approval.ErrPolicy, change: "description: changed earlier"},
		{name: "hidden command", req: hiddenReq, verdict: approval.Refuse, cause: approval.CauseHidden, err: approval.ErrHidden},

		// Visibility (an MCP App's _meta.ui.visibility).
		{name: "the model calls an app-only tool", req: appReq, def: appOnly, verdict: approval.Refuse, cause: approval.CauseVisibility, err: approval.ErrVisibility},
		{name: "an app-only tool's refusal beats grants and rules", req: appReq, def: appOnly, session: approval.Grants{"app.refresh": true}, always: []string{"app.refresh"}, rules: approval.Rules{"app.*": true}, verdict: approval.Refuse, cause: approval.CauseVisibility, err: approval.ErrVisibility},
		{name: "a view calls an app-only tool", req: fromView(appReq), def: appOnly, rules: approval.Rules{"app.*": true}, verdict: approval.Allow, cause: approval.CauseRule, by: "auto_approve app.*"},
		{name: "a view calls a model-only tool", req: fromView(modelReq), def: modelOnly, rules: approval.Rules{"app.*": true}, verdict: approval.Refuse, cause: approval.CauseVisibility, err: approval.ErrVisibility},
		{name: "the model calls a model-only tool", req: modelReq, def: modelOnly, verdict: approval.Ask, cause: approval.CauseNone},
		{name: "a view calls a tool for both", req: fromView(writeReq), def: write, verdict: approval.Ask, cause: approval.CauseNone},
		{name: "hidden command beats a rule", req: hiddenReq, rules: approval.Rules{"local.exec": true}, session: approval.Grants{"local.exec": true}, verdict: approval.Refuse, cause: approval.CauseHidden, err: approval.ErrHidden},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			always := &approval.Always{}
			for _, g := range tt.always {
				always.Grant(g, "test")
			}
			before := cloneRequest(tt.req)
			got := approval.Decide(tt.req, tt.def, tt.pin, tt.decisions, approval.Granted{Session: tt.session, Always: always}, tt.rules)
			if got.Verdict != tt.verdict || got.Cause != tt.cause || got.By != tt.by {
				t.Errorf("Decide() = %v/%v by %q, want %v/%v by %q", got.Verdict, got.Cause, got.By, tt.verdict, tt.cause, tt.by)
			}
			if (got.Err == nil) != (tt.err == nil) || (tt.err != nil && !errors.Is(got.Err, tt.err)) {
				t.Errorf("Err = %v, want %v", got.Err, tt.err)
			}
			if got.Request.Change != tt.change {
				t.Errorf("Change = %q, want %q", got.Request.Change, tt.change)
			}
			if !equalRequest(tt.req, before) {
				t.Errorf("Decide changed its argument: %+v, was %+v", tt.req, before)
			}
			if got.Request.ID != tt.req.ID || got.Request.Display != tt.req.Display {
				t.Errorf("Request = %+v, want the call's", got.Request)
			}
		})
	}
}

// TestDecideAccess: what the policy allowed is said to the person, in
// order, whatever the verdict; a refusal tells the first denied decision.
func TestDecideAccess(t *testing.T) {
	t.Parallel()
	a := policy.Decision{Capability: policy.CapRead, Target: "/w/a", Allowed: true, Rule: "within /w"}
	b := policy.Decision{Capability: policy.CapWrite, Target: "/w/b", Allowed: true, Rule: "within /w"}
	d1 := policy.Decision{Capability: policy.CapWrite, Target: "/etc/x", Rule: "outside the write roots"}
	d2 := policy.Decision{Capability: policy.CapRead, Target: "/root/y", Rule: "outside the read roots"}
	req := approval.Request{Server: "fs", Tool: "t", Display: "fs.t", Access: []string{"stale"}}

	got := approval.Decide(req, tools.Tool{}, approval.Pin{}, []policy.Decision{a, b}, approval.Granted{}, nil)
	if want := []string{a.Describe(), b.Describe()}; !slices.Equal(got.Request.Access, want) {
		t.Errorf("Access = %q, want %q", got.Request.Access, want)
	}
	got = approval.Decide(req, tools.Tool{}, approval.Pin{}, []policy.Decision{a, d1, b, d2}, approval.Granted{}, nil)
	if want := []string{a.Describe(), b.Describe()}; !slices.Equal(got.Request.Access, want) {
		t.Errorf("refused: Access = %q, want %q", got.Request.Access, want)
	}
	if want := toolcall.PolicyRefusal(d1.Capability, d1.Target, d1.Rule); got.Err == nil || got.Err.Error() != want {
		t.Errorf("Err = %v, want %q", got.Err, want)
	}
	var pe *approval.PolicyError
	if !errors.As(got.Err, &pe) || pe.Target != "/etc/x" {
		t.Errorf("errors.As PolicyError = %+v", pe)
	}
	if errors.Is(got.Err, approval.ErrHidden) {
		t.Errorf("a policy refusal is not ErrHidden")
	}
	if got := approval.Decide(req, tools.Tool{}, approval.Pin{}, nil, approval.Granted{}, nil); got.Request.Access != nil {
		t.Errorf("no decisions: Access = %q, want none", got.Request.Access)
	}
}

// TestDecideChangedOnce: the caller says a change once, when the
// outcome found it; a request carrying it is asked again without news.
func TestDecideChangedOnce(t *testing.T) {
	t.Parallel()
	def := tool("fs", "write_file", "new", "New.")
	pin := approval.Pin{Hash: "old", Definition: &sdk.Tool{Name: "write_file", Description: "Old."}}
	req := toolcall.Request("c", def, nil)
	first := approval.Decide(req, def, pin, nil, approval.Granted{}, nil)
	if !first.Changed(req) || first.Request.Change == "" {
		t.Fatalf("first = %+v: want a change found", first)
	}
	again := approval.Decide(first.Request, def, pin, nil, approval.Granted{}, nil)
	if again.Changed(first.Request) || again.Verdict != approval.Ask || again.Request.Change != first.Request.Change {
		t.Errorf("again = %+v: want asked, no news", again)
	}
	// Accepted: the pin now holds the new definition.
	accepted := approval.Decide(req, def, approval.Pin{Hash: "new", Definition: def.Raw}, nil, approval.Granted{}, approval.Rules{"fs.*": true})
	if accepted.Verdict != approval.Allow || accepted.Changed(req) {
		t.Errorf("accepted = %+v: want allowed by the rule", accepted)
	}
}

func TestHiddenError(t *testing.T) {
	t.Parallel()
	got := approval.Decide(toolcall.CommandRequest("cmd-1", "rm -rf ~\u202e", "/bin/sh"), tools.Tool{}, approval.Pin{}, nil, approval.Granted{}, nil)
	var he *approval.HiddenError
	if !errors.As(got.Err, &he) || !errors.Is(got.Err, approval.ErrHidden) || errors.Is(got.Err, approval.ErrPolicy) {
		t.Fatalf("Err = %#v", got.Err)
	}
	if want := toolcall.HiddenCommandRefusal(he.What, he.At, he.Command); got.Err.Error() != want || !strings.Contains(want, `\u202e`) {
		t.Errorf("Err = %q, want %q", got.Err, want)
	}
}

func TestReason(t *testing.T) {
	t.Parallel()
	timeout := approval.TimedOut(2 * time.Minute)
	if timeout != "no answer within 2m0s" {
		t.Errorf("TimedOut = %q: the log and the model read it", timeout)
	}
	if approval.Answered != "answered" {
		t.Errorf("Answered = %q: the log keeps it as text, and store/summary.go reads it back", approval.Answered)
	}
	tests := []struct {
		r        approval.Reason
		answered bool
		timedOut bool
		by       string
	}{
		{"", true, false, "the person"},
		{approval.Answered, true, false, "the person"},
		{timeout, false, true, "no answer within 2m0s"},
		{"--approve=auto", false, false, "--approve=auto"},
		{"no terminal to ask the user", false, false, "no terminal to ask the user"},
	}
	for _, tt := range tests {
		if tt.r.IsAnswered() != tt.answered || tt.r.IsTimedOut() != tt.timedOut || tt.r.By() != tt.by {
			t.Errorf("%q: answered %v timed out %v by %q", tt.r, tt.r.IsAnswered(), tt.r.IsTimedOut(), tt.r.By())
		}
	}
}

func TestDenial(t *testing.T) {
	t.Parallel()
	for _, ans := range []approval.Answer{approval.AllowOnce, approval.AllowSession, approval.AllowAlways} {
		if err := approval.Denial(ans, approval.TimedOut(time.Second)); err != nil {
			t.Errorf("Denial(%v) = %v, want nil", ans, err)
		}
	}
	if err := approval.Denial(approval.Deny, approval.Answered); err != approval.ErrDenied {
		t.Errorf("the person's no = %v", err)
	}
	if err := approval.Denial(approval.Deny, ""); err != approval.ErrDenied {
		t.Errorf("a no without a reason = %v", err)
	}
	err := approval.Denial(approval.Deny, approval.TimedOut(time.Minute))
	if !errors.Is(err, approval.ErrTimedOut) || !errors.Is(err, approval.ErrNotAnswered) || errors.Is(err, approval.ErrDenied) {
		t.Errorf("timeout = %v", err)
	}
	err = approval.Denial(approval.Deny, "--approve=deny")
	var de *approval.DeniedError
	if errors.Is(err, approval.ErrTimedOut) || !errors.Is(err, approval.ErrNotAnswered) || !errors.As(err, &de) || de.Reason != "--approve=deny" || err.Error() != "denied: --approve=deny" {
		t.Errorf("--approve=deny = %v", err)
	}
}

func TestStrings(t *testing.T) {
	t.Parallel()
	for v, want := range map[approval.Verdict]string{approval.Ask: "ask", approval.Allow: "allow", approval.Refuse: "refuse", 7: "Verdict(7)"} {
		if v.String() != want {
			t.Errorf("%d: %q", int(v), v.String())
		}
	}
	if approval.CauseRule.String() != "rule" || approval.Cause(99).String() != "Cause(99)" || approval.Cause(-1).String() != "Cause(-1)" {
		t.Errorf("Cause strings")
	}
}

// FuzzDecide: whatever the call, pins, policy, grants and rules, the gate
// keeps its order: a refusal by the policy wins, a changed definition is
// never allowed, a shell command is never allowed without a person, and
// otherwise grants and rules alone decide; and the caller's request is
// never changed.
func FuzzDecide(f *testing.F) {
	f.Add("fs", "write_file", "", "h1", "h1", "fs.*", true, false, false, true, false)
	f.Add("fs", "write_file", "", "h1", "h2", "fs.write_file", true, true, true, true, true)
	f.Add("local", "exec", "ls\x1b[2J", "", "", "local.exec", true, true, false, false, false)
	f.Add("a.b", "c", "", "", "x", "a.b.*", false, false, true, true, false)
	f.Fuzz(func(t *testing.T, server, name, command, pinHash, defHash, ruleKey string, ruleVal, session, always, polAllowed, polDenied bool) {
		var req approval.Request
		var def tools.Tool
		if command != "" {
			req = toolcall.CommandRequest("cmd-1", command, "/bin/sh")
		} else {
			def = tool(server, name, defHash, "d")
			req = toolcall.Request("c", def, nil)
		}
		var decisions []policy.Decision
		if polAllowed {
			decisions = append(decisions, policy.Decision{Capability: policy.CapRead, Target: "/a", Allowed: true, Rule: "r"})
		}
		if polDenied {
			decisions = append(decisions, policy.Decision{Capability: policy.CapWrite, Target: "/b", Rule: "r"})
		}
		granted := approval.Granted{Session: approval.Grants{}, Always: &approval.Always{}}
		if session {
			granted.Session[req.Display] = true
		}
		if always {
			granted.Always.Grant(req.Display, "fuzz")
		}
		rules := approval.Rules{ruleKey: ruleVal}
		pin := approval.Pin{Hash: pinHash}
		before := cloneRequest(req)
		got := approval.Decide(req, def, pin, decisions, granted, rules)
		if !equalRequest(req, before) {
			t.Fatalf("the request changed")
		}
		if (got.Verdict == approval.Refuse) != (got.Err != nil) {
			t.Fatalf("verdict %v with err %v", got.Verdict, got.Err)
		}
		_, _, hidden := clean.Hidden(command)
		changed := command == "" && pinHash != "" && pinHash != defHash
		// With nothing refused or changed, policy and pins say nothing:
		// the verdict is grants and rules alone.
		plain := approval.Decide(req, tools.Tool{}, approval.Pin{}, nil, granted, rules)
		switch {
		case hidden:
			if !errors.Is(got.Err, approval.ErrHidden) {
				t.Fatalf("hidden command: %+v", got)
			}
		case polDenied:
			if !errors.Is(got.Err, approval.ErrPolicy) {
				t.Fatalf("policy deny: %+v", got)
			}
		case changed:
			if got.Verdict != approval.Ask || got.Cause != approval.CauseChanged || got.Request.Change == "" {
				t.Fatalf("changed: %+v", got)
			}
		default:
			if got.Verdict != plain.Verdict || got.By != plain.By || got.Cause != plain.Cause {
				t.Fatalf("got %v %q, on grants and rules alone %v %q", got.Verdict, got.By, plain.Verdict, plain.By)
			}
		}
		if command != "" && got.Verdict == approval.Allow {
			t.Fatalf("a command allowed without a person: %+v", got)
		}
		if polAllowed && !hidden && len(got.Request.Access) != 1 {
			t.Fatalf("Access = %q", got.Request.Access)
		}
	})
}

func cloneRequest(r approval.Request) approval.Request {
	r.Warnings = slices.Clone(r.Warnings)
	r.Access = slices.Clone(r.Access)
	r.Arguments = slices.Clone(r.Arguments)
	return r
}

func equalRequest(a, b approval.Request) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// TestCheck: the gate's first step alone, as a call is checked: what
// refuses it, and what it may touch.
func TestCheck(t *testing.T) {
	allowed := policy.Decision{Capability: policy.CapRead, Target: "/tmp/a", Allowed: true, Rule: "within /tmp"}
	denied := policy.Decision{Capability: policy.CapWrite, Target: "/etc/passwd", Rule: "outside the write roots"}
	for _, tc := range []struct {
		name      string
		call      approval.Request
		decisions []policy.Decision
		wantErr   error // nil: not refused
		access    []string
	}{
		{name: "nothing to check", call: approval.Request{Display: "fs.read"}},
		{name: "an allowed path is said as access", call: approval.Request{Display: "fs.read"}, decisions: []policy.Decision{allowed}, access: []string{allowed.Describe()}},
		{name: "a denied path refuses", call: approval.Request{Display: "fs.write"}, decisions: []policy.Decision{allowed, denied}, wantErr: approval.ErrPolicy, access: []string{allowed.Describe()}},
		{name: "a plain command passes", call: approval.Request{Display: "local.exec", Command: "ls -la"}},
		{name: "a hidden character refuses a command", call: approval.Request{Display: "local.exec", Command: "echo hi\x1b[2K"}, wantErr: approval.ErrHidden},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := approval.Check(tc.call, tc.decisions)
			if (tc.wantErr == nil) != (err == nil) || (tc.wantErr != nil && !errors.Is(err, tc.wantErr)) {
				t.Errorf("Check(%q) error = %v, want %v", tc.call.Display, err, tc.wantErr)
			}
			if diff := cmp.Diff(tc.access, got.Access); diff != "" {
				t.Errorf("Check(%q) access (-want +got):\n%s", tc.call.Display, diff)
			}
			// Decide begins with Check: it refuses what Check refuses.
			out := approval.Decide(tc.call, tools.Tool{}, approval.Pin{}, tc.decisions, approval.Granted{}, nil)
			if (out.Verdict == approval.Refuse) != (err != nil) {
				t.Errorf("Decide(%q) = %v, Check error %v", tc.call.Display, out.Verdict, err)
			}
		})
	}
}
