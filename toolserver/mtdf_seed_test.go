package toolserver

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// Definitions written as Ahma's MTDF documentation writes them (the
// fixtures in testdata/mtdf; basic_structure.json is its section 3.1 as
// it stands) load, and make the tools and argv the document describes.

func loadMTDF(t *testing.T, name string) *File {
	t.Helper()
	f, err := ParseFile(filepath.Join("testdata", "mtdf", name))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return f
}

func toolsByName(f *File) map[string]*Tool {
	m := map[string]*Tool{}
	for _, t := range f.Tools {
		m[t.Name] = t
	}
	return m
}

// argvOf is the program and argv a call of t with args would run.
func argvOf(t *testing.T, tl *Tool, args string) []string {
	t.Helper()
	a, err := tl.callArgs(json.RawMessage(args))
	if err != nil {
		t.Fatalf("%s %s: %v", tl.Name, args, err)
	}
	call, err := tl.prepare(a, t.TempDir(), 1000)
	if err != nil {
		t.Fatalf("%s %s: %v", tl.Name, args, err)
	}
	return append([]string{call.Job.Path}, call.Job.Args...)
}

func TestMTDFBasicStructure(t *testing.T) {
	f := loadMTDF(t, "basic_structure.json")
	m := toolsByName(f)
	if len(m) != 2 || m["tool_name_subcommand_name"] == nil || m["tool_name_async_subcommand"] == nil {
		t.Fatalf("tools: %v", sortedKeys(m))
	}
	sub := m["tool_name_subcommand_name"]
	if sub.Command != "base_executable" || !sub.Sync || sub.Timeout != 600*time.Second ||
		sub.Description != "What this subcommand does. Include guidance for sync operations." {
		t.Errorf("subcommand_name: %+v", sub)
	}
	// Both parameters required, as written.
	if !slices.Equal(sub.Schema.Required, []string{"option_name", "arg_name"}) {
		t.Errorf("required: %v", sub.Schema.Required)
	}
	if _, err := sub.callArgs(json.RawMessage(`{"option_name": "x"}`)); err == nil {
		t.Error("a call without the required positional argument was accepted")
	}
	got := argvOf(t, sub, `{"option_name": "value", "arg_name": "the arg"}`)
	if want := []string{"base_executable", "subcommand_name", "--option_name", "value", "the arg"}; !slices.Equal(got, want) {
		t.Errorf("argv %q, want %q", got, want)
	}
	// Synchronous at the tool level is inherited (R2.6).
	async := m["tool_name_async_subcommand"]
	if !async.Sync || async.Timeout != 600*time.Second {
		t.Errorf("async_subcommand: sync %v timeout %v", async.Sync, async.Timeout)
	}
	if got := argvOf(t, async, `{}`); !slices.Equal(got, []string{"base_executable", "async_subcommand"}) {
		t.Errorf("argv %q", got)
	}
}

