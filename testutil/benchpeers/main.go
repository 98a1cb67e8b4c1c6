// Command benchpeers measures Deckhand against two other MCP hosts,
// mark3labs/mcphost and charmbracelet/crush, in one run (issue 23, item 6;
// `make bench-peers` installs the peers into bin/bench-peers and runs it).
//
// Every host is pointed at the same aimock (an OpenAI-compatible mock
// model driven by fixtures) and the same server-everything instances over
// stdio, each configured in its own format in a temporary folder, and run
// non-interactively with a prompt. Runs are interleaved: run i of a
// measure starts the hosts in an order rotated by i. The table gives
// Deckhand ÷ peer for the median of each measure, then every host's raw
// min / median / max. A measure that cannot be taken for a host says why
// in its cell.
//
// Between the hosts and aimock sits a recording proxy (proxy.go): it
// gives the exact size and arrival time of every model request. This
// process is a child subreaper, so servers a host leaves behind are ended
// before the next run.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"
)

const (
	marker     = "BENCH-ANSWER-OK"
	helloWord  = "benchhello"
	loopWord   = "benchloop"
	loopRounds = 8
)

type options struct {
	n, slowN          int
	limit             time.Duration
	only              string
	deckhand, peers   string
	nodeModules, out  string
	sandbox           string
	keep, warm, quiet bool
}

func main() {
	var o options
	flag.IntVar(&o.n, "n", 5, "runs of each host for the 1-server measures")
	flag.IntVar(&o.slowN, "slow-n", 3, "runs of each host for the 19- and 31-server measures, the tool loop and the hung server")
	flag.DurationVar(&o.limit, "cap", 60*time.Second, "the longest a run may take; a host with no answer by then is reported as taking longer")
	flag.StringVar(&o.only, "only", "", "comma-separated measures to take (answer1, answer19, tree, loop, hang); default all")
	flag.StringVar(&o.deckhand, "deckhand", "bin/deckhand", "the Deckhand binary")
	flag.StringVar(&o.peers, "peers", "bin/bench-peers", "where make bench-peers installs mcphost and crush (NAME, NAME.version, NAME.unavailable)")
	flag.StringVar(&o.nodeModules, "node-modules", "testutil/node_modules", "the npm peers (make setup-peers)")
	flag.StringVar(&o.out, "out", "", "also write the report to this file")
	flag.StringVar(&o.sandbox, "sandbox", "", `Deckhand's sandbox setting for every server ("off" to compare unconfined); default Deckhand's own`)
	flag.BoolVar(&o.warm, "warm", true, "one untimed run of each host before measuring")
	flag.BoolVar(&o.keep, "keep", false, "keep the temporary folder (configs, each run's stderr)")
	flag.BoolVar(&o.quiet, "quiet", false, "no progress on stderr")
	flag.Parse()
	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "benchpeers:", err)
		os.Exit(1)
	}
}

// bench is one invocation: the stage, the hosts, the results.
type bench struct {
	o       options
	st      stage
	rec     *recorder
	work    string
	keep    map[int]bool // aimock: not cleaned up between runs
	hosts   []host
	missing map[string]string // host name → why it is not measured
	res     map[string]map[string]*series
	notes   []string
	runs    int
	early   map[string]early    // measure → Deckhand's runs that started before every server was ready
	left    map[string]leftover // "host measure" → runs after which processes outlived the host
}

type early struct{ runs, most, servers int }

type leftover struct{ runs, most int }

// series is one measure of one host: a value per run that gave one, and
// why the others did not.
type series struct {
	vals  []float64 // +Inf: no answer within the cap
	fails []string
}

