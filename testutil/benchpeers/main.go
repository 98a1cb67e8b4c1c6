// Command benchpeers measures Deckhand against two other MCP hosts,
// mark3labs/mcphost and charmbracelet/crush, in one run (issue 23, item 6;
// `make bench-peers` installs the peers into bin/bench-peers and runs it).
//
// Every host is pointed at the same aimock (an OpenAI-compatible mock
// model driven by fixtures) and the same server-everything instances over
// stdio, each configured in its own format in a temporary folder, and run
// non-interactively with a prompt. Runs are interleaved: run i of a
// measure starts the hosts in an order rotated by i. The table gives
// Deckhand ÷ peer as the median of the ratios paired run by run (run i of
// Deckhand over run i of the peer, pairs.go), then every host's raw min /
// median / max. A measure that cannot be taken for a host says why in its
// cell. Every host's first model request is the first that carries tools
// (a title request without tools does not count): times are taken there
// and the process tree is sampled there, for every host alike.
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
	"maps"
	"math"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
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
	n, slowN, scaleN  int
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
	flag.IntVar(&o.scaleN, "scale-n", 3, "runs of each host for the scale measures (1, 10 and 100 servers of 10 tools; 5,000 tools)")
	flag.DurationVar(&o.limit, "cap", 60*time.Second, "the longest a run may take; a host with no answer by then is reported as taking longer")
	flag.StringVar(&o.only, "only", "", "comma-separated measures to take (answer1, answer19, tree, loop, hang, scale, rss5000); default all")
	flag.StringVar(&o.deckhand, "deckhand", "bin/deckhand", "the Deckhand binary")
	flag.StringVar(&o.peers, "peers", "bin/bench-peers", "where make bench-peers installs mcphost and crush (NAME, NAME.version, NAME.unavailable); BENCH_CRUSH=/path/to/crush uses a crush built elsewhere")
	flag.StringVar(&o.nodeModules, "node-modules", "testutil/node_modules", "the npm peers (make setup-peers)")
	flag.StringVar(&o.out, "out", "", "also write the report to this file")
	flag.StringVar(&o.sandbox, "sandbox", "", `Deckhand's sandbox setting for every server ("off" to compare unconfined); default Deckhand's own`)
	flag.BoolVar(&o.warm, "warm", true, "one untimed run of each host before measuring")
	flag.BoolVar(&o.keep, "keep", false, "keep the temporary folder (configs, each run's stderr, the host's smaps where the process tree is sampled)")
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
	// builtElsewhere: peers given by BENCH_NAME (host name → "BENCH_NAME=path").
	builtElsewhere map[string]string
	early          map[string]early    // measure → Deckhand's runs that started before every server was ready
	left           map[string]leftover // "host measure" → runs after which processes outlived the host
}

type early struct{ runs, most, servers int }

type leftover struct{ runs, most int }

// series is one measure of one host: a value per run that gave one (by
// the run's index within its measure, for pairing), and why the others
// did not.
type series struct {
	byRun map[int]float64 // +Inf: no answer within the cap
	fails []string
}

// vals are the values in the order of the runs.
func (s *series) vals() []float64 {
	if s == nil {
		return nil
	}
	out := make([]float64, 0, len(s.byRun))
	for _, i := range slices.Sorted(maps.Keys(s.byRun)) {
		out = append(out, s.byRun[i])
	}
	return out
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

	// The servers of a known size for the scale measures: stdioserver
	// -tools N, built here, in a folder of its own (Deckhand's sandbox
	// will not show a server the folder that holds the hosts' homes).
	b.st.sized = filepath.Join(b.work, "bin", "stdioserver")
	if out, err := exec.Command("go", "build", "-o", b.st.sized, filepath.Join(root, "testutil", "stdioserver")).CombinedOutput(); err != nil {
		return fmt.Errorf("building testutil/stdioserver: %v: %s", err, out)
	}

	b.hosts = append(b.hosts, deckhand{o.deckhand})
	b.builtElsewhere = map[string]string{}
	for _, p := range []struct {
		name string
		make func(string) host
	}{
		{"mcphost", func(bin string) host { return mcphost{bin} }},
		{"crush", func(bin string) host { return crush{bin} }},
	} {
		bin, env := peerBinary(o.peers, p.name, os.Getenv)
		if env != "" {
			if _, err := os.Stat(bin); err != nil {
				return fmt.Errorf("%s=%s: %w", env, bin, err)
			}
			b.builtElsewhere[p.name] = env + "=" + bin
			b.hosts = append(b.hosts, p.make(bin))
			continue
		}
		if _, err := os.Stat(bin); err != nil {
			why := "not installed"
			if u, err := os.ReadFile(bin + ".unavailable"); err == nil {
				why += ": " + oneLine(string(u), 200)
			} else {
				why += " (make bench-peers installs it into " + o.peers + ")"
			}
			why += "; BENCH_" + strings.ToUpper(p.name) + "=/path/to/" + p.name + " uses one built elsewhere"
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
		// Every server ready before the first request, as the peers do:
		// Deckhand is given the cap as its --wait.
		b.measure("answer19", o.slowN, scenario{servers: 19, ready: true})
	}
	if want("tree") {
		b.measure("tree", o.slowN, scenario{servers: 31, ready: true, sample: true})
	}
	if want("loop") {
		b.measure("loop", o.slowN, scenario{servers: 31, loop: true, ready: true})
	}
	if want("hang") {
		b.measure("hang", o.slowN, scenario{servers: 1, hang: true})
	}
	if want("scale") {
		// 1, 10 and 100 servers of 10 tools, interleaved run by run.
		for i := 0; i < o.scaleN; i++ {
			for _, n := range scaleServers {
				sc := scenario{servers: n, sized: 10, ready: true}
				for j := range b.hosts {
					h := b.hosts[(i+j)%len(b.hosts)]
					r := b.runOne(h, sc, fmt.Sprintf("scale%d-%d", n, i+1))
					b.record(fmt.Sprintf("scale%d", n), i, h, sc, r)
				}
			}
		}
	}
	if want("rss5000") {
		b.measure("rss5000", o.scaleN, scenario{servers: 100, sized: 50, ready: true, sample: true})
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
			b.record(m, i, h, sc, r)
		}
	}
}