func TestMTDFSubcommandsSequencesChecks(t *testing.T) {
	cargo := loadMTDF(t, "cargo.json")
	m := toolsByName(cargo)
	want := []string{"cargo_add", "cargo_build", "cargo_fmt", "cargo_nextest", "cargo_qualitycheck"}
	if got := sortedKeys(m); !slices.Equal(got, want) {
		t.Fatalf("tools %v, want %v", got, want)
	}
	if got := argvOf(t, m["cargo_build"], `{"release": true, "manifest-path": "Cargo.toml"}`); !slices.Equal(got,
		[]string{"cargo", "build", "--release", "--manifest-path", "Cargo.toml"}) {
		t.Errorf("cargo_build argv %q", got)
	}
	if _, err := m["cargo_build"].prepare(map[string]any{"manifest-path": "../Cargo.toml"}, t.TempDir(), 1000); err == nil {
		t.Error(`a "format": "path" option outside the scope was accepted`)
	}
	if add := m["cargo_add"]; !add.Sync || m["cargo_build"].Sync {
		t.Errorf("synchronous: add %v, build %v", add.Sync, m["cargo_build"].Sync)
	}
	if got := argvOf(t, m["cargo_add"], `{"crates": ["serde", "tokio"]}`); !slices.Equal(got, []string{"cargo", "add", "serde", "tokio"}) {
		t.Errorf("cargo_add argv %q", got)
	}
	// The availability check as a command line: a program and its
	// arguments, no shell.
	nt := m["cargo_nextest"]
	if nt.Check == nil || nt.Check.Command != "which" || !slices.Equal(nt.Check.Args, []string{"cargo-nextest"}) ||
		nt.Install != "Install with `cargo install cargo-nextest`" {
		t.Errorf("cargo_nextest check %+v install %q", nt.Check, nt.Install)
	}
	if got := argvOf(t, nt, `{}`); !slices.Equal(got, []string{"cargo", "nextest", "run"}) {
		t.Errorf("cargo_nextest argv %q", got)
	}
	// A subcommand sequence: steps by tool and subcommand, a delay.
	qc := m["cargo_qualitycheck"]
	if steps := stepTools(qc); !slices.Equal(steps, []string{"cargo_fmt", "cargo_build"}) || qc.StepDelay != 500*time.Millisecond {
		t.Errorf("cargo_qualitycheck steps %v delay %v", steps, qc.StepDelay)
	}
	// A top-level sequence: "command": "sequence" is no program.
	rq := loadMTDF(t, "rust_quality_check.json")
	if len(rq.Tools) != 1 {
		t.Fatalf("rust_quality_check tools: %d", len(rq.Tools))
	}
	seq := rq.Tools[0]
	if seq.Name != "rust_quality_check" || seq.Command != "" || !seq.Sync || seq.Timeout != 900*time.Second ||
		seq.StepDelay != 500*time.Millisecond || !slices.Equal(stepTools(seq), []string{"cargo_fmt", "cargo_build"}) ||
		seq.Sequence[1].Args["release"] != true {
		t.Errorf("rust_quality_check: %+v", seq)
	}
	// Together, every step names a tool that is there.
	cat := Assemble(nil, []*File{loadMTDF(t, "basic_structure.json"), cargo, rq})
	if len(cat.Problems) > 0 || len(cat.Tools) != 8 {
		t.Errorf("catalog: %d tools, problems %v", len(cat.Tools), cat.Problems)
	}
}

func stepTools(t *Tool) []string {
	var out []string
	for _, st := range t.Sequence {
		out = append(out, st.Tool)
	}
	return out
}

// Every fixture is valid against the schema `deckhand tools schema`
// prints; what Parse refuses of MTDF's spellings, the schema refuses too.
func TestMTDFSchemaAgrees(t *testing.T) {
	rs, err := compiled()
	if err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(filepath.Join("testdata", "mtdf"))
	n := 0
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		n++
		data, _ := os.ReadFile(filepath.Join("testdata", "mtdf", e.Name()))
		var doc any
		json.Unmarshal(data, &doc)
		if err := rs.validate("", doc); err != nil {
			t.Errorf("%s: the schema refuses it: %v", e.Name(), err)
		}
	}
	if n < 3 {
		t.Fatalf("%d fixtures", n)
	}
	for _, doc := range []string{
		`{"name": "x", "description": "d", "command": "ls", "subcommand": [{"name": "a", "description": "d"}], "subcommands": [{"name": "b", "description": "d"}]}`,
		`{"name": "x", "description": "d", "command": "ls", "availability_check": "which ls | grep ls"}`,
		`{"name": "x", "description": "d", "command": "ls", "availability_check": "PATH=/x which ls"}`,
		`{"name": "x", "description": "d", "command": "ls", "availability_check": "test -e ~/.cargo"}`,
		`{"name": "x", "description": "d", "command": "ls", "availability_check": "   "}`,
	} {
		var v any
		json.Unmarshal([]byte(doc), &v)
		if rs.validate("", v) == nil {
			t.Errorf("the schema accepts %s", doc)
		}
		if _, _, err := Parse("t.json", []byte(doc)); err == nil {
			t.Errorf("Parse accepts %s", doc)
		}
	}
}