func run(o options) error {
	root, err := moduleRoot()
	if err != nil {
		return err
	}
	abs := func(p string) string {
		if filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(root, p)
	}
	o.deckhand, o.peers, o.nodeModules = abs(o.deckhand), abs(o.peers), abs(o.nodeModules)

	b := &bench{o: o, keep: map[int]bool{}, missing: map[string]string{}, res: map[string]map[string]*series{}, early: map[string]early{}, left: map[string]leftover{}}
	if err := becomeSubreaper(); err != nil {
		return fmt.Errorf("becoming a child subreaper: %w", err)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		return fmt.Errorf("node is needed for aimock and the servers: %w", err)
	}
	aimock := filepath.Join(o.nodeModules, "@copilotkit", "aimock", "dist", "cli.js")
	b.st = stage{
		node:       node,
		everything: filepath.Join(o.nodeModules, "@modelcontextprotocol", "server-everything", "dist", "index.js"),
		hangJS:     filepath.Join(root, "testutil", "benchpeers", "hang.js"),
		sandbox:    o.sandbox,
		limit:      o.limit,
	}
	for _, f := range []string{aimock, b.st.everything, b.st.hangJS, o.deckhand} {
		if _, err := os.Stat(f); err != nil {
			return fmt.Errorf("%s is missing (make build setup-peers)", f)
		}
	}

	b.work, err = os.MkdirTemp("", "benchpeers-")
	if err != nil {
		return err
	}
	if o.keep {
		fmt.Fprintln(os.Stderr, "keeping", b.work)
	} else {
		defer os.RemoveAll(b.work)
	}

	b.hosts = append(b.hosts, deckhand{o.deckhand})
	for _, p := range []struct {
		name string
		make func(string) host
	}{
		{"mcphost", func(bin string) host { return mcphost{bin} }},
		{"crush", func(bin string) host { return crush{bin} }},
	} {
		bin := filepath.Join(o.peers, p.name)
		if _, err := os.Stat(bin); err != nil {
			why := "not installed"
			if u, err := os.ReadFile(bin + ".unavailable"); err == nil {
				why += ": " + oneLine(string(u), 200)
			} else {
				why += " (make bench-peers installs it into " + o.peers + ")"
			}
			b.missing[p.name] = why
			continue
		}
		b.hosts = append(b.hosts, p.make(bin))
	}

	fixtures := filepath.Join(b.work, "fixtures")
	if err := writeFixtures(fixtures, b.hosts); err != nil {
		return err
	}
	stop, err := b.startModel(node, aimock, fixtures)
	if err != nil {
		return err
	}
	defer stop()

	report := &bytes.Buffer{}
	b.versions(report, root, node)

	want := func(m string) bool {
		if o.only == "" {
			return true
		}
		for _, w := range strings.Split(o.only, ",") {
			if strings.TrimSpace(w) == m {
				return true
			}
		}
		return false
	}
	if o.warm {
		for _, h := range b.hosts {
			b.progress("warm-up: %s", h.name())
			b.runOne(h, scenario{servers: 1}, "warm")
		}
	}
	if want("answer1") {
		b.measure("answer1", o.n, scenario{servers: 1})
	}
	if want("answer19") {
		b.measure("answer19", o.slowN, scenario{servers: 19})
	}
	if want("tree") {
		b.measure("tree", o.slowN, scenario{servers: 31, ready: true})
	}
	if want("loop") {
		b.measure("loop", o.slowN, scenario{servers: 31, loop: true, ready: true})
	}
	if want("hang") {
		b.measure("hang", o.slowN, scenario{servers: 1, hang: true})
	}

	b.table(report)
	os.Stdout.Write(report.Bytes())
	if o.out != "" {
		return os.WriteFile(o.out, report.Bytes(), 0o644)
	}
	return nil
}

// startModel starts aimock on a free port and the recorder in front of it.
func (b *bench) startModel(node, cli, fixtures string) (stop func(), err error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	logf, err := os.Create(filepath.Join(b.work, "aimock.log"))
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(node, cli, "-p", fmt.Sprint(port), "-f", fixtures, "--log-level", "warn")
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	b.keep[cmd.Process.Pid] = true
	stopMock := func() { cmd.Process.Kill(); cmd.Wait(); logf.Close() }
	deadline := time.Now().Add(30 * time.Second)
	for {
		c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port))
		if err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			stopMock()
			log, _ := os.ReadFile(logf.Name())
			return nil, fmt.Errorf("aimock never listened: %s", log)
		}
		time.Sleep(50 * time.Millisecond)
	}
	target, _ := url.Parse(fmt.Sprintf("http://127.0.0.1:%d", port))
	b.rec = newRecorder(target)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		stopMock()
		return nil, err
	}
	srv := &http.Server{Handler: b.rec}
	go srv.Serve(l)
	b.st.modelURL = "http://" + l.Addr().String() + "/v1"
	return func() { srv.Close(); stopMock() }, nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// writeFixtures writes aimock's fixtures: a plain answer, and for each