func (b *bench) put(measure, host string, run int, v float64, fail string) {
	if b.res[measure] == nil {
		b.res[measure] = map[string]*series{}
	}
	s := b.res[measure][host]
	if s == nil {
		s = &series{byRun: map[int]float64{}}
		b.res[measure][host] = s
	}
	if fail != "" {
		s.fails = append(s.fails, fail)
		return
	}
	s.byRun[run] = v
}

// record turns a run into values of the measures it serves.
func (b *bench) record(m string, run int, h host, sc scenario, r result) {
	put := func(measure string, v float64, fail string) { b.put(measure, h.name(), run, v, fail) }
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
		put("answer"+suffix, r.answer.Seconds(), why)
		if first, ok := firstWithTools(r.reqs); ok {
			put("tools"+suffix, float64(first.tools), "")
		}
		if why == "" && r.capped {
			why = fmt.Sprintf("answered but did not exit within %s", b.o.limit)
		}
		put("whole"+suffix, r.exit.Seconds(), why)
	case "tree":
		if why != "" {
			put("size31", 0, why)
			put("count31", 0, why)
			put("rss31", 0, why)
			put("hostrss31", 0, why)
			put("answer31", 0, why)
			return
		}
		put("answer31", r.answer.Seconds(), "")
		if r.capped {
			put("whole31", 0, fmt.Sprintf("answered but did not exit within %s", b.o.limit))
		} else {
			put("whole31", r.exit.Seconds(), "")
		}
		first, ok := firstWithTools(r.reqs)
		if !ok {
			put("size31", 0, "no model request carrying tools seen")
		} else {
			put("size31", float64(first.bytes), "")
			put("tools31", float64(first.tools), "")
		}
		if r.peakCount == 0 {
			put("count31", 0, "no sample of the process tree")
			put("rss31", 0, "no sample of the process tree")
			put("hostrss31", 0, "no sample of the process tree")
		} else {
			put("count31", float64(r.peakCount), "")
			put("rss31", float64(r.peakRSS), "")
			put("hostrss31", float64(r.hostRSS), "")
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
			put("round", 0, why)
			return
		}
		// From the first model request to the last: eight rounds of a
		// tool call and the model request carrying its result.
		put("round", (at[loopRounds]-at[0]).Seconds()/loopRounds, "")
	case "scale1", "scale10", "scale100":
		// Start to the first model request carrying tools, and how many.
		first, ok := firstWithTools(r.reqs)
		switch {
		case ok:
			why = ""
		case why == "":
			why = "no model request carrying tools"
		}
		if why != "" {
			put(m, 0, why)
			return
		}
		put(m, first.at.Seconds(), "")
		put("tools"+m, float64(first.tools), "")
	case "rss5000":
		first, ok := firstWithTools(r.reqs)
		switch {
		case !ok:
			put("rss5000", 0, "no model request carrying tools: "+why)
		case r.peakCount == 0:
			put("rss5000", 0, "no sample of the process tree")
		default:
			put("rss5000", float64(r.hostRSS), "")
			put("tools5000", float64(first.tools), "")
		}
	case "hang":
		if r.answer == 0 && r.capped {
			put("hang", math.Inf(1), "")
			return
		}
		put("hang", r.answer.Seconds(), why)
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
	var smaps []byte // the host's /proc/PID/smaps at the peak, kept in the run's folder (-keep)
	if sc.sample {
		b.rec.onFirstToolsRequest(func() {
			for range 6 {
				c, m := tree(pid)
				mu.Lock()
				if m > r.peakRSS {
					r.peakRSS, r.peakCount, r.hostRSS = m, c, rss(pid)
					smaps, _ = os.ReadFile("/proc/" + strconv.Itoa(pid) + "/smaps")
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
	mu.Lock()
	os.WriteFile(filepath.Join(dir, "stdout.log"), out.Bytes(), 0o644)
	if smaps != nil {
		os.WriteFile(filepath.Join(dir, "smaps"), smaps, 0o644)
	}
	mu.Unlock()
	errf.Sync()
	if all, err := os.ReadFile(errf.Name()); err == nil {
		r.stderr = lastLine(string(all))
		r.connecting = connecting(string(all))
	}
	state := "no answer"
	if r.answer > 0 {
		state = fmt.Sprintf("answer %.3f s", r.answer.Seconds())
	}
	var counts []string
	for _, q := range b.rec.modelRequests() {
		counts = append(counts, strconv.Itoa(q.tools))
	}
	b.progress("%-12s %-8s %s, exit %.3f s (code %d), %d model requests (tools: %s)", label, h.name(), state, r.exit.Seconds(), r.code, len(counts), strings.Join(counts, ", "))
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
		if env, ok := b.builtElsewhere[name]; ok {
			fmt.Fprintf(w, "- %s: built elsewhere (%s)\n", name, env)
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
	fmt.Fprintf(w, "- runs: %d of each host for 1 server, %d for the scale measures, %d for the others, interleaved (order rotated each run); cap %s; Deckhand's sandbox: %s\n",
		b.o.n, b.o.scaleN, b.o.slowN, b.o.limit, sb)
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