// What MTDF documents that Deckhand will not do, or two spellings of one
// key at once: refused, naming the file, the place and why.
func TestMTDFRejected(t *testing.T) {
	for _, c := range []struct{ doc, path, reason string }{
		{`{"name": "x", "description": "d", "command": "ls", "subcommand": [{"name": "a", "description": "d"}], "subcommands": [{"name": "b", "description": "d"}]}`,
			"$", `both "subcommand" (MTDF's spelling) and "subcommands" are given`},
		{`{"name": "x", "description": "d", "command": "ls", "subcommand": [{"name": "a", "description": "d", "subcommand": [{"name": "b", "description": "d"}], "subcommands": [{"name": "c", "description": "d"}]}]}`,
			"$.subcommand[0]", `both "subcommand"`},
		{`{"name": "x", "description": "d", "command": "ls", "subcommand": [{"name": "a", "description": "d", "availability_check": "which cargo-nextest || exit 1"}]}`,
			"$.subcommand[0].availability_check", "needs a shell (|)"},
		{`{"name": "x", "description": "d", "command": "ls", "availability_check": "command -v \"cargo\""}`,
			"$.availability_check", "never through a shell"},
		{`{"name": "x", "description": "d", "command": "ls", "availability_check": "RUSTUP_TOOLCHAIN=nightly cargo --version"}`,
			"$.availability_check", "sets a variable (RUSTUP_TOOLCHAIN=nightly)"},
		{`{"name": "x", "description": "d", "command": "ls", "fallback": {"name": "x", "description": "d", "command": "ls", "availability_check": "ls $HOME"}}`,
			"$.fallback.availability_check", "needs a shell ($)"},
		{`{"name": "x", "description": "d", "command": "sequence"}`,
			"$", `"command": "sequence" makes a sequence tool, but there is no "sequence"`},
		{`{"name": "x", "description": "d", "command": "sequence", "subcommand": [{"name": "a", "description": "d"}]}`,
			"$.subcommand[0]", `"command": "sequence" makes a sequence tool`},
		{`{"name": "x", "description": "d", "command": "ls", "step_delay_ms": 500}`,
			"$.step_delay_ms", "for a sequence"},
		{`{"name": "x", "description": "d", "command": "ls", "subcommand": [{"name": "a", "description": "d", "options": [{"name": "execution_mode", "type": "string"}]}]}`,
			"$.subcommand[0].options[0].name", "meta parameter every tool takes"},
		// R10.4.10 forbids "_" in subcommand names because Ahma parses
		// git_status back into git and status; Deckhand looks a tool up by
		// its whole name, so underscores are fine (the seed's own example
		// has async_subcommand) unless two subcommands flatten to one name.
		{`{"name": "g", "description": "d", "command": "git", "subcommand": [{"name": "a_b", "description": "d"}, {"name": "a", "description": "d", "subcommand": [{"name": "b", "description": "d"}]}]}`,
			"$", `two subcommands make the tool "g_a_b"`},
		// Problems inside "subcommand" are placed under that key, as written.
		{`{"name": "x", "description": "d", "command": "ls", "subcommand": [{"name": "a", "description": "d", "options": [{"name": "n", "type": "integer", "default": "two"}]}]}`,
			"$.subcommand[0].options[0].default", `the default "two" does not fit`},
		{`{"name": "x", "description": "d", "command": "ls", "subcommand": [{"name": "a", "description": "d", "flag": "-a"}]}`,
			"$.subcommand[0]", `unknown key "flag"`},
		{`{"name": "x", "description": "d", "command": "ls", "subcommand": [{"name": "a", "description": "d"}, {"name": "a", "description": "d"}]}`,
			"$", "two subcommands"},
	} {
		_, _, err := Parse("t.json", []byte(c.doc))
		de, ok := err.(*DefError)
		if !ok {
			t.Errorf("%s: want a DefError, got %v", c.doc, err)
			continue
		}
		found := false
		for _, p := range de.Problems {
			found = found || p.File == "t.json" && p.Path == c.path && strings.Contains(p.Reason, c.reason)
		}
		if !found {
			t.Errorf("%s:\nwant a problem at %s saying %q, got %v", c.doc, c.path, c.reason, de)
		}
	}
}

