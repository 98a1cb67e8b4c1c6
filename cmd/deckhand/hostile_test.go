package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"deckhand/terminal"
	"deckhand/testutil"
)

// unsafe reports the first byte or character of s that could steer a
// terminal: a control byte other than newline and tab, an ESC, a C1 control
// or a bidi override.
func unsafe(s string) string {
	for _, r := range s {
		if (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || (r >= 0x80 && r <= 0x9f) || r == 0x202e || r == 0x2066 {
			return fmt.Sprintf("%U", r)
		}
	}
	return ""
}

// A server whose names, titles, descriptions, progress and results carry
// escape sequences and bidi overrides: nothing of it reaches the terminal
// raw, odd names are left out with the reason, and a conversation with it
// answers.
func TestHostileServerText(t *testing.T) {
	model := testutil.NewModelServer(t,
		testutil.ModelResponse{Body: testutil.ToolCallChunks(testutil.ToolCallSpec{ID: "a", Name: "hz__spoof", Arguments: `{"text":"rm -rf ~"}`})},
		testutil.ModelResponse{Body: testutil.TextChunks("Done\x1b[2J, \u202eall fine.")},
	)
	cfg := writeConfig(t, fmt.Sprintf(`
[model]
base_url = %q
name = "scripted"

[mcp.servers.hz]
command = %q
args = ["-hostile"]
`, model.URL, stdioServerBin(t)))
	runs := []struct {
		name string
		args []string
	}{
		{"mcp tools", []string{"mcp", "tools", "--wait", "60s"}},
		{"mcp tool", []string{"mcp", "tool", "hz.spoof"}},
		{"mcp call", []string{"mcp", "call", "hz.spoof", `{"text":"x"}`}},
		{"chat -p", []string{"chat", "-p", "go", "--approve=auto", "--wait", "60s"}},
	}
	for _, tc := range runs {
		r := deckhand(t, nil, "", append([]string{"--config", cfg}, tc.args...)...)
		if r.code != exitOK {
			t.Errorf("%s: exit %d\nstdout %q\nstderr %q", tc.name, r.code, r.stdout, r.stderr)
		}
		if u := unsafe(r.stdout + r.stderr); u != "" {
			t.Errorf("%s printed %s:\nstdout %q\nstderr %q", tc.name, u, r.stdout, r.stderr)
		}
		switch tc.name {
		case "mcp tools":
			if !strings.Contains(r.stderr, `tool "new\nline" left out`) || !strings.Contains(r.stderr, "200 bytes long") ||
				!strings.Contains(r.stdout, "hz.spoof") || !strings.Contains(r.stdout, "hz."+strings.Repeat("y", 128)) {
				t.Errorf("mcp tools:\nstdout %s\nstderr %s", r.stdout, r.stderr)
			}
		case "mcp tool":
			if !strings.Contains(r.stdout, "warning:    its title held U+001B (an escape, which starts a terminal sequence)") && !strings.Contains(r.stdout, "warning:    its description held U+001B") {
				t.Errorf("mcp tool does not warn:\n%s", r.stdout)
			}
		case "chat -p":
			if r.stdout != "Done, all fine.\n" {
				t.Errorf("chat -p stdout = %q", r.stdout)
			}
		}
	}
}

// A call that floods progress prints a few lines a second, and its result.
func TestProgressFloodPrintsFewLines(t *testing.T) {
	model := testutil.NewModelServer(t)
	cfg := modelConfig(t, model, "")
	start := time.Now()
	r := deckhand(t, nil, "", "--config", cfg, "mcp", "call", "s.slow", `{"ms":1500,"steps":3000}`)
	took := time.Since(start)
	lines := strings.Count(r.stderr, "progress:")
	if most := int(took/terminal.ProgressEvery) + 2; r.code != exitOK || !strings.Contains(r.stdout, "slept 1500ms") || lines == 0 || lines > most {
		t.Errorf("exit %d, %d progress lines for 3000 notifications in %v (want at most %d)\nstdout %q", r.code, lines, took, most, r.stdout)
	}
}

// mcp call prints a big result's head and tail unless --full.
func TestCallCapsBigResults(t *testing.T) {
	cfg := modelConfig(t, testutil.NewModelServer(t), "")
	big := strings.Repeat("x", 200<<10)
	r := deckhand(t, nil, "", "--config", cfg, "mcp", "call", "s.echo", `{"text":"`+big+`"}`)
	if r.code != exitOK || len(r.stdout) > printLimit+1024 || !strings.Contains(r.stdout, "--full prints it all") {
		t.Errorf("capped: exit %d, %d bytes printed", r.code, len(r.stdout))
	}
	r = deckhand(t, nil, "", "--config", cfg, "mcp", "call", "s.echo", `{"text":"`+big+`"}`, "--full")
	if r.code != exitOK || !strings.Contains(r.stdout, big) {
		t.Errorf("--full: exit %d, %d bytes printed", r.code, len(r.stdout))
	}
}

// A tool that answers with 50 MiB fails that call with the reason, the model
// is told, and the server's next call in the same turn answers.
func TestFiftyMegabyteResult(t *testing.T) {
	model := testutil.NewModelServer(t,
		testutil.ModelResponse{Body: testutil.ToolCallChunks(testutil.ToolCallSpec{ID: "a", Name: "b__big", Arguments: `{"mib":50}`})},
		testutil.ModelResponse{Body: testutil.ToolCallChunks(testutil.ToolCallSpec{ID: "b", Name: "b__echo", Arguments: `{"text":"after"}`})},
		testutil.ModelResponse{Body: testutil.TextChunks("It was too big.")},
	)
	cfg := writeConfig(t, fmt.Sprintf(`
[model]
base_url = %q
name = "scripted"

[mcp.servers.b]
command = %q
args = ["-big"]
`, model.URL, stdioServerBin(t)))
	r := deckhand(t, nil, "", "--config", cfg, "chat", "-p", "go", "--approve=auto", "--wait", "60s")
	if r.code != exitOK || r.stdout != "It was too big.\n" {
		t.Fatalf("exit %d\nstdout %q\nstderr %q", r.code, r.stdout, r.stderr)
	}
	reqs := model.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d model requests, want 3", len(reqs))
	}
	if second := string(reqs[1]); !strings.Contains(second, "50.0 MiB, over the 16.0 MiB one message may have") {
		t.Errorf("the model was not told why: %.2000s", second)
	}
	if third := string(reqs[2]); !strings.Contains(third, "Echo: after") {
		t.Errorf("the call after the big one did not answer: %.2000s", third)
	}
	r = deckhand(t, nil, "", "--config", cfg, "mcp", "call", "b.big", `{"mib":50}`)
	if r.code == exitOK || !strings.Contains(r.stderr, "over the 16.0 MiB one message may have") || len(r.stdout)+len(r.stderr) > 4096 {
		t.Errorf("mcp call of 50 MiB: exit %d, stdout %.300q, stderr %.500q", r.code, r.stdout, r.stderr)
	}
}