// way of naming tools among the hosts an 8-round loop calling ev01's echo
// (round k says "loop-rk"; the answer comes after the eighth result).
func writeFixtures(dir string, hosts []host) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	type m = map[string]any
	fx := []m{{
		"match":    m{"userMessage": helloWord},
		"response": m{"content": marker + ": the mock model answered."},
	}}
	seen := map[string]bool{}
	for _, h := range hosts {
		name := h.toolName("ev01", "echo")
		if seen[name] {
			continue
		}
		seen[name] = true
		prompt := loopPrompt(h)
		call := func(k int) m {
			args, _ := json.Marshal(m{"message": fmt.Sprintf("loop-r%d", k)})
			return m{"toolCalls": []m{{"id": fmt.Sprintf("call_r%d", k), "name": name, "arguments": string(args)}}}
		}
		fx = append(fx, m{
			"match":    m{"userMessage": prompt, "toolResultContains": fmt.Sprintf("loop-r%d", loopRounds)},
			"response": m{"content": fmt.Sprintf("%s: %d rounds of echo done.", marker, loopRounds)},
		})
		for k := loopRounds - 1; k >= 1; k-- {
			fx = append(fx, m{"match": m{"userMessage": prompt, "toolResultContains": fmt.Sprintf("loop-r%d", k)}, "response": call(k + 1)})
		}
		fx = append(fx, m{"match": m{"userMessage": prompt, "hasToolResult": false}, "response": call(1)})
	}
	body, err := json.MarshalIndent(m{"fixtures": fx}, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "bench.json"), body, 0o644)
}

// loopPrompt is the loop's prompt for a host: one per tool-naming style,
// so that each host is answered with calls it can resolve.
func loopPrompt(h host) string {
	return loopWord + "-" + strings.NewReplacer("_", "u", "-", "d").Replace(h.toolName("ev01", "x"))
}

// result is what one run gave.
type result struct {
	answer, exit time.Duration // answer: 0 when none came
	capped       bool
	code         int
	stderr       string
	reqs         []request
	peakCount    int
	peakRSS      int64
	hostRSS      int64 // the host's own process at that peak
	leftover     int
	connecting   int // servers Deckhand named as still connecting when it started
}

// connecting counts the servers on Deckhand's "connecting: a, b (their
// tools join when ready)" line, if it printed one.
func connecting(stderr string) int {
	for _, line := range strings.Split(stderr, "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "connecting: "); ok {
			rest, _, _ = strings.Cut(rest, " (")
			return len(strings.Split(rest, ","))
		}
	}
	return 0
}

// measure runs every host n times for one measure, interleaved.
func (b *bench) measure(m string, n int, sc scenario) {
	for i := 0; i < n; i++ {
		for j := range b.hosts {
			h := b.hosts[(i+j)%len(b.hosts)]
			r := b.runOne(h, sc, fmt.Sprintf("%s-%d", m, i+1))
			b.record(m, h, sc, r)
		}
	}
}

func (b *bench) put(measure, host string, v float64, fail string) {
	if b.res[measure] == nil {
		b.res[measure] = map[string]*series{}
	}
	s := b.res[measure][host]
	if s == nil {
		s = &series{}
		b.res[measure][host] = s
	}
	if fail != "" {
		s.fails = append(s.fails, fail)
		return
	}
	s.vals = append(s.vals, v)
}

// record turns a run into values of the measures it serves.
func (b *bench) record(m string, h host, sc scenario, r result) {
	hn := h.name()
	why := ""
	switch {
	case r.answer == 0 && r.capped:
		why = fmt.Sprintf("no answer within %s", b.o.limit)
	case r.answer == 0:
		why = fmt.Sprintf("exited %d after %.1f s without the answer", r.code, r.exit.Seconds())
		if r.stderr != "" {
			why += ": " + r.stderr
		}
	}
	if r.code != 0 && r.answer > 0 {
		b.note("%s: %s run exited %d after answering: %s", hn, m, r.code, r.stderr)
	}
	if r.connecting > 0 && !sc.hang {
		e := b.early[m]
		e.runs++
		e.most = max(e.most, r.connecting)
		e.servers = sc.servers
		b.early[m] = e
	}
	if r.leftover > 0 && !r.capped {
		l := b.left[hn+" "+m]
		l.runs++
		l.most = max(l.most, r.leftover)
		b.left[hn+" "+m] = l
	}
	switch m {
	case "answer1", "answer19":
		suffix := strings.TrimPrefix(m, "answer")
		b.put("answer"+suffix, hn, r.answer.Seconds(), why)
		if why == "" && r.capped {
			why = fmt.Sprintf("answered but did not exit within %s", b.o.limit)
		}
		b.put("whole"+suffix, hn, r.exit.Seconds(), why)
	case "tree":
		if why != "" {
			b.put("size31", hn, 0, why)
			b.put("count31", hn, 0, why)
			b.put("rss31", hn, 0, why)
			b.put("hostrss31", hn, 0, why)
			b.put("answer31", hn, 0, why)
			return
		}
		b.put("answer31", hn, r.answer.Seconds(), "")
		if r.capped {
			b.put("whole31", hn, 0, fmt.Sprintf("answered but did not exit within %s", b.o.limit))
		} else {
			b.put("whole31", hn, r.exit.Seconds(), "")
		}
		var first *request
		for i := range r.reqs {
			if isModelPath(r.reqs[i].path) {
				first = &r.reqs[i]
				break
			}
		}
		if first == nil {
			b.put("size31", hn, 0, "no model request seen")
		} else {
			b.put("size31", hn, float64(first.bytes), "")
			b.put("tools31", hn, float64(first.tools), "")
		}
		if r.peakCount == 0 {
			b.put("count31", hn, 0, "no sample of the process tree")
			b.put("rss31", hn, 0, "no sample of the process tree")
			b.put("hostrss31", hn, 0, "no sample of the process tree")
		} else {
			b.put("count31", hn, float64(r.peakCount), "")
			b.put("rss31", hn, float64(r.peakRSS), "")
			b.put("hostrss31", hn, float64(r.hostRSS), "")
		}
	case "loop":
		var at []time.Duration
		for _, q := range r.reqs {
			if isModelPath(q.path) {
				at = append(at, q.at)
			}
		}
		switch {
		case why != "":
		case len(at) != loopRounds+1:
			why = fmt.Sprintf("%d model requests, not %d", len(at), loopRounds+1)
		}
		if why != "" {
			b.put("round", hn, 0, why)
			return
		}
		// From the first model request to the last: eight rounds of a
		// tool call and the model request carrying its result.
		b.put("round", hn, (at[loopRounds]-at[0]).Seconds()/loopRounds, "")
	case "hang":
		if r.answer == 0 && r.capped {
			b.put("hang", hn, math.Inf(1), "")
			return
		}
		b.put("hang", hn, r.answer.Seconds(), why)
	}
}