// Deckhand's own spellings still load, and mean what MTDF's do.
func TestMTDFAliasesAgree(t *testing.T) {
	mtdf := `{"name": "x", "description": "d", "command": "prog", "subcommand": [{"name": "a_b", "description": "d", "availability_check": "prog --version",
		"subcommand": [{"name": "c", "description": "d"}]}]}`
	ours := `{"name": "x", "description": "d", "command": "prog", "subcommands": [{"name": "a_b", "description": "d", "availability_check": {"command": "prog", "args": ["--version"]},
		"subcommands": [{"name": "c", "description": "d"}]}]}`
	_, a, err := Parse("a.json", []byte(mtdf))
	if err != nil {
		t.Fatal(err)
	}
	_, b, err := Parse("b.json", []byte(ours))
	if err != nil {
		t.Fatal(err)
	}
	if len(a) != 1 || len(b) != 1 {
		t.Fatalf("tools: %d and %d", len(a), len(b))
	}
	if a[0].Name != "x_a_b_c" || b[0].Name != a[0].Name || !slices.Equal(a[0].Args, []string{"a_b", "c"}) || !slices.Equal(a[0].Args, b[0].Args) ||
		a[0].Check.Command != b[0].Check.Command || !slices.Equal(a[0].Check.Args, b[0].Check.Args) {
		t.Errorf("MTDF's spelling made %+v, ours %+v", a[0], b[0])
	}
}

// Served: MTDF-shaped definitions run, sandboxed, as the document says:
// subcommands by "subcommand", an availability check as a command line
// (split into a program and its arguments), a top-level sequence whose
// steps name a tool and a subcommand.
func TestMTDFServes(t *testing.T) {
	f := newFixture(t)
	write := func(name, doc string) {
		if err := os.WriteFile(filepath.Join(f.dir, name), []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("say.json", `{"name": "say", "description": "Says.", "command": "echo", "synchronous": true, "subcommand": [
		{"name": "hello", "description": "Hello.", "availability_check": "test -d .",
			"positional_args": [{"name": "who", "type": "string", "required": true}]},
		{"name": "never", "description": "Never offered.", "availability_check": "test -d no-such-folder-here",
			"install_instructions": "Install with nothing."}]}`)
	write("both.json", `{"name": "both", "description": "Both.", "command": "sequence", "synchronous": true, "step_delay_ms": 10,
		"sequence": [{"tool": "say", "subcommand": "hello", "args": {"who": "one"}}, {"tool": "say", "subcommand": "hello", "args": {"who": "two"}}]}`)
	f.srv.Reload()
	if p := f.srv.Problems(); len(p) > 0 {
		t.Fatalf("problems: %v", p)
	}
	f.mustCall("say_hello", map[string]any{"who": "world"}, "hello world")
	f.mustCall("both", nil, "$ echo hello one", "hello one", "$ echo hello two", "hello two")
	if f.tools()["say_never"] != nil {
		t.Error("a tool whose availability check fails is offered")
	}
	if why := f.whyNot("say_never"); !strings.Contains(why, "availability check `test -d no-such-folder-here` failed") || !strings.Contains(why, "Install with nothing.") {
		t.Errorf("why say_never is not offered: %q", why)
	}
}