// The real binary, in a chat of five turns with a server that sends every
// notification kind 10,000 times a second: each turn answers, and the
// peak RSS is reported (with a bound far above what it is, 1 GiB, to catch
// growth without limit).
func TestFloodedChatMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	model := testutil.NewModelServer(t)
	for range 5 {
		model.Add(testutil.ModelResponse{Body: testutil.ToolCallChunks(testutil.ToolCallSpec{ID: "a", Name: "f__echo", Arguments: `{}`})},
			testutil.ModelResponse{Body: testutil.TextChunks("done")})
	}
	cfg := writeConfig(t, fmt.Sprintf(`
[model]
base_url = %q
name = "scripted"

[mcp.servers.f]
command = %q
args = ["-flood", "10000", "-flood-all"]

# The flooding server alone: the built-in one's start (its availability
# checks run sandboxed commands) is not what this measures.
[tools]
enabled = false
`, model.URL, stdioServerBin(t)))
	bin := testutil.BuildProgram(t, "./cmd/deckhand")
	cmd := exec.Command(bin, "--config", cfg, "--db", filepath.Join(t.TempDir(), "log.db"), "chat", "--wait", "60s", "--approve=auto")
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
	cmd.Stdin = strings.NewReader(strings.Repeat("echo\n", 5))
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Deckhand's own peak (VmHWM), sampled while it runs: the wait
	// status's maximum also counts its children (the flooding server, a
	// race-built binary in a -race run), which is not what this measures.
	var rss int
	sampled, exited := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(sampled)
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			if kib := vmHWM(cmd.Process.Pid); kib > rss {
				rss = kib
			}
			select {
			case <-exited:
				return
			case <-tick.C:
			}
		}
	}()
	err := cmd.Wait()
	close(exited)
	<-sampled
	if err != nil {
		t.Fatalf("chat: %v\n%s\n%s", err, out.String(), errOut.String())
	}
	took := time.Since(start)
	if n := strings.Count(out.String(), "done"); n != 5 || strings.Contains(out.String(), "denied") {
		t.Errorf("%d of 5 turns answered:\n%s\n%s", n, out.String(), errOut.String())
	}
	t.Logf("5 turns under a flood of every notification kind: %v in all (with start and stop), peak RSS %.1f MB", took.Round(time.Millisecond), float64(rss)/1024)
	// Far above what it is (a few hundred MB on a loaded machine, where
	// the collector runs late), and far below what a flood kept without
	// limit reaches.
	const most = 1 << 20 // KiB: 1 GiB
	if rss > most {
		t.Errorf("peak RSS %d KiB, over %d", rss, most)
	}
}

// vmHWM is a process's peak resident memory in KiB (0 once it is gone).
func vmHWM(pid int) int {
	data, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			var kib int
			fmt.Sscanf(strings.TrimSpace(rest), "%d", &kib)
			return kib
		}
	}
	return 0
}