func (b *bench) note(format string, args ...any) {
	s := fmt.Sprintf(format, args...)
	for _, n := range b.notes {
		if n == s {
			return
		}
	}
	b.notes = append(b.notes, s)
}

func (b *bench) progress(format string, args ...any) {
	if !b.o.quiet {
		fmt.Fprintf(os.Stderr, format+"\n", args...)
	}
}

// runOne runs one host once, in a fresh folder, with its own HOME (kept
// across that host's runs, as a user's would be).
func (b *bench) runOne(h host, sc scenario, label string) result {
	b.runs++
	dir := filepath.Join(b.work, h.name(), fmt.Sprintf("%03d-%s", b.runs, label))
	home := filepath.Join(b.work, h.name(), "home")
	var r result
	for _, d := range []string{dir, home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			r.stderr = err.Error()
			return r
		}
	}
	prompt := helloWord + ": say the answer."
	if sc.loop {
		prompt = loopPrompt(h) + ": call echo eight times, then answer."
	}
	cmd, err := h.command(&b.st, dir, sc, prompt)
	if err != nil {
		r.stderr = err.Error()
		return r
	}
	cmd.Dir = dir
	cmd.Env = hostEnv(home)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdin, _ := os.Open(os.DevNull)
	defer stdin.Close()
	cmd.Stdin = stdin
	errf, err := os.Create(filepath.Join(dir, "stderr.log"))
	if err != nil {
		r.stderr = err.Error()
		return r
	}
	defer errf.Close()
	cmd.Stderr = errf
	pr, pw, err := os.Pipe()
	if err != nil {
		r.stderr = err.Error()
		return r
	}
	cmd.Stdout = pw

	start := time.Now()
	b.rec.reset(start)
	if err := cmd.Start(); err != nil {
		pw.Close()
		pr.Close()
		r.stderr = err.Error()
		return r
	}
	pw.Close()
	pid := cmd.Process.Pid
	var mu sync.Mutex
	if sc.ready && !sc.loop {
		b.rec.onFirstModelRequest(func() {
			for range 6 {
				c, m := tree(pid)
				mu.Lock()
				if m > r.peakRSS {
					r.peakRSS, r.peakCount, r.hostRSS = m, c, rss(pid)
				}
				mu.Unlock()
				time.Sleep(50 * time.Millisecond)
			}
		})
	}

	var answer time.Duration
	var out bytes.Buffer
	read := make(chan struct{})
	go func() {
		defer close(read)
		buf := make([]byte, 32<<10)
		for {
			n, err := pr.Read(buf)
			if n > 0 {
				mu.Lock()
				out.Write(buf[:n])
				if answer == 0 && bytes.Contains(out.Bytes(), []byte(marker)) {
					answer = time.Since(start)
				}
				mu.Unlock()
			}
			if err != nil {
				return
			}
		}
	}()
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	select {
	case <-exited:
	case <-time.After(b.o.limit):
		r.capped = true
		syscall.Kill(-pid, syscall.SIGKILL)
		<-exited
	}
	r.exit = time.Since(start)
	r.code = cmd.ProcessState.ExitCode()
	r.leftover = cleanUp(b.keep, 3*time.Second)
	select {
	case <-read:
	case <-time.After(2 * time.Second):
	}
	pr.Close()
	mu.Lock()
	r.answer = answer
	mu.Unlock()
	r.reqs = b.rec.requests()
	errf.Sync()
	if all, err := os.ReadFile(errf.Name()); err == nil {
		r.stderr = lastLine(string(all))
		r.connecting = connecting(string(all))
	}
	state := "no answer"
	if r.answer > 0 {
		state = fmt.Sprintf("answer %.3f s", r.answer.Seconds())
	}
	b.progress("%-12s %-8s %s, exit %.3f s (code %d), %d model requests", label, h.name(), state, r.exit.Seconds(), r.code, len(b.rec.modelRequests()))
	return r
}

// hostEnv is this process's environment with HOME and the XDG folders
// moved to home, no other providers' keys, and the bench's key.
func hostEnv(home string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if k == "HOME" || strings.HasPrefix(k, "XDG_") || strings.HasSuffix(k, "_API_KEY") || strings.HasSuffix(k, "_BASE_URL") {
			continue
		}
		env = append(env, kv)
	}
	return append(env, "HOME="+home,
		"XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"XDG_DATA_HOME="+filepath.Join(home, ".local", "share"),
		"XDG_STATE_HOME="+filepath.Join(home, ".local", "state"),
		"XDG_CACHE_HOME="+filepath.Join(home, ".cache"),
		"BENCH_API_KEY=bench-key", "OPENAI_API_KEY=bench-key",
		"CRUSH_DISABLE_PROVIDER_AUTO_UPDATE=1", "CRUSH_DISABLE_METRICS=1", "DO_NOT_TRACK=1")
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return oneLine(lines[len(lines)-1], 160)
}

func oneLine(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > max {
		s = s[:max] + "…"
	}
	return s
}

func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && bytes.HasPrefix(b, []byte("module deckhand")) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("run it inside Deckhand's repository (no go.mod of module deckhand above %s)", dir)
		}
		dir = parent
	}
}

// versions writes what ran: Deckhand's commit, each peer's module version,
// the npm peers' versions, node's.
func (b *bench) versions(w io.Writer, root, node string) {
	fmt.Fprintln(w, "## Deckhand against other MCP hosts (`make bench-peers`)")
	fmt.Fprintln(w)
	desc, _ := exec.Command("git", "-C", root, "describe", "--always", "--dirty").Output()
	fmt.Fprintf(w, "- deckhand: %s (commit %s)\n", b.o.deckhand, strings.TrimSpace(string(desc)))
	for _, name := range []string{"mcphost", "crush"} {
		if why, ok := b.missing[name]; ok {
			fmt.Fprintf(w, "- %s: %s\n", name, why)
			continue
		}
		v, err := os.ReadFile(filepath.Join(b.o.peers, name+".version"))
		version := strings.TrimSpace(string(v))
		if err != nil {
			version = "version unknown (no " + name + ".version beside it)"
		}
		fmt.Fprintf(w, "- %s: %s\n", name, version)
	}
	for _, p := range []string{"@copilotkit/aimock", "@modelcontextprotocol/server-everything"} {
		var pkg struct{ Version string }
		data, _ := os.ReadFile(filepath.Join(b.o.nodeModules, p, "package.json"))
		json.Unmarshal(data, &pkg)
		fmt.Fprintf(w, "- %s %s\n", p, pkg.Version)
	}
	nv, _ := exec.Command(node, "--version").Output()
	fmt.Fprintf(w, "- node %s\n", strings.TrimSpace(string(nv)))
	sb := "Deckhand's default (on)"
	if b.o.sandbox != "" {
		sb = b.o.sandbox
	}
	fmt.Fprintf(w, "- runs: %d of each host for 1 server, %d for the others, interleaved (order rotated each run); cap %s; Deckhand's sandbox: %s\n",
		b.o.n, b.o.slowN, b.o.limit, sb)
	fmt.Fprintln(w)
}

// stats is min, median, max.
func stats(v []float64) (lo, med, hi float64) {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	n := len(s)
	med = s[n/2]
	if n%2 == 0 {
		med = (s[n/2-1] + s[n/2]) / 2
	}
	return s[0], med, s[n-1]
}
